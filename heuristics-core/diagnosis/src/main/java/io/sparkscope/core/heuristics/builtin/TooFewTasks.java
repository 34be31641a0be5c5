package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.sql.SqlPlans;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A stage with fewer tasks than the application has cores, long enough to weigh on the run: while it ran, the other
 * cores had nothing to do (one task for 28 s on 2 cores leaves half the cores idle for 28 s). Stages whose count an
 * explicit repartition or coalesce set are {@link ExplicitRepartition}'s, and stages whose few tasks are uneven are
 * {@link StageSkew}'s: more partitions would not spread a hot key. Impact: the stage's wall time less its task time
 * spread over every core.
 */
public final class TooFewTasks implements Heuristic {
    public static final String ID = "TooFewTasks";
    /** Slowest ÷ median task run time from which the few tasks are skewed rather than too few (StageSkew's LOW). */
    private static final double SKEWED = 3;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return IdleSlots.THRESHOLDS;
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of(
                "slots", IdleSlots.SLOTS_LABEL,
                "idleCoreMs", new DetailLabel("Idle core time during the stage", DetailLabel.Unit.CORE_MS),
                "savingMs", IdleSlots.SAVING_LABEL);
    }

    @Override
    public String description() {
        return """
                a stage with fewer tasks than the application's cores, its tasks even (slowest < 3× the median):
                saving = stage wall time − its task time ÷ cores, ≥ `minSavingMs` 1 s and ≥ 5 % of the app LOW, ≥ 20
                % and ≥ `highSavingMs` 5 s HIGH, because the other cores idle while it runs. Stages whose count an
                explicit repartition/coalesce set are left to ExplicitRepartition. Advice by where the count comes
                from (the source's partitions, files, a shuffle setting, a plan that gathers all rows in one
                partition). Impact: that saving. In local mode the cores are those its tasks showed they could use at once
                (CPU time ÷ span, when tasks side by side waited for a core): local[N] above the machine's cores
                counts no threads without cores.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        // Only the cores the tasks could really use side by side: more partitions cannot use threads without cores.
        int slots = Facts.usableSlots(app, conf);
        String cores = IdleSlots.coresNote(Facts.slots(app, conf), slots);
        if (slots <= 1) {
            return List.of();
        }
        Map<Integer, ExplicitPartitions.Source> explicit = ExplicitPartitions.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        SqlPlans plans = SqlPlans.of(app);
        record Judged(long savingMs, Finding finding) {
        }
        List<Judged> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            if (s.numTasks() <= 0 || s.numTasks() >= slots || explicit.containsKey(s.stageId()) || skewed(s)) {
                continue;
            }
            IdleSlots idle = IdleSlots.of(app, s, slots);
            Severity severity = idle.grade(app, cfg, ID);
            if (severity == Severity.NONE) {
                continue;
            }
            long target = 2L * slots;
            String tasks = s.numTasks() + (s.numTasks() == 1 ? " task" : " tasks");
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title("Stage " + s.stageId() + " ran " + tasks + " on " + slots + " cores")
                    .message(Facts.capitalize(Facts.stageLabel(s, app)) + " ran " + tasks + " on " + slots + " cores for "
                            + Units.duration(idle.stageMs()) + ": " + Units.duration(idle.idleCoreMs())
                            + " of core time sat idle, and " + idle.spread() + ".")
                    .impact(idle.savingMs(), 0, idle.basis() + cores)
                    .stage(s.key())
                    .detail("slots", slots)
                    .detail("numTasks", s.numTasks())
                    .detail("stageDurationMs", idle.stageMs())
                    .detail("taskTimeMs", idle.taskMs())
                    .detail("idleCoreMs", idle.idleCoreMs())
                    .detail("savingMs", idle.savingMs());
            List<SqlPlans.Operator> single = plans.operators(s.stageId(), n -> n.contains("Exchange")).stream()
                    .filter(o -> o.node().description() != null && o.node().description().contains("SinglePartition"))
                    .toList();
            if (s.numTasks() == 1 && !single.isEmpty()) {
                // The plan itself gathers every row in one partition: no partition count changes that.
                single.forEach(o -> f.planNode(o.sql().executionId(), o.node().id(), o.node().name()));
                f.recommendation("The plan gathers every row into one partition (Exchange SinglePartition): a window"
                        + " without PARTITION BY, a global sort or limit, or an aggregate over everything. Partition"
                        + " the window, aggregate by key first, or do the heavy work before the rows are gathered.");
            } else {
                Partitioning p = Partitioning.of(app, conf, kinds.get(s.key()), s, target, slots,
                        "stage " + s.stageId() + " ran " + tasks + " on " + slots + " cores");
                p.advice().forEach(f::advise);
                f.recommendation("Give the stage at least " + target + " partitions (the " + slots + " cores × 2–3): "
                        + p.text() + ".");
                plans.operators(s.stageId(), n -> n.startsWith("Range") || n.startsWith("Scan")
                                || n.contains("FileScan") || n.startsWith("BatchScan"))
                        .forEach(o -> f.planNode(o.sql().executionId(), o.node().id(), o.node().name()));
            }
            out.add(new Judged(idle.savingMs(), f.build()));
        }
        out.sort(Comparator.comparingLong(Judged::savingMs).reversed());
        return out.stream().map(Judged::finding).toList();
    }

    /** Whether the few tasks are uneven: then the time is a straggler's, which more partitions may not spread. */
    private static boolean skewed(StageSummary s) {
        TaskDistributions d = Facts.summary(s);
        if (d == null || d.count() < 2) {
            return false;
        }
        double median = Math.max(1.0, d.median(DistributionMetric.EXECUTOR_RUN_TIME));
        return d.max(DistributionMetric.EXECUTOR_RUN_TIME) / median >= SKEWED;
    }
}
