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
 * Stages whose typical task runs for many minutes: too few partitions. A long task holds a core, loses much work on
 * failure and leaves the stage's tail to a few cores.
 */
public final class LongTasks implements Heuristic {
    public static final String ID = "LongTasks";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        double low = cfg.threshold(ID + ".medianTaskMs.low");
        double high = cfg.threshold(ID + ".medianTaskMs.high");
        double target = Math.max(1, cfg.threshold(ID + ".targetTaskMs"));
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            TaskDistributions d = Facts.summary(s);
            if (d == null) {
                continue;
            }
            double median = d.median(DistributionMetric.DURATION);
            Severity severity = Severity.atOrAbove(median, low, high);
            if (severity == Severity.NONE) {
                continue;
            }
            int tasks = Math.max(1, s.numTasks());
            long suggested = (long) Math.ceil(tasks * median / target);
            out.add(Finding.builder(ID, severity)
                    .location(s.key())
                    .title("Long tasks in stage " + s.stageId())
                    .message("The median task of " + Facts.stageLabel(s) + " ran " + Units.duration(Math.round(median))
                            + " (" + s.numTasks() + " tasks): the stage has too few partitions for its work.")
                    .recommendation("Use more partitions, about " + suggested + " for tasks of "
                            + Units.duration((long) target) + ": raise spark.sql.shuffle.partitions (now "
                            + app.config().getOrDefault("spark.sql.shuffle.partitions", "200") + "), lower"
                            + " spark.sql.files.maxPartitionBytes (now "
                            + app.config().getOrDefault("spark.sql.files.maxPartitionBytes", "128m") + ") for file"
                            + " input, or repartition(" + suggested + ") before the heavy step.")
                    .stage(s.key())
                    .configKeys("spark.sql.shuffle.partitions", "spark.sql.files.maxPartitionBytes")
                    .detail("medianTaskMs", Math.round(median))
                    .detail("maxTaskMs", Math.round(d.max(DistributionMetric.DURATION)))
                    .detail("numTasks", s.numTasks())
                    .detail("suggestedPartitions", suggested)
                    .build());
        }
        return out;
    }
}
