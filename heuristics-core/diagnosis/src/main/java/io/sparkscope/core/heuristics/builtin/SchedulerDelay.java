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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
                        "stages running less (ms), counted together for stages run by the same code, are not judged"),
                new Threshold("targetTaskMs", "2000",
                        "the task length (ms) the suggested partition count aims for"));
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
                HIGH, because the driver, not the executors, sets the pace. Stages run by the same code (a driver
                loop) make one finding, and their times count together for the 2 s (thirty stages of 1 s each are
                30 s of the run). Scheduler delay is fought with fewer partitions (a count for `targetTaskMs`
                2 s tasks, through what sets the stage's partitions, as SmallTasks does); `spark.driver.cores` is
                advised only in cluster deploy mode. Impact: the stages' scheduler delay (or result fetching) time.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        var levels = cfg.levels(ID + ".ratio");
        SparkSettings conf = SparkSettings.of(app);
        long minTasks = cfg.count(ID + ".minTasks");
        long minStageMs = cfg.count(ID + ".minStageMs");
        double target = Math.max(1, cfg.threshold(ID + ".targetTaskMs"));
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
        // Stages run by the same code (a driver loop submitting one job per pass) share one remedy: one finding each.
        Map<String, List<Delayed>> groups = new LinkedHashMap<>();
        for (StageSummary s : app.stages()) {
            TaskDistributions d = Facts.summary(s);
            if (d == null || d.count() < minTasks) {
                continue;
            }
            double duration = d.median(DistributionMetric.DURATION);
            if (duration <= 0) {
                continue;
            }
            double delay = d.median(DistributionMetric.SCHEDULER_DELAY);
            double gettingResult = d.median(DistributionMetric.GETTING_RESULT_TIME);
            boolean resultsDominate = gettingResult > delay;
            double share = Math.max(delay, gettingResult) / duration;
            Severity severity = levels.grade(share);
            if (severity == Severity.NONE) {
                continue;
            }
            // The driver-side time itself, from the stage's sums when known, else from the medians.
            long driverMs = s.taskTimes() != null
                    ? (resultsDominate ? s.taskTimes().gettingResultMs() : s.taskTimes().schedulerDelayMs())
                    : Math.round((resultsDominate ? gettingResult : delay) * d.count());
            groups.computeIfAbsent(s.name() + (resultsDominate ? "\u0000results" : ""), k -> new ArrayList<>())
                    .add(new Delayed(s, d, severity, duration, delay, gettingResult, share, resultsDominate, driverMs));
        }
        List<Finding> out = new ArrayList<>();
        for (List<Delayed> group : groups.values()) {
            // a driver loop's stages are judged together: each may be short, the loop is not
            long groupMs = group.stream().mapToLong(x -> Facts.stageDurationMs(x.stage())).sum();
            if (groupMs >= minStageMs) {
                out.add(finding(app, group, conf, kinds, slots, target));
            }
        }
        return out;
    }

    /** A driver-bound stage and its numbers. */
    private record Delayed(StageSummary stage, TaskDistributions d, Severity severity, double duration, double delay,
                           double gettingResult, double share, boolean resultsDominate, long driverMs) {
    }

    /**
     * One finding for stages of the same code: worded after the stage with the most driver-side time, located at the
     * first (so a SmallTasks finding of that stage is found as its cause), its saving the sum of theirs.
     */
    private static Finding finding(AppSnapshot app, List<Delayed> group, SparkSettings conf, Map<String, Facts.StageKind> kinds,
                                   int slots, double target) {
        Delayed lead = group.get(0);
        Severity severity = Severity.LOW;
        long driverMs = 0;
        long wallMs = 0;
        for (Delayed x : group) {
            if (x.driverMs() > lead.driverMs()) {
                lead = x;
            }
            if (x.severity() == Severity.HIGH) {
                severity = Severity.HIGH;
            }
            driverMs += x.driverMs();
            wallMs += WallTime.ofStage(app, x.stage(), x.driverMs());
        }
        StageSummary s = lead.stage();
        boolean resultsDominate = lead.resultsDominate();
        String part = resultsDominate ? "fetching task results (gettingResultTime)" : "scheduler delay";
        Finding.Builder b = Finding.builder(ID, severity).location(group.get(0).stage().key());
        String driverCores;
        if (conf.clusterDeployMode()) {
            SettingAdvice a = conf.advise("spark.driver.cores", Integer.toString(Math.max(2,
                    conf.integer("spark.driver.cores").orElse(1) * 2)), "the driver set the pace of stage "
                    + s.stageId());
            driverCores = ", and give the driver more cores: " + a.phrase();
            if (!resultsDominate) {
                b.advise(a);
            }
        } else {
            driverCores = conf.isLocal() ? "" : " (in client mode the driver has its machine's cores:"
                    + " spark.driver.cores does not apply)";
        }
        // Fewer, larger tasks: a partition count for tasks of the target length, through what sets the stage's
        // partitions, as SmallTasks computes it (the two agree when both speak of one stage).
        long suggested = Math.max(1, Math.round(s.numTasks() * Math.max(lead.duration(), 1) / target));
        String fewer = "use fewer, larger tasks (fewer partitions)";
        if (!resultsDominate && suggested < s.numTasks()) {
            Partitioning p = Partitioning.of(app, conf, kinds.get(s.key()), s, suggested, slots, s.numTasks()
                    + " tasks of " + Units.duration(Math.round(lead.duration())) + " in stage " + s.stageId()
                    + ", mostly scheduler delay");
            p.advice().forEach(b::advise);
            fewer = "use fewer, larger tasks, about " + suggested + " for tasks of " + Units.duration((long) target)
                    + " (" + p.text() + ")";
            b.detail("suggestedPartitions", suggested);
        }
        String others = group.size() == 1 ? "" : " The same holds for " + (group.size() - 1) + " more "
                + (group.size() == 2 ? "stage" : "stages") + " run by the same code ("
                + Units.count(group.size()) + " in all, " + Units.duration(driverMs) + " of " + part + ").";
        for (Delayed x : group) {
            b.stage(x.stage().key());
        }
        return b
                .title("Driver-bound tasks in " + (group.size() == 1 ? "stage " + s.stageId()
                        : group.size() + " stages like stage " + s.stageId()))
                .message("In " + Facts.stageLabel(s, app) + ", the median task took " + Units.duration((long) lead.duration())
                        + ", of which " + Units.duration(Math.round(resultsDominate ? lead.gettingResult()
                        : lead.delay())) + " (" + Units.percent(lead.share()) + ") was " + part + ", spent outside"
                        + " the executor. Task durations are stamped by the driver (launch when it offers the task,"
                        + " finish when it marks it done), so time the driver is busy shows up as task time: the"
                        + " driver is the bottleneck here, not the executors." + others)
                .recommendation(resultsDominate
                        ? "Return less data to the driver: write results to storage instead of collect(), reduce"
                        + " before collecting, and keep spark.driver.maxResultSize (now "
                        + conf.current("spark.driver.maxResultSize").value() + ") in check."
                        : "Give the driver less per-task work: " + fewer + ", keep task closures small (broadcast"
                        + " large objects instead of capturing them), and avoid busy work on the driver while stages"
                        + " run" + driverCores + ".")
                .executor("driver")
                .impact(wallMs, driverMs, (resultsDominate ? "task time spent fetching results on the driver"
                        : "task time spent in scheduler delay") + (group.size() == 1 ? ""
                        : ", over " + group.size() + " stages of the same code"))
                .detail("medianDurationMs", Math.round(lead.duration()))
                .detail("medianSchedulerDelayMs", Math.round(lead.delay()))
                .detail("medianGettingResultMs", Math.round(lead.gettingResult()))
                .detail("driverShare", Units.round2(lead.share()))
                .detail("tasks", lead.d().count())
                .detail("stages", group.size())
                .detail("distributions", Facts.quantiles(lead.d(), DistributionMetric.DURATION,
                        DistributionMetric.SCHEDULER_DELAY, DistributionMetric.GETTING_RESULT_TIME,
                        DistributionMetric.EXECUTOR_DESERIALIZE_TIME, DistributionMetric.EXECUTOR_RUN_TIME,
                        DistributionMetric.RESULT_SERIALIZATION_TIME))
                .build();
    }
}
