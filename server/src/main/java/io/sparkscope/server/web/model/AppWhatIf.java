package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.efficiency.WhatIfCost;
import io.sparkscope.core.analysis.whatif.ExecutorWhatIf;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.analysis.whatif.WhatIfCaveat;
import io.sparkscope.core.analysis.whatif.WhatIfOptions;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.query.AppHeader;

import java.util.List;

/**
 * The executor what-if of one stored application ({@code /apps/{id}/what-if} and its API), with what the page needs
 * to say how complete the task data behind it was.
 *
 * @param header     the application as the app page shows it
 * @param result     {@link ExecutorWhatIf}'s answer
 * @param keptTasks  ended tasks the snapshot kept one by one (the slowest per stage and every failed one); the
 *                   simulation rebuilt {@code result.reconstructedTasks()} more from the stages' quantiles
 * @param requested  the executor counts asked for with {@code ?executors=}, or null for 25 %–400 %
 * @param cost       each point's core-hours, GB-hours and cost at the operator's prices (core-hours without them)
 */
public record AppWhatIf(AppHeader header, WhatIfResult result, long keptTasks, List<Integer> requested,
                        WhatIfCost cost) {
    /** Largest executor count one can ask for, and how many at once. */
    public static final int MAX_EXECUTORS = 100_000;
    public static final int MAX_COUNTS = 24;
    /** What to write when {@code ?executors=} holds no number. */
    public static final String EXECUTORS_HOW_TO = "give executor counts, comma-separated, e.g. 2,4,16";

    public AppWhatIf {
        requested = requested == null ? null : List.copyOf(requested);
    }

    /**
     * Runs the simulation on a snapshot read back from the database.
     *
     * @param executors counts to simulate instead of the default 25 %–400 % (the actual count is always added)
     */
    public static AppWhatIf of(AppHeader header, AppSnapshot snapshot, TaskOrder order, List<Integer> executors,
                               Prices prices) {
        WhatIfOptions options = WhatIfOptions.DEFAULTS.withOrder(order);
        WhatIfResult result = ExecutorWhatIf.analyze(snapshot, options);
        if (executors != null && !executors.isEmpty()) {
            // The options speak in fractions of the actual count, which the first run has just measured.
            double actual = result.actualExecutors();
            double[] factors = new double[executors.size()];
            for (int i = 0; i < factors.length; i++) {
                factors[i] = executors.get(i) / actual;
            }
            result = ExecutorWhatIf.analyze(snapshot, new WhatIfOptions(order, factors));
        }
        return new AppWhatIf(header, result, keptTasks(snapshot), executors, WhatIfCost.of(snapshot, result, prices));
    }

    /** Tasks with a real, ended duration in the snapshot, over the stages the simulation replays. */
    private static long keptTasks(AppSnapshot s) {
        long n = 0;
        for (StageSummary st : s.stages()) {
            if (st.status() == StageSummary.StageStatus.SKIPPED || st.firstTaskLaunchedTime() <= 0) {
                continue;
            }
            for (TaskRecord t : st.keptTasks()) {
                if (t.finishTime() > 0) {
                    n++;
                }
            }
        }
        return n;
    }

    /** True when some task durations were rebuilt rather than read: the page says so. */
    public boolean incompleteTaskData() {
        return result.reconstructedTasks() > 0;
    }

    /** "executors", or "cores" in local mode (the curve then scales the driver's cores). */
    public String unit() {
        return result.local() ? "cores" : "executors";
    }

    /** One sentence per caveat, for the page and the API. */
    public static String describe(WhatIfCaveat c, WhatIfResult r) {
        return switch (c) {
            case TASKS_RECONSTRUCTED -> Fmt.count(r.reconstructedTasks()) + " task durations were rebuilt from their "
                    + "stage's quantiles: the snapshot keeps only the slowest tasks of each stage one by one.";
            case CORES_INFERRED -> "Executor cores were not reported: the slots per executor were inferred from the most "
                    + "tasks seen running at once, which can be fewer than the run had.";
            case EXECUTORS_VARIED -> "The number of executors changed during the run (dynamic allocation?): the "
                    + "simulation uses the most alive at once (" + r.actualExecutors() + ") for the whole run.";
            case INCOMPLETE_APPLICATION -> "The application has not ended (or its record is cut): the actual wall time "
                    + "runs to its newest event and tasks still running are left out.";
            case CONCURRENT_JOBS -> "Some jobs ran at the same time: they are simulated together on one pool of slots.";
            case NO_TASKS -> "No stage ran tasks: every executor count gives the driver-only time.";
            case SLOTS_CAPPED -> "The run had more slots than tasks: every count is simulated with at most one slot per "
                    + "task, which gives the same estimate (a slot without a task changes nothing).";
        };
    }
}
