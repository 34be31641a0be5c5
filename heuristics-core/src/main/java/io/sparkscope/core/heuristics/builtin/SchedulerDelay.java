package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;

import java.util.ArrayList;
import java.util.List;

/**
 * Seed 002, "the timeline lies": a task's launch is stamped when the driver offers it and its finish when the driver
 * marks it done, so its duration includes driver-side time — queueing, sending the task, fetching its result.
 * Scheduler delay is that remainder. When it (or getting-result time) is a large share of the typical task, the
 * driver, not the executors, sets the pace.
 */
public final class SchedulerDelay implements Heuristic {
    public static final String ID = "SchedulerDelay";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        double low = cfg.threshold(ID + ".ratio.low");
        double high = cfg.threshold(ID + ".ratio.high");
        long minTasks = cfg.count(ID + ".minTasks");
        long minStageMs = cfg.count(ID + ".minStageMs");
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            TaskDistributions d = Facts.summary(s);
            if (d == null || d.count() < minTasks || Facts.stageDurationMs(s) < minStageMs) {
                continue;
            }
            double duration = d.median(DistributionMetric.DURATION);
            if (duration <= 0) {
                continue;
            }
            double delay = d.median(DistributionMetric.SCHEDULER_DELAY);
            double gettingResult = d.median(DistributionMetric.GETTING_RESULT_TIME);
            double delayShare = delay / duration;
            double resultShare = gettingResult / duration;
            boolean resultsDominate = resultShare > delayShare;
            double share = Math.max(delayShare, resultShare);
            Severity severity = Severity.atOrAbove(share, low, high);
            if (severity == Severity.NONE) {
                continue;
            }
            String part = resultsDominate ? "fetching task results (gettingResultTime)" : "scheduler delay";
            out.add(Finding.builder(ID, severity)
                    .location(s.key())
                    .title("Driver-bound tasks in stage " + s.stageId())
                    .message("In " + Facts.stageLabel(s) + ", the median task took " + Units.duration((long) duration)
                            + ", of which " + Units.duration(Math.round(resultsDominate ? gettingResult : delay)) + " ("
                            + Units.percent(share) + ") was " + part + ", spent outside the executor. Task durations"
                            + " are stamped by the driver (launch when it offers the task, finish when it marks it"
                            + " done), so time the driver is busy shows up as task time: the driver is the"
                            + " bottleneck here, not the executors.")
                    .recommendation(resultsDominate
                            ? "Return less data to the driver: write results to storage instead of collect(), reduce"
                            + " before collecting, and keep spark.driver.maxResultSize (now "
                            + app.config().getOrDefault("spark.driver.maxResultSize", "1g") + ") in check."
                            : "Give the driver less per-task work: use fewer, larger tasks (fewer partitions), keep"
                            + " task closures small (broadcast large objects instead of capturing them), and avoid"
                            + " busy work on the driver while stages run (spark.driver.cores, now "
                            + app.config().getOrDefault("spark.driver.cores", "1") + ", helps in cluster mode).")
                    .stage(s.key())
                    .executor("driver")
                    .configKeys(resultsDominate ? "spark.driver.maxResultSize" : "spark.driver.cores")
                    .detail("medianDurationMs", Math.round(duration))
                    .detail("medianSchedulerDelayMs", Math.round(delay))
                    .detail("medianGettingResultMs", Math.round(gettingResult))
                    .detail("driverShare", Units.round2(share))
                    .detail("tasks", d.count())
                    .detail("distributions", Facts.quantiles(d, DistributionMetric.DURATION,
                            DistributionMetric.SCHEDULER_DELAY, DistributionMetric.GETTING_RESULT_TIME,
                            DistributionMetric.EXECUTOR_DESERIALIZE_TIME, DistributionMetric.EXECUTOR_RUN_TIME,
                            DistributionMetric.RESULT_SERIALIZATION_TIME))
                    .build());
        }
        return out;
    }
}
