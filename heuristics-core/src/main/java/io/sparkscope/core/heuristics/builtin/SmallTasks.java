package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;

import java.util.ArrayList;
import java.util.List;

/**
 * Stages cut into very many very short tasks: per-task scheduling, serialization and bookkeeping then cost more
 * than the work, and the driver becomes the bottleneck.
 */
public final class SmallTasks implements Heuristic {
    public static final String ID = "SmallTasks";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long countAbove = cfg.count(ID + ".taskCountAbove");
        double medianBelow = cfg.threshold(ID + ".medianTaskMsBelow");
        double target = Math.max(1, cfg.threshold(ID + ".targetTaskMs"));
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
            boolean readsFiles = s.totals() != null && s.totals().get(TaskMetric.INPUT_BYTES) > 0;
            out.add(Finding.builder(ID, Severity.LOW)
                    .location(s.key())
                    .title(s.numTasks() + " tiny tasks in stage " + s.stageId())
                    .message(capitalize(Facts.stageLabel(s)) + " ran " + s.numTasks() + " tasks with a median of "
                            + Units.duration(Math.round(median)) + " each; per-task overhead dominates such short"
                            + " tasks.")
                    .recommendation("Use fewer partitions, about " + suggested + " for tasks of "
                            + Units.duration((long) target) + ": "
                            + (readsFiles ? "raise spark.sql.files.maxPartitionBytes (now "
                            + app.config().getOrDefault("spark.sql.files.maxPartitionBytes", "128m")
                            + ") or coalesce() small input files"
                            : "lower spark.sql.shuffle.partitions (now "
                            + app.config().getOrDefault("spark.sql.shuffle.partitions", "200")
                            + ") or let AQE coalesce them (spark.sql.adaptive.coalescePartitions.enabled=true)")
                            + "; for RDDs, pass fewer partitions or coalesce().")
                    .stage(s.key())
                    .configKeys(readsFiles ? "spark.sql.files.maxPartitionBytes" : "spark.sql.shuffle.partitions")
                    .detail("numTasks", s.numTasks())
                    .detail("medianTaskMs", Math.round(median))
                    .detail("suggestedPartitions", suggested)
                    .build());
        }
        return out;
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
