package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A sort-merge join shuffles and sorts both sides; when one side is small, broadcasting it skips both (thesis
 * §2.1.6). Side sizes come from the shuffle exchange feeding each side ("data size" SQL metric). Silent when the plan
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
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long smallLimit = cfg.bytes(ID + ".smallSideBytes");
        SparkSettings conf = SparkSettings.of(app);
        String threshold = conf.get(THRESHOLD_KEY, "10m");
        List<Finding> out = new ArrayList<>();
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
                if (left < 0 || right < 0) {
                    continue;
                }
                long small = Math.min(left, right);
                if (small >= smallLimit) {
                    continue;
                }
                long suggested = Math.max(small * 2, 10 * Units.MiB);
                out.add(Finding.builder(ID, Severity.LOW)
                        .location(sql.executionId() + "." + i)
                        .title("Sort-merge join with a " + Units.bytes(small) + " side")
                        .message("SQL query " + sql.executionId() + " ran a sort-merge join whose smaller side was "
                                + Units.bytes(small) + " (the other " + Units.bytes(Math.max(left, right))
                                + "); both sides were shuffled and sorted although the small one could have been"
                                + " broadcast. " + THRESHOLD_KEY + " is " + threshold
                                + ("-1".equals(threshold.trim()) ? " (broadcast joins disabled)." : "."))
                        .recommendation("Let Spark broadcast it: set " + THRESHOLD_KEY + "="
                                + Units.sparkSize(suggested) + " (or spark.sql.adaptive.autoBroadcastJoinThreshold"
                                + " with AQE), or hint the join with broadcast(df) / /*+ BROADCAST(t) */. The"
                                + " broadcast side must fit in driver and executor memory.")
                        .configKeys(THRESHOLD_KEY)
                        .detail("executionId", sql.executionId())
                        .detail("jobIds", sql.jobIds())
                        .detail("smallSideBytes", small)
                        .detail("largeSideBytes", Math.max(left, right))
                        .detail("autoBroadcastJoinThreshold", threshold)
                        .detail("suggestedThreshold", Units.sparkSize(suggested))
                        .build());
            }
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
