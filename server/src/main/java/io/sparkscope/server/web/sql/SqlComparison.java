package io.sparkscope.server.web.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SparkMetricText;
import io.sparkscope.server.web.model.Fmt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One query in two runs, operator by operator: each operator of the baseline's plan matched with the other run's
 * (the same node id with the same name, else the same name's same occurrence in Spark's node order, so a plan
 * that gained or lost an operator still pairs the rest), and each metric of the pair by name with both runs'
 * values. An operator only one plan has is listed with nothing beside it.
 */
public final class SqlComparison {
    /** A total that changed by more than this share of the baseline's counts as a difference (as run compare). */
    public static final double CHANGED = 0.20;

    /** One metric of a matched operator: Spark's texts in both runs (null: not reported there) and their totals. */
    public record MetricPair(String name, String baseline, String other, Long baselineTotal, Long otherTotal) {
        /** True when the totals differ by more than {@link #CHANGED}, or only one run reported it. */
        public boolean differs() {
            if (baselineTotal == null || otherTotal == null) {
                return (baselineTotal == null) != (otherTotal == null);
            }
            long a = baselineTotal;
            long b = otherTotal;
            if (a == b) {
                return false;
            }
            return a == 0 || Math.abs(b - a) > CHANGED * Math.abs(a);
        }

        /** The other run's total against the baseline's: "+35 %", "new", or "" when equal or not in both runs. */
        public String change() {
            return baselineTotal == null || otherTotal == null ? "" : Fmt.change(baselineTotal, otherTotal);
        }
    }

    /** An operator of either plan: its node in each (null when that plan has none) and its metrics side by side. */
    public record OperatorPair(PlanGraph.Node baseline, PlanGraph.Node other, List<MetricPair> metrics) {
        public String name() {
            return (baseline != null ? baseline : other).name().strip();
        }
    }

    private SqlComparison() {
    }

    public static List<OperatorPair> of(SqlExecutionSummary baseline, SqlExecutionSummary other) {
        PlanGraph a = PlanGraph.of(baseline.plan());
        PlanGraph b = PlanGraph.of(other.plan());
        Map<Long, PlanGraph.Node> bById = b.byId();
        Map<String, List<PlanGraph.Node>> bByName = new HashMap<>();
        for (PlanGraph.Node n : b.nodes()) {
            if (!n.cluster()) {
                bByName.computeIfAbsent(n.name().strip(), k -> new ArrayList<>()).add(n);
            }
        }
        Map<String, Integer> occurrence = new HashMap<>();
        java.util.Set<Long> paired = new java.util.HashSet<>();
        List<OperatorPair> out = new ArrayList<>();
        for (PlanGraph.Node n : a.nodes()) {
            if (n.cluster()) {
                continue;
            }
            String name = n.name().strip();
            int k = occurrence.merge(name, 1, Integer::sum) - 1;
            PlanGraph.Node match = bById.get(n.id());
            if (match == null || match.cluster() || !match.name().strip().equals(name) || paired.contains(match.id())) {
                List<PlanGraph.Node> same = bByName.getOrDefault(name, List.of());
                match = k < same.size() && !paired.contains(same.get(k).id()) ? same.get(k) : null;
            }
            if (match != null) {
                paired.add(match.id());
            }
            out.add(new OperatorPair(n, match, metrics(n, baseline, match, other)));
        }
        for (PlanGraph.Node n : b.nodes()) {
            if (!n.cluster() && !paired.contains(n.id())) {
                out.add(new OperatorPair(null, n, metrics(null, baseline, n, other)));
            }
        }
        return out;
    }

    private static List<MetricPair> metrics(PlanGraph.Node a, SqlExecutionSummary sa, PlanGraph.Node b,
                                            SqlExecutionSummary sb) {
        Map<String, SqlMetricAggregate[]> byName = new LinkedHashMap<>();
        collect(a, sa, byName, 0);
        collect(b, sb, byName, 1);
        List<MetricPair> out = new ArrayList<>();
        byName.forEach((name, pair) -> out.add(new MetricPair(name, text(pair[0]), text(pair[1]),
                pair[0] == null ? null : pair[0].total(), pair[1] == null ? null : pair[1].total())));
        return out;
    }

    private static void collect(PlanGraph.Node n, SqlExecutionSummary sql, Map<String, SqlMetricAggregate[]> byName,
                                int side) {
        if (n == null) {
            return;
        }
        for (PlanMetric m : n.metrics()) {
            SqlMetricAggregate agg = sql.metrics().get(m.accumulatorId());
            if (agg == null || SparkMetricText.of(agg) == null) {
                continue;
            }
            byName.computeIfAbsent(m.name() == null ? "" : m.name().strip(), k -> new SqlMetricAggregate[2])[side] = agg;
        }
    }

    private static String text(SqlMetricAggregate a) {
        return a == null ? null : SparkMetricText.of(a).replace('\n', ' ').strip();
    }
}
