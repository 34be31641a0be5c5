package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
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
import java.util.Map;

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
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("medianTaskMs.low", "300000",
                        "a stage's median task time (ms) at or above which it is LOW"),
                new Threshold("medianTaskMs.high", "900000",
                        "a stage's median task time (ms) at or above which it is HIGH"),
                new Threshold("targetTaskMs", "120000",
                        "the task length (ms) the suggested partition count aims for"));
    }

    /**
     * Long tasks in a stage of fewer tasks than cores are the few partitions' doing: an explicit repartition or
     * coalesce, or a source with too few partitions. Fixing that fixes these, so the saving is counted once, there.
     */
    @Override
    public List<String> causes() {
        return List.of(ExplicitRepartition.ID, TooFewTasks.ID);
    }

    @Override
    public String description() {
        return """
                stage median task ≥ 5 min LOW, ≥ 15 min HIGH, because a long task holds a core, loses much work on
                failure and leaves the stage's tail to few cores; suggests partitions for `targetTaskMs` 2 min.
                Impact: with fewer tasks than cores, the stage time those idle cores could have shared.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        var levels = cfg.levels(ID + ".medianTaskMs");
        double target = Math.max(1, cfg.threshold(ID + ".targetTaskMs"));
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            TaskDistributions d = Facts.summary(s);
            if (d == null) {
                continue;
            }
            double median = d.median(DistributionMetric.DURATION);
            Severity severity = levels.grade(median);
            if (severity == Severity.NONE) {
                continue;
            }
            int tasks = Math.max(1, s.numTasks());
            long suggested = (long) Math.ceil(tasks * median / target);
            Partitioning p = Partitioning.of(app, conf, kinds.get(s.key()), s, Math.max(suggested, tasks + 1L), slots,
                    "the median task of stage " + s.stageId() + " ran " + Units.duration(Math.round(median)));
            // With fewer tasks than cores, cores sat idle through the stage: more partitions would use them.
            long wall = Facts.stageDurationMs(s);
            long saved = slots > tasks ? Math.round(wall * (1 - (double) tasks / slots)) : 0;
            Finding.Builder b = Finding.builder(ID, severity);
            p.advice().forEach(b::advise);
            out.add(b
                    .location(s.key())
                    .title("Long tasks in stage " + s.stageId())
                    .message("The median task of " + Facts.stageLabel(s, app) + " ran " + Units.duration(Math.round(median))
                            + " (" + s.numTasks() + " tasks): the stage has too few partitions for its work.")
                    .recommendation("Use more partitions, about " + suggested + " for tasks of "
                            + Units.duration((long) target) + ": " + p.text() + ".")
                    .stage(s.key())
                    .impact(saved, 0, saved > 0 ? "stage time × the share of the " + slots + " cores its "
                            + tasks + " tasks left idle" : "")
                    .detail("medianTaskMs", Math.round(median))
                    .detail("maxTaskMs", Math.round(d.max(DistributionMetric.DURATION)))
                    .detail("numTasks", s.numTasks())
                    .detail("suggestedPartitions", suggested)
                    .build());
        }
        return out;
    }
}
