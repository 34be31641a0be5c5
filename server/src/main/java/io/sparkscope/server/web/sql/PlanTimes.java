package io.sparkscope.server.web.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SparkMetricText;

import java.util.HashMap;
import java.util.Map;

/**
 * Each operator's share of the time Spark measured in a query. Spark times some operators only: a whole-stage-codegen
 * cluster's "duration" (the time of every operator fused into it), and the timers of the operators that have their
 * own (scan, sort and aggregation build time, shuffle write and fetch wait, broadcast build, ...). An operator's time
 * is the sum of its timers over all tasks; the query's time is the clusters' durations plus the timers of operators
 * outside any cluster, so an operator inside a cluster, already counted in its cluster's duration, is not counted
 * twice. An operator Spark did not time has no share (not 0 %).
 *
 * @param byNode   node id to its measured time and share, for the nodes Spark timed
 * @param totalMs  the query's measured time, 0 when Spark timed nothing
 * @param reported whether any operator reported any metric at all (a query whose operators reported nothing is
 *                 explained on its page rather than shown as dashes)
 */
public record PlanTimes(Map<Long, Share> byNode, long totalMs, boolean reported) {
    /** Shares at or above these bounds take the next colour of the scale (heat-1 … heat-5). */
    static final double[] HEAT_BOUNDS = {0.0, 0.05, 0.15, 0.30, 0.50};

    /** An operator's measured time over all tasks, and its share of the query's. */
    public record Share(long ms, double share) {
        /** The colour step of this share: 1 (under 5 %) to 5 (half the query or more). */
        public int heat() {
            int h = 0;
            for (double bound : HEAT_BOUNDS) {
                if (share >= bound) {
                    h++;
                }
            }
            return h;
        }
    }

    public PlanTimes {
        byNode = Map.copyOf(byNode);
    }

    public static PlanTimes of(PlanGraph graph, Map<Long, SqlMetricAggregate> metrics) {
        Map<Long, PlanGraph.Node> byId = graph.byId();
        Map<Long, Long> ms = new HashMap<>();
        boolean reported = false;
        long total = 0;
        for (PlanGraph.Node n : graph.nodes()) {
            long t = 0;
            boolean timed = false;
            for (PlanMetric m : n.metrics()) {
                SqlMetricAggregate a = metrics.get(m.accumulatorId());
                if (a == null || SparkMetricText.of(a) == null) {
                    continue;
                }
                reported = true;
                if (SparkMetricText.TIMING.equals(a.metricType())) {
                    t += Math.max(0, a.total());
                    timed = true;
                } else if (SparkMetricText.NS_TIMING.equals(a.metricType())) {
                    t += Math.max(0, a.total()) / 1_000_000;
                    timed = true;
                }
            }
            if (!timed) {
                continue;
            }
            ms.put(n.id(), t);
            boolean insideCluster = !n.cluster() && n.clusterId() >= 0 && byId.containsKey(n.clusterId());
            if (!insideCluster) {
                total += t;
            }
        }
        Map<Long, Share> shares = new HashMap<>();
        if (total > 0) {
            for (Map.Entry<Long, Long> e : ms.entrySet()) {
                shares.put(e.getKey(), new Share(e.getValue(), Math.min(1.0, (double) e.getValue() / total)));
            }
        }
        return new PlanTimes(shares, total, reported);
    }

    /** The share of this node, or null when Spark did not time it. */
    public Share of(long nodeId) {
        return byNode.get(nodeId);
    }
}
