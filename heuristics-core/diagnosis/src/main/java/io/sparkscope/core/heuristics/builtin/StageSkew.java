package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;

import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.sql.SqlPlans;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Stages whose slowest task ran far longer than the median one: the stage (and its cores) waits for stragglers.
 * Only stages that matter are judged (a skew in a 50 ms stage harms nobody). Findings are ordered by
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
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "3",
                        "slowest / median task run time at or above which a stage is LOW"),
                new Threshold("ratio.high", "10",
                        "slowest / median task run time at or above which a stage is HIGH"),
                new Threshold("minStageMs", "2000",
                        "a stage matters from this long (ms), with minAppShare"),
                new Threshold("minAppShare", "0.05",
                        "and from this share of the application's time"),
                new Threshold("alwaysStageMs", "60000",
                        "a stage this long (ms) always matters"),
                new Threshold("minSlowestTaskMs", "1000",
                        "stages whose slowest task ran less (ms) are not judged"),
                new Threshold("evenDataMinExcessMs", "60000",
                        "with even data sizes, a straggler is reported (LOW) only from this excess (ms)"));
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of("ratio", new DetailLabel("Slowest task ÷ median task", DetailLabel.Unit.TIMES));
    }

    @Override
    public String description() {
        return """
                stages that matter (≥ `minStageMs` 2 s and ≥ `minAppShare` 5 % of the app, or ≥ `alwaysStageMs` 60
                s) whose slowest task ran ≥ `minSlowestTaskMs` 1 s: max/median `executorRunTime` ≥ 3 LOW, ≥ 10 HIGH,
                because the stage and its cores wait for the straggler. Impact: slowest − median task, at most the
                stage's wall time less its task time spread over the cores (in local mode those its tasks showed they
                could use at once): splitting the hot partition gains only where a core is free. Only skew a
                remedy reaches is reported: the data (bytes or records read) skewed too (max ≥ 2× median).
                With even data sizes the straggler is an executor or per-row matter, reported only from
                `evenDataMinExcessMs` 60 s of excess, as LOW (costly rows, or a slow node with `spark.speculation`);
                with no data sizes at all, neither skew join nor salting is advised.
                Skewed input in a stage that reads no shuffle: uneven splits (no skew join, no salting). Skewed
                shuffle read: on RDD stages salting, `reduceByKey`, a partitioner; on SQL stages AQE is recommended
                only when it is off, its skew join only when that is off and only for stages with a join (or whose
                plan is unknown), and salting.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        var levels = cfg.levels(ID + ".ratio");
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        long minStageMs = cfg.count(ID + ".minStageMs");
        double minAppShare = cfg.threshold(ID + ".minAppShare");
        long alwaysStageMs = cfg.count(ID + ".alwaysStageMs");
        long minSlowestTaskMs = cfg.count(ID + ".minSlowestTaskMs");
        long evenDataMinExcessMs = cfg.count(ID + ".evenDataMinExcessMs");
        long appMs = app.durationMs();
        SqlPlans plans = SqlPlans.of(app);
        int usable = Facts.usableSlots(app, conf);

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
            Severity severity = levels.grade(ratio);
            if (severity == Severity.NONE) {
                continue;
            }
            long excess = Math.round(maxRun - medianRun);
            TaskRecord slowest = s.keptTasks().stream().filter(t -> t.metrics() != null)
                    .max(Comparator.comparingLong(t -> t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME))).orElse(null);
            DataSpread spread = dataSpread(d);
            if (spread.known() && !spread.skewed()) {
                // Even data: no partitioning remedy reaches it, so only a long straggler is worth a note.
                if (excess < evenDataMinExcessMs) {
                    continue;
                }
                severity = Severity.LOW;
            }
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title("Skewed tasks in stage " + s.stageId())
                    .message("In " + Facts.stageLabel(s, app) + " (" + Units.duration(stageMs) + "), the slowest task ran "
                            + Units.duration((long) maxRun) + ", " + Units.times(ratio) + " the median task ("
                            + Units.duration((long) medianRun) + "), so the stage waited about "
                            + Units.duration(excess) + " for it. " + spread.note());
            boolean hasJoin = !plans.operators(s.stageId(), n -> n.contains("Join")).isEmpty();
            boolean planKnown = !plans.operators(s.stageId()).isEmpty();
            f.recommendation(advice(f, conf, kinds.get(s.key()), spread, s, hasJoin || !planKnown));
            // Splitting the hot partition (skew join, salting) spreads its work over the cores: it cannot end the
            // stage sooner than all its task time spread over the cores that are really there.
            // Cores unknown: the straggler's excess stands alone.
            long spreadMs = usable <= 0 ? 0 : Math.round((double) Facts.stageTaskMs(s) / usable);
            long saving = Math.min(excess, Math.max(0, stageMs - spreadMs));
            f.impact(saving, 0, saving < excess
                    ? "the stage's " + Units.duration(stageMs) + " less its " + Units.duration(Facts.stageTaskMs(s))
                    + " of task time spread over " + usable + " cores (" + Units.duration(spreadMs) + "): less than"
                    + " the straggler's " + Units.duration(excess) + " over the median, as no more cores are free"
                    + IdleSlots.coresNote(Facts.slots(app, conf), usable)
                    : "slowest task − median task: the stage waited that long for its straggler");
            f
                    .stage(s.key())
                    .detail("dataSkewed", spread.skewed())
                    .detail("stageKind", kinds.get(s.key()).name())
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
            // The join the skew hits, else the aggregate: where the uneven keys meet in this stage.
            List<SqlPlans.Operator> where = plans.operators(s.stageId(), n -> n.contains("Join"));
            if (where.isEmpty()) {
                where = plans.operators(s.stageId(), n -> n.contains("Aggregate"));
            }
            where.forEach(o -> f.planNode(o.sql().executionId(), o.node().id(), o.node().name()));
            skewed.add(new Skewed(excess, f.build()));
        }
        skewed.sort(Comparator.comparingLong(Skewed::excessMs).reversed());
        return skewed.stream().map(Skewed::finding).toList();
    }

    /** Whether the stage's data is skewed too, and the sentence saying so; "" when no sizes are known. */
    private record DataSpread(boolean known, boolean skewed, String note) {
    }

    // A skewed data size points at keys, an even one at the work per row (or a slow node).
    private static DataSpread dataSpread(TaskDistributions d) {
        DistributionMetric worst = null;
        double worstRatio = 0;
        for (DistributionMetric m : new DistributionMetric[]{DistributionMetric.INPUT_BYTES_READ,
                DistributionMetric.SHUFFLE_READ_BYTES, DistributionMetric.INPUT_RECORDS_READ,
                DistributionMetric.SHUFFLE_READ_RECORDS}) {
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
            return new DataSpread(false, false, "");
        }
        boolean records = worst == DistributionMetric.INPUT_RECORDS_READ
                || worst == DistributionMetric.SHUFFLE_READ_RECORDS;
        String what = worst == DistributionMetric.INPUT_BYTES_READ || worst == DistributionMetric.INPUT_RECORDS_READ
                ? "input" : "shuffle read";
        String max = records ? Math.round(d.max(worst)) + " records" : Units.bytes((long) d.max(worst));
        String median = records ? Math.round(d.median(worst)) + " records" : Units.bytes((long) d.median(worst));
        if (worstRatio >= 2) {
            return new DataSpread(true, true, "Its data is skewed too: the largest " + what + " was " + max
                    + " against a median of " + median + ".");
        }
        return new DataSpread(true, false, "Its " + what + " sizes are even (max " + max + ", median " + median
                + "), so the data is not what is skewed.");
    }

    private static String advice(Finding.Builder f, SparkSettings conf, Facts.StageKind kind, DataSpread spread,
                                 StageSummary s, boolean mayJoin) {
        if (!spread.skewed()) {
            // Even data: splitting partitions (skew join, salting) would not help; the time goes per row or per host.
            String slowNode;
            if (conf.bool("spark.speculation", false)) {
                slowNode = "speculation is already on (spark.speculation=true), so a slow node would have been worked"
                        + " around: the cost is in the data itself.";
            } else {
                SettingAdvice spec = conf.advise("spark.speculation", "true",
                        "a straggler with even data in stage " + s.stageId() + " may be a slow node");
                f.advise(spec);
                slowNode = "if the slow task ran on a slow or overloaded node, " + spec.phrase()
                        + " re-runs stragglers elsewhere.";
            }
            return (spread.known() ? "The partitions are of even size" : "No data sizes are known for the stage")
                    + ", so skew join or salting will not help: look for rows that cost"
                    + " much more than others (a UDF, an explode, a regex on long strings) or a hot key inside the"
                    + " partition; " + slowNode;
        }
        boolean readsShuffle = s.totals() != null && s.totals().shuffleReadBytes() > 0;
        if (!readsShuffle) {
            // No shuffle read, so no keys: the partitions are the input's splits, and only re-splitting them helps.
            return "The stage reads no shuffle, so the skew is in its input splits (files of very different sizes, or"
                    + " unsplittable compressed files) and neither AQE's skew join nor salting applies: split or"
                    + " compact the input files evenly, or repartition(n) right after the read so the heavy work"
                    + " runs on even partitions.";
        }
        if (kind == Facts.StageKind.RDD) {
            return "This is an RDD stage, so AQE's skew join does not apply: salt the skewed key (append a random"
                    + " suffix, aggregate in two steps), use reduceByKey/aggregateByKey instead of groupByKey, or a"
                    + " custom partitioner that spreads the hot keys.";
        }
        StringBuilder b = new StringBuilder("Spread the hot keys: ");
        Boolean aqe = conf.aqe();
        if (!mayJoin) {
            b.append("the stage has no join, so AQE's skew join (which splits only join partitions) does not apply; ");
        } else if (conf.aqeSkewJoinOn()) {
            b.append("AQE's skew join is on (spark.sql.adaptive.enabled and spark.sql.adaptive.skewJoin.enabled),"
                    + " but it splits skewed partitions only of sort-merge joins whose partition is over"
                    + " spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes (now ")
                    .append(conf.get("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "256m"))
                    .append("), so lower that if this is such a join; ");
        } else if (!Boolean.TRUE.equals(aqe)) {
            SettingAdvice on = conf.advise("spark.sql.adaptive.enabled", "true",
                    "AQE's skew join splits the skewed partitions of stage " + s.stageId());
            f.advise(on);
            b.append("turn on AQE, whose skew join splits skewed join partitions: ").append(on.phrase())
                    .append(aqe == null ? " (the Spark version is unknown, so whether it is on is not known)" : "")
                    .append("; ");
        } else {
            SettingAdvice skew = conf.advise("spark.sql.adaptive.skewJoin.enabled", "true",
                    "AQE's skew join splits the skewed partitions of stage " + s.stageId());
            f.advise(skew);
            b.append("turn AQE's skew join back on: ").append(skew.phrase()).append("; ");
        }
        if (!mayJoin) {
            b.append("a repartition by a key this uneven, or an aggregate of it, puts the hot key's rows in one task; ");
        } else if (conf.broadcastDisabled()) {
            b.append("broadcast joins are disabled (spark.sql.autoBroadcastJoinThreshold=-1), so a broadcast hint"
                    + " (broadcast(df)) is the way to skip the shuffle of a small side; ");
        } else {
            b.append("broadcast the smaller side of a join if it fits (a broadcast hint, or see JoinStrategy); ");
        }
        return b.append("or salt the skewed key (append a random suffix, aggregate in two steps).").toString();
    }
}
