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
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Stages whose slowest task ran far longer than the median one: the stage (and its cores) waits for stragglers.
 * Only stages that matter are judged (thesis §4.2.2: a skew in a 50 ms stage harms nobody). Findings are ordered by
 * max − median run time, the time that fixing the skew could save.
 */
public final class StageSkew implements Heuristic {
    public static final String ID = "StageSkew";
    private static final DistributionMetric[] SHOWN = {
            DistributionMetric.EXECUTOR_RUN_TIME, DistributionMetric.INPUT_BYTES_READ,
            DistributionMetric.OUTPUT_BYTES_WRITTEN, DistributionMetric.SHUFFLE_READ_BYTES,
            DistributionMetric.SHUFFLE_WRITE_BYTES};

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        double low = cfg.threshold(ID + ".ratio.low");
        double high = cfg.threshold(ID + ".ratio.high");
        long minStageMs = cfg.count(ID + ".minStageMs");
        double minAppShare = cfg.threshold(ID + ".minAppShare");
        long alwaysStageMs = cfg.count(ID + ".alwaysStageMs");
        long minSlowestTaskMs = cfg.count(ID + ".minSlowestTaskMs");
        long appMs = app.durationMs();

        record Skewed(long excessMs, Finding finding) {
        }
        List<Skewed> skewed = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            TaskDistributions d = Facts.summary(s);
            if (d == null) {
                continue;
            }
            long stageMs = Facts.stageDurationMs(s);
            boolean matters = stageMs >= alwaysStageMs
                    || stageMs >= minStageMs && (appMs <= 0 || stageMs >= minAppShare * appMs);
            double maxRun = d.max(DistributionMetric.EXECUTOR_RUN_TIME);
            if (!matters || maxRun < minSlowestTaskMs) {
                continue;
            }
            double medianRun = d.median(DistributionMetric.EXECUTOR_RUN_TIME);
            double ratio = maxRun / Math.max(1.0, medianRun);
            Severity severity = Severity.atOrAbove(ratio, low, high);
            if (severity == Severity.NONE) {
                continue;
            }
            long excess = Math.round(maxRun - medianRun);
            TaskRecord slowest = s.keptTasks().stream().filter(t -> t.metrics() != null)
                    .max(Comparator.comparingLong(t -> t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME))).orElse(null);
            String dataNote = dataNote(d);
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title("Skewed tasks in stage " + s.stageId())
                    .message("In " + Facts.stageLabel(s) + " (" + Units.duration(stageMs) + "), the slowest task ran "
                            + Units.duration((long) maxRun) + ", " + Units.times(ratio) + " the median task ("
                            + Units.duration((long) medianRun) + "), so the stage waited about "
                            + Units.duration(excess) + " for it. " + dataNote)
                    .recommendation("Spread the hot keys: enable AQE's skew join (spark.sql.adaptive.enabled=true,"
                            + " spark.sql.adaptive.skewJoin.enabled=true; now "
                            + app.config().getOrDefault("spark.sql.adaptive.skewJoin.enabled", "default") + "),"
                            + " broadcast the smaller side of a join if it fits (raise"
                            + " spark.sql.autoBroadcastJoinThreshold, now "
                            + app.config().getOrDefault("spark.sql.autoBroadcastJoinThreshold", "10m")
                            + ", or use a broadcast hint), or salt the skewed key (append a random suffix, aggregate"
                            + " in two steps).")
                    .stage(s.key())
                    .configKeys("spark.sql.adaptive.skewJoin.enabled", "spark.sql.autoBroadcastJoinThreshold")
                    .detail("ratio", Units.round2(ratio))
                    .detail("maxRunTimeMs", Math.round(maxRun))
                    .detail("medianRunTimeMs", Math.round(medianRun))
                    .detail("excessMs", excess)
                    .detail("stageDurationMs", stageMs)
                    .detail("numTasks", s.numTasks())
                    .detail("distributions", Facts.quantiles(d, SHOWN));
            if (slowest != null) {
                f.executor(slowest.executorId())
                        .detail("slowestTaskId", slowest.taskId())
                        .detail("slowestTaskPartition", slowest.partitionId())
                        .detail("slowestTaskExecutor", slowest.executorId() == null ? "" : slowest.executorId());
            }
            skewed.add(new Skewed(excess, f.build()));
        }
        skewed.sort(Comparator.comparingLong(Skewed::excessMs).reversed());
        return skewed.stream().map(Skewed::finding).toList();
    }

    // Says whether the data is skewed too: a skewed data size points at keys, an even one at the work per row.
    private static String dataNote(TaskDistributions d) {
        DistributionMetric worst = null;
        double worstRatio = 0;
        for (DistributionMetric m : new DistributionMetric[]{DistributionMetric.INPUT_BYTES_READ,
                DistributionMetric.SHUFFLE_READ_BYTES}) {
            double max = d.max(m);
            if (max <= 0) {
                continue;
            }
            double r = max / Math.max(1.0, d.median(m));
            if (r > worstRatio) {
                worstRatio = r;
                worst = m;
            }
        }
        if (worst == null) {
            return "";
        }
        String what = worst == DistributionMetric.INPUT_BYTES_READ ? "input" : "shuffle read";
        if (worstRatio >= 2) {
            return "Its data is skewed too: the largest " + what + " was " + Units.bytes((long) d.max(worst))
                    + " against a median of " + Units.bytes((long) d.median(worst)) + ".";
        }
        return "Its " + what + " sizes are even (max " + Units.bytes((long) d.max(worst)) + ", median "
                + Units.bytes((long) d.median(worst)) + "), so look at costly rows or a hot key inside a partition.";
    }
}
