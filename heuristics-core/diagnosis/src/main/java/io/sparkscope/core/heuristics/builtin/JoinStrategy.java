package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.sql.PlanGraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long smallLimit = cfg.bytes(ID + ".smallSideBytes");
        SparkSettings conf = SparkSettings.of(app);
        SparkSettings.Value threshold = conf.current(THRESHOLD_KEY);
        long thresholdBytes = conf.broadcastThresholdBytes();
        boolean disabled = thresholdBytes < 0;
        record Join(SqlExecutionSummary sql, int index, long small, long large, PlanNode node) {
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
                found.add(new Join(sql, i, Math.min(left, right), Math.max(left, right), join));
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
