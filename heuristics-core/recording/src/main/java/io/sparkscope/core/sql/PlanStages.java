package io.sparkscope.core.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which stages ran which operators of a SQL execution, both ways. An operator ran in the stages whose tasks reported
 * its metrics (an exchange: the stage that wrote the shuffle and the one that read it); the operators fused into a
 * whole-stage-codegen cluster ran where the cluster's duration was measured; an operator without metrics of its own
 * (a project outside a cluster) ran where its neighbours did, exchanges excepted, since those span two stages.
 */
public final class PlanStages {
    private final Map<Long, Set<Integer>> stagesByNode;
    private final Map<Integer, List<Long>> nodesByStage;

    private PlanStages(Map<Long, Set<Integer>> stagesByNode) {
        this.stagesByNode = stagesByNode;
        Map<Integer, List<Long>> inverse = new TreeMap<>();
        stagesByNode.forEach((node, stages) -> stages.forEach(s -> inverse.computeIfAbsent(s, k -> new ArrayList<>())
                .add(node)));
        inverse.values().forEach(Collections::sort);
        this.nodesByStage = inverse;
    }

    public static PlanStages of(PlanGraph graph, SqlExecutionSummary sql) {
        return of(graph, sql.metrics());
    }

    public static PlanStages of(PlanGraph graph, Map<Long, SqlMetricAggregate> metrics) {
        Map<Long, Set<Integer>> stages = new HashMap<>();
        Map<Long, PlanGraph.Node> byId = graph.byId();
        for (PlanGraph.Node n : graph.nodes()) {
            Set<Integer> own = new TreeSet<>();
            for (PlanMetric m : n.metrics()) {
                SqlMetricAggregate a = metrics.get(m.accumulatorId());
                if (a != null) {
                    own.addAll(a.stageIds());
                }
            }
            stages.put(n.id(), own);
        }
        // A cluster ran where its members or its own duration did; members without metrics ran there too.
        for (PlanGraph.Node c : graph.nodes()) {
            if (!c.cluster()) {
                continue;
            }
            Set<Integer> cs = stages.get(c.id());
            for (long m : c.members()) {
                cs.addAll(stages.get(m));
            }
            for (long m : c.members()) {
                if (stages.get(m).isEmpty()) {
                    stages.get(m).addAll(cs);
                }
            }
        }
        // The rest take their neighbours' stages, never through an exchange, until nothing changes.
        Map<Long, List<Long>> neighbours = new HashMap<>();
        for (PlanGraph.Edge e : graph.edges()) {
            neighbours.computeIfAbsent(e.fromId(), k -> new ArrayList<>()).add(e.toId());
            neighbours.computeIfAbsent(e.toId(), k -> new ArrayList<>()).add(e.fromId());
        }
        boolean changed = true;
        for (int round = 0; changed && round < graph.nodes().size(); round++) {
            changed = false;
            for (PlanGraph.Node n : graph.nodes()) {
                Set<Integer> s = stages.get(n.id());
                if (!s.isEmpty() || n.cluster()) {
                    continue;
                }
                for (long other : neighbours.getOrDefault(n.id(), List.of())) {
                    PlanGraph.Node o = byId.get(other);
                    if (o != null && !spansStages(o)) {
                        s.addAll(stages.get(other));
                    }
                }
                changed |= !s.isEmpty();
            }
        }
        return new PlanStages(stages);
    }

    private static boolean spansStages(PlanGraph.Node n) {
        String name = n.name();
        return name.contains("Exchange") || name.contains("QueryStage") || name.contains("ShuffleRead")
                || name.equals("Subquery") || name.equals("SubqueryBroadcast");
    }

    /** The stages that ran this node, ascending; empty when none is known. */
    public List<Integer> stagesOf(long nodeId) {
        Set<Integer> s = stagesByNode.get(nodeId);
        return s == null ? List.of() : List.copyOf(s);
    }

    /** The nodes this stage ran, by ascending id; empty when none is known. */
    public List<Long> nodesOf(int stageId) {
        return nodesByStage.getOrDefault(stageId, List.of());
    }

    public Set<Integer> stages() {
        return Collections.unmodifiableSet(nodesByStage.keySet());
    }
}
