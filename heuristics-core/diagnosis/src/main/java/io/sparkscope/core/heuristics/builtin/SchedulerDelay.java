package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;

import java.util.ArrayList;
import java.util.List;

/**
 * The timeline lies: a task's launch is stamped when the driver offers it and its finish when the driver
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
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.2",
                        "median driver-side delay / median task duration at or above which it is LOW"),
                new Threshold("ratio.high", "0.5",
                        "median driver-side delay / median task duration at or above which it is HIGH"),
                new Threshold("minTasks", "20",
                        "stages with fewer tasks are not judged"),
                new Threshold("minStageMs", "2000",
                        "stages running less (ms) are not judged"));
    }

    /** A stage of tiny tasks is driver-bound because its tasks are tiny: the fix is fewer tasks. */
    @Override
    public List<String> causes() {
        return List.of(SmallTasks.ID);
    }

    @Override
    public String description() {
        return """
                task times are stamped by the driver, so driver-side work looks like task time. Stages with ≥ 20
                tasks running ≥ 2 s: median schedulerDelay (or gettingResultTime) / median duration ≥ 0.2 LOW, ≥ 0.5
                HIGH, because the driver, not the executors, sets the pace. `spark.driver.cores` is advised only in
                cluster deploy mode. Impact: the stage's scheduler delay (or result fetching) time.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        var levels = cfg.levels(ID + ".ratio");
        SparkSettings conf = SparkSettings.of(app);
        long minTasks = cfg.count(ID + ".minTasks");
        long minStageMs = cfg.count(ID + ".minStageMs");
        List<Finding> out = new ArrayList<>();
        List<SettingAdvice> pending = new ArrayList<>();
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
            Severity severity = levels.grade(share);
            if (severity == Severity.NONE) {
                continue;
            }
            String part = resultsDominate ? "fetching task results (gettingResultTime)" : "scheduler delay";
            // The driver-side time itself, from the stage's sums when known, else from the medians.
            long driverMs = s.taskTimes() != null
                    ? (resultsDominate ? s.taskTimes().gettingResultMs() : s.taskTimes().schedulerDelayMs())
                    : Math.round((resultsDominate ? gettingResult : delay) * d.count());
            String driverCores;
            if (conf.clusterDeployMode()) {
                SettingAdvice a = conf.advise("spark.driver.cores", Integer.toString(Math.max(2,
                        conf.integer("spark.driver.cores").orElse(1) * 2)), "the driver set the pace of stage "
                        + s.stageId());
                driverCores = ", and give the driver more cores: " + a.phrase();
                if (!resultsDominate) {
                    pending.add(a);
                }
            } else {
                driverCores = conf.isLocal() ? "" : " (in client mode the driver has its machine's cores:"
                        + " spark.driver.cores does not apply)";
            }
            Finding.Builder b = Finding.builder(ID, severity);
            pending.forEach(b::advise);
            pending.clear();
            out.add(b
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
                            + conf.current("spark.driver.maxResultSize").value() + ") in check."
                            : "Give the driver less per-task work: use fewer, larger tasks (fewer partitions), keep"
                            + " task closures small (broadcast large objects instead of capturing them), and avoid"
                            + " busy work on the driver while stages run" + driverCores + ".")
                    .stage(s.key())
                    .executor("driver")
                    .impact(Facts.stageWallShare(s, driverMs), driverMs, resultsDominate
                            ? "task time spent fetching results on the driver" : "task time spent in scheduler delay")
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
