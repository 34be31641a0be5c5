package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Stages cut into very many very short tasks: per-task scheduling, serialization and bookkeeping then cost more
 * than the work, and the driver becomes the bottleneck. The advice follows what sets the stage's partition count
 * (an RDD's code, file splits, or SQL shuffle partitions), so an RDD stage is never told to change a SQL setting.
 */
public final class SmallTasks implements Heuristic {
    public static final String ID = "SmallTasks";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("taskCountAbove", "5000",
                        "stages with more tasks than this are judged"),
                new Threshold("medianTaskMsBelow", "500",
                        "a median task shorter than this (ms) is LOW"),
                new Threshold("targetTaskMs", "2000",
                        "the task length (ms) the suggested partition count aims for"));
    }

    @Override
    public String description() {
        return """
                > `taskCountAbove` 5000 tasks and median task < `medianTaskMsBelow` 500 ms → LOW, because per-task
                overhead then exceeds the work; suggests a partition count for `targetTaskMs` 2 s tasks through what
                sets the stage's partitions (never `spark.sql.shuffle.partitions` for an RDD stage). Impact:
                per-task overhead × the tasks saved.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long countAbove = cfg.count(ID + ".taskCountAbove");
        double medianBelow = cfg.threshold(ID + ".medianTaskMsBelow");
        double target = Math.max(1, cfg.threshold(ID + ".targetTaskMs"));
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            TaskDistributions d = Facts.summary(s);
            if (d == null || s.numTasks() <= countAbove) {
                continue;
            }
            double median = d.median(DistributionMetric.DURATION);
            if (median >= medianBelow) {
                continue;
            }
            long suggested = Math.max(1, Math.round(s.numTasks() * Math.max(median, 1) / target));
            Partitioning p = Partitioning.of(app, conf, kinds.get(s.key()), s, suggested, slots,
                    s.numTasks() + " tasks of " + Units.duration(Math.round(median)) + " in stage " + s.stageId());
            // Per-task overhead: what a task took beyond running its code; fewer tasks pay it fewer times.
            long taskMs = Facts.stageTaskMs(s);
            long runMs = s.totals() == null ? 0 : s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
            long overheadPerTask = s.taskTimes() != null
                    ? Math.max(0, taskMs - runMs) / Math.max(1, s.numCompleteTasks())
                    : Math.max(0, Math.round(median - d.median(DistributionMetric.EXECUTOR_RUN_TIME)));
            long saved = overheadPerTask * Math.max(0, s.numCompleteTasks() - suggested);
            Finding.Builder f = Finding.builder(ID, Severity.LOW)
                    .location(s.key())
                    .title(Units.count(s.numTasks()) + " tiny tasks in stage " + s.stageId())
                    .message(Facts.capitalize(Facts.stageLabel(s, app)) + " ran " + Units.count(s.numTasks())
                            + " tasks with a median of " + Units.duration(Math.round(median)) + " each; per-task"
                            + " overhead (" + Units.duration(overheadPerTask) + " a task outside the task's code)"
                            + " dominates such short tasks.")
                    .recommendation("Use fewer partitions, about " + suggested + " for tasks of "
                            + Units.duration((long) target) + ": " + p.text() + ".")
                    .stage(s.key())
                    .impact(WallTime.ofStage(app, s, saved), saved, "per-task overhead × the tasks fewer partitions"
                            + " would save")
                    .detail("numTasks", s.numTasks())
                    .detail("medianTaskMs", Math.round(median))
                    .detail("overheadPerTaskMs", overheadPerTask)
                    .detail("stageKind", kinds.get(s.key()).name())
                    .detail("suggestedPartitions", suggested);
            for (SettingAdvice a : p.advice()) {
                f.advise(a);
            }
            out.add(f.build());
        }
        return out;
    }
}
