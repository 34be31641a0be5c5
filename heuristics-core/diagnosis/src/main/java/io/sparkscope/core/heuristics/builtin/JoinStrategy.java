package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SqlPlans;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A sort-merge join shuffles and sorts both sides; when one side is small, broadcasting it skips both. Side sizes
 * come from the shuffle exchange feeding each side ("data size" SQL metric). Silent when the plan
 * or the sizes are missing.
 */
public final class JoinStrategy implements Heuristic {
    public static final String ID = "JoinStrategy";
    static final String THRESHOLD_KEY = "spark.sql.autoBroadcastJoinThreshold";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("smallSideBytes", "100m",
                        "a sort-merge join whose smaller side is below this is LOW"));
    }

    @Override
    public String description() {
        return """
                a `SortMergeJoin` in a SQL plan whose smaller side (the `data size` of the exchange below it) is <
                `smallSideBytes` 100m → LOW, because broadcasting the small side skips shuffling and sorting both.
                One threshold for the application (twice the largest small side); when the threshold in force
                already covers the side, no threshold is recommended (Spark's planning estimate was larger: a hint,
                AQE or statistics instead); a disabled threshold (`-1`) is named as such. Silent without sizes.
                Impact: what a broadcast removes, from the stages the plan says ran the join: the shuffle-write time
                of the stage(s) writing the larger side's exchange, as wall time of that stage (task time over its
                parallelism, only while it ran alone), plus the join stage's wall time while alone less the share of
                its task time (without its own shuffle write) that produced the join's rows (rows out / (shuffle
                records read + rows out)), spread over the cores: that work stays. Without that mapping: the join's
                sort time plus the larger side's shuffle-write and fetch-wait time (SQL metrics), over the
                application's average parallelism.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long smallLimit = cfg.bytes(ID + ".smallSideBytes");
        SparkSettings conf = SparkSettings.of(app);
        SparkSettings.Value threshold = conf.current(THRESHOLD_KEY);
        long thresholdBytes = conf.broadcastThresholdBytes();
        boolean disabled = thresholdBytes < 0;
        SqlPlans plans = SqlPlans.of(app);
        record Join(SqlExecutionSummary sql, int index, long small, long large, PlanNode node, Impact impact) {
        }
        List<Join> found = new ArrayList<>();
        for (SqlExecutionSummary sql : app.sqlExecutions()) {
            if (sql.plan() == null) {
                continue;
            }
            List<PlanNode> joins = new ArrayList<>();
            collectJoins(sql.plan(), joins);
            for (int i = 0; i < joins.size(); i++) {
                PlanNode join = joins.get(i);
                if (join.children().size() < 2) {
                    continue;
                }
                long left = exchangeSize(join.children().get(0), sql);
                long right = exchangeSize(join.children().get(1), sql);
                if (left < 0 || right < 0 || Math.min(left, right) >= smallLimit) {
                    continue;
                }
                PlanNode big = left >= right ? join.children().get(0) : join.children().get(1);
                found.add(new Join(sql, i, Math.min(left, right), Math.max(left, right), join,
                        impact(app, plans, sql, join, big)));
            }
        }
        if (found.isEmpty()) {
            return List.of();
        }
        // One threshold for the application: large enough for the largest small side found, so the findings agree.
        long largestSmall = found.stream().mapToLong(Join::small).max().orElse(0);
        long suggested = Math.max(largestSmall * 2, 10 * Units.MiB);
        List<Finding> out = new ArrayList<>();
        for (Join j : found) {
            Finding.Builder f = Finding.builder(ID, Severity.LOW)
                    .location(j.sql().executionId() + "." + j.index())
                    .title("Sort-merge join with a " + Units.bytes(j.small()) + " side")
                    .message("SQL query " + j.sql().executionId() + " ran a sort-merge join whose smaller side was "
                            + Units.bytes(j.small()) + " (the other " + Units.bytes(j.large()) + "); both sides were"
                            + " shuffled and sorted although the small one could have been broadcast. "
                            + THRESHOLD_KEY + " is " + threshold.value()
                            + (threshold.source() == SettingAdvice.ValueSource.DEFAULT ? " (Spark's default)" : "")
                            + (disabled ? " (broadcast joins disabled)." : "."))
                    .impact(j.impact())
                    .detail("executionId", j.sql().executionId())
                    .detail("jobIds", j.sql().jobIds())
                    .detail("smallSideBytes", j.small())
                    .detail("largeSideBytes", j.large())
                    .detail("autoBroadcastJoinThreshold", threshold.value());
            Long nodeId = PlanGraph.nodeIds(j.sql().plan()).get(j.node());
            if (nodeId != null) {
                f.planNode(j.sql().executionId(), nodeId, j.node().nodeName());
            }
            String fits = " The broadcast side must fit in driver and executor memory.";
            if (disabled || thresholdBytes < suggested) {
                SettingAdvice a = conf.advise(THRESHOLD_KEY, Units.sparkSize(suggested), "a sort-merge join's"
                        + " smaller side was " + Units.bytes(j.small()));
                f.advise(a).detail("suggestedThreshold", Units.sparkSize(suggested));
                f.recommendation((disabled ? "Broadcast joins are switched off; switch them back on for sides this"
                        + " small: " : "Let Spark broadcast it: ") + a.phrase() + ", or hint the join with"
                        + " broadcast(df) / /*+ BROADCAST(t) */." + fits);
            } else {
                // The threshold already covers this side: Spark's size estimate at planning time was larger than
                // what ran (filters, statistics), so a higher threshold would not change the plan.
                String aqe = "";
                if (!conf.aqeOn()) {
                    SettingAdvice on = conf.advise("spark.sql.adaptive.enabled", "true",
                            "AQE re-plans joins with run-time sizes");
                    f.advise(on);
                    aqe = ", or let AQE re-plan with run-time sizes: " + on.phrase();
                }
                f.recommendation("The threshold (" + threshold.value() + ") already covers this side, so Spark's"
                        + " estimate of it when planning was larger than what ran (filters, missing statistics):"
                        + " hint the join with broadcast(df) / /*+ BROADCAST(t) */" + aqe + ", or compute table"
                        + " statistics (ANALYZE TABLE … COMPUTE STATISTICS)." + fits);
            }
            out.add(f.build());
        }
        return out;
    }

    /**
     * What broadcasting the small side would save: the larger side is no longer shuffled (its exchange's shuffle-write
     * time and the wait fetching it) and neither side is sorted (the sorts' sort time), all from the plan's own SQL
     * metrics. The wall time is that task time over the application's average parallelism. None when the plan
     * carries none of those metrics.
     */
    private static Impact impact(AppSnapshot app, SqlPlans plans, SqlExecutionSummary sql, PlanNode join,
                                 PlanNode bigSide) {
        Impact staged = stagedImpact(app, plans, sql, join, bigSide);
        if (staged != null) {
            return staged;
        }
        long[] sortMs = {0};
        long[] shuffleMs = {0};
        for (PlanNode side : join.children()) {
            sideCost(side, sql, side == bigSide, sortMs, shuffleMs);
        }
        long taskMs = sortMs[0] + shuffleMs[0];
        if (taskMs <= 0) {
            return Impact.NONE;
        }
        return Impact.of(WallTime.ofApp(app, taskMs), taskMs, "the join's sorts (" + Units.duration(sortMs[0])
                + " sort time) and the larger side's shuffle (" + Units.duration(shuffleMs[0]) + " of shuffle write"
                + " and fetch wait), over the application's average parallelism");
    }

    /**
     * What broadcasting would save, from the stages that ran the join: with the small side broadcast, the larger side
     * is joined where it is produced, so its stage no longer writes a shuffle, and the join's own stage goes. Not all
     * of that stage's work goes with it: the rows the join produces are still produced, in the larger side's tasks,
     * spread evenly over the cores. That share is told by rows, every row read back or produced costing alike: rows
     * out over rows read plus rows out. So the saving is the join stage's wall time (while it ran alone) less that
     * share of its task time over the cores, which also removes a straggler's wait when one key held most rows. What
     * the stage writes for the operators after the join is written either way and left out. Null when the plan does
     * not say which stages ran the join.
     */
    private static Impact stagedImpact(AppSnapshot app, SqlPlans plans, SqlExecutionSummary sql, PlanNode join,
                                       PlanNode bigSide) {
        SqlPlans.Plan plan = null;
        for (SqlPlans.Plan p : plans.plans()) {
            if (p.sql() == sql) {
                plan = p;
            }
        }
        var ids = PlanGraph.nodeIds(sql.plan());
        Long joinId = ids.get(join);
        if (plan == null || joinId == null || plan.stages().stagesOf(joinId).isEmpty()) {
            return null;
        }
        Set<Integer> joinStages = new TreeSet<>(plan.stages().stagesOf(joinId));
        Set<Integer> writeStages = new TreeSet<>();
        PlanNode exchange = exchange(bigSide);
        Long exchangeId = exchange == null ? null : ids.get(exchange);
        if (exchangeId != null) {
            writeStages.addAll(plan.stages().stagesOf(exchangeId));
            writeStages.removeAll(joinStages);
        }
        long outRows = 0;
        for (PlanMetric m : join.metrics()) {
            Long v = sql.metricValues().get(m.accumulatorId());
            if (v != null && m.name() != null && m.name().toLowerCase(Locale.ROOT).startsWith("number of output rows")) {
                outRows = v;
            }
        }
        int slots = Facts.slots(app, SparkSettings.of(app));
        double cores = 0;
        long writeMs = 0;
        long joinMs = 0;
        long wallMs = 0;
        for (StageSummary s : app.stages()) {
            if (s.totals() == null) {
                continue;
            }
            long ownWriteMs = s.totals().get(TaskMetric.SHUFFLE_WRITE_TIME) / 1_000_000;
            if (joinStages.contains(s.stageId())) {
                long work = Math.max(0, Facts.stageTaskMs(s) - ownWriteMs);
                long read = s.totals().get(TaskMetric.SHUFFLE_RECORDS_READ);
                double kept = read + outRows > 0 ? (double) outRows / (read + outRows) : 0;
                long keptMs = Math.round(work * kept);
                // the cores the join's rows would be spread over: the application's, else (unknown) as many as
                // the join stage's tasks kept busy
                cores = slots > 0 ? slots : WallTime.parallelism(Facts.stageTaskMs(s),
                        Math.max(1, Facts.stageDurationMs(s)), 0);
                long saved = Math.max(0, WallTime.ofStage(app, s, work) - Math.round(keptMs / cores));
                joinMs += work - keptMs;
                wallMs += saved;
            } else if (writeStages.contains(s.stageId())) {
                writeMs += ownWriteMs;
                wallMs += WallTime.ofStage(app, s, ownWriteMs);
            }
        }
        if (writeMs + joinMs <= 0) {
            return null;
        }
        return Impact.of(wallMs, writeMs + joinMs, "the join's own stage" + (joinStages.size() > 1 ? "s " : " ")
                + joinStages.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                + " while it ran alone, less the share of its task time that produced the join's " + outRows
                + " rows (still produced after a broadcast, spread over " + Units.round2(cores) + " cores); "
                + Units.duration(joinMs) + " of task time reading both sides back, sorting and waiting go; and"
                + " the larger side's shuffle write" + (writeStages.isEmpty() ? "" : " in stage" + (writeStages.size()
                > 1 ? "s " : " ") + writeStages.stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", "))) + " (" + Units.duration(writeMs) + ") goes too, over"
                + " that stage's parallelism while it ran alone");
    }

    /** The shuffle exchange nearest below a join input, or null when there is none before a broadcast. */
    private static PlanNode exchange(PlanNode node) {
        String name = node.nodeName() == null ? "" : node.nodeName();
        if (name.contains("BroadcastExchange")) {
            return null;
        }
        if (name.contains("Exchange")) {
            return node;
        }
        for (PlanNode c : node.children()) {
            PlanNode e = exchange(c);
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** Adds a join input's sort time, and for the larger side its shuffle's write and fetch-wait time, down to its
     * first exchange (what lies below is the side's own work, done either way). */
    private static void sideCost(PlanNode node, SqlExecutionSummary sql, boolean big, long[] sortMs,
                                 long[] shuffleMs) {
        String name = node.nodeName() == null ? "" : node.nodeName();
        for (PlanMetric m : node.metrics()) {
            Long v = sql.metricValues().get(m.accumulatorId());
            String metric = m.name() == null ? "" : m.name().toLowerCase(Locale.ROOT);
            if (v == null || v <= 0) {
                continue;
            }
            long ms = "nsTiming".equals(m.metricType()) ? v / 1_000_000 : v;
            if (name.startsWith("Sort") && metric.equals("sort time")) {
                sortMs[0] += ms;
            } else if (big && (metric.equals("shuffle write time") || metric.equals("fetch wait time"))) {
                shuffleMs[0] += ms;
            }
        }
        if (name.contains("Exchange")) {
            return;
        }
        for (PlanNode c : node.children()) {
            sideCost(c, sql, big, sortMs, shuffleMs);
        }
    }

    private static void collectJoins(PlanNode node, List<PlanNode> into) {
        if (node.nodeName() != null && node.nodeName().startsWith("SortMergeJoin")) {
            into.add(node);
        }
        for (PlanNode c : node.children()) {
            collectJoins(c, into);
        }
    }

    /** Bytes the nearest shuffle below this join input wrote, or -1 when unknown (no exchange or no metric value). */
    private static long exchangeSize(PlanNode node, SqlExecutionSummary sql) {
        String name = node.nodeName() == null ? "" : node.nodeName();
        if (name.contains("Exchange") || name.contains("ShuffleQueryStage")) {
            for (PlanMetric m : node.metrics()) {
                String metric = m.name() == null ? "" : m.name().toLowerCase(Locale.ROOT);
                if (metric.startsWith("data size") || metric.equals("shuffle bytes written")) {
                    Long v = sql.metricValues().get(m.accumulatorId());
                    if (v != null) {
                        return v;
                    }
                }
            }
        }
        if (name.contains("Exchange") || name.contains("BroadcastExchange")) {
            return -1; // an exchange without a size: do not look further down, the size below is not this side's
        }
        for (PlanNode c : node.children()) {
            long v = exchangeSize(c, sql);
            if (v >= 0) {
                return v;
            }
        }
        return -1;
    }
}
