package io.sparkscope.core.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A SQL physical plan as Spark's SQL tab draws it ({@code SparkPlanGraph}, Spark 4.0): one node per operator,
 * numbered in Spark's order, whole-stage-codegen operators as clusters around the operators they fuse, the
 * {@code InputAdapter} and query-stage wrappers left out, and a reused exchange or subquery drawn once with an edge
 * from every place that reuses it. Node ids are Spark's, so they name the same node as the History Server's REST API.
 *
 * @param nodes every node, clusters included, in Spark's {@code allNodes} order (a cluster after its members)
 * @param edges from child to parent, in the order Spark adds them
 */
public record PlanGraph(List<Node> nodes, List<Edge> edges) {

    /**
     * @param clusterId the id of the whole-stage-codegen cluster holding this node, or -1
     * @param members   for a cluster, the ids of the nodes it holds; empty otherwise
     */
    public record Node(long id, String name, String description, List<PlanMetric> metrics, boolean cluster,
                       long clusterId, List<Long> members) {
        public Node {
            metrics = List.copyOf(metrics);
            members = List.copyOf(members);
        }

        /** Spark's {@code wholeStageCodegenId} of a cluster: the number in "WholeStageCodegen (3)", or -1. */
        public long codegenId() {
            return PlanGraph.codegenId(name);
        }
    }

    public record Edge(long fromId, long toId) {
    }

    public PlanGraph {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    public static final PlanGraph EMPTY = new PlanGraph(List.of(), List.of());

    /** The node with this id, or null. */
    public Node node(long id) {
        for (Node n : nodes) {
            if (n.id() == id) {
                return n;
            }
        }
        return null;
    }

    /** Nodes by id (ids are dense from 0, so a list index is the id). */
    public Map<Long, Node> byId() {
        Map<Long, Node> m = new HashMap<>();
        for (Node n : nodes) {
            m.put(n.id(), n);
        }
        return m;
    }

    public static PlanGraph of(PlanNode root) {
        if (root == null) {
            return EMPTY;
        }
        Builder b = new Builder();
        b.build(root, null, null);
        List<Node> all = new ArrayList<>();
        for (MutableNode n : b.top) {
            if (n.cluster) {
                for (MutableNode m : n.children) {
                    all.add(m.freeze(n.id));
                }
            }
            all.add(n.freeze(-1));
        }
        return new PlanGraph(all, b.edges);
    }

    /**
     * The graph node id of each operator of the plan tree that the graph draws (by identity: the tree's own
     * objects), so a heuristic that found an operator in the tree can name it as Spark's SQL tab does. Operators
     * the graph leaves out (an {@code InputAdapter}, a query-stage wrapper, a reused exchange) are absent.
     */
    public static Map<PlanNode, Long> nodeIds(PlanNode root) {
        Map<PlanNode, Long> out = new java.util.IdentityHashMap<>();
        if (root == null) {
            return out;
        }
        Builder b = new Builder();
        b.build(root, null, null);
        for (MutableNode n : b.top) {
            out.put(n.plan, n.id);
            if (n.cluster) {
                for (MutableNode m : n.children) {
                    out.put(m.plan, m.id);
                }
            }
        }
        return out;
    }

    /** The number in a cluster name such as "WholeStageCodegen (3)", or -1 (Spark's REST omits it then). */
    static long codegenId(String name) {
        String prefix = "WholeStageCodegen (";
        String n = name == null ? "" : name.trim();
        if (!n.startsWith(prefix) || !n.endsWith(")")) {
            return -1;
        }
        try {
            return Long.parseLong(n.substring(prefix.length(), n.length() - 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static final class MutableNode {
        final long id;
        final PlanNode plan;
        final boolean cluster;
        final List<MutableNode> children = new ArrayList<>();

        MutableNode(long id, PlanNode plan, boolean cluster) {
            this.id = id;
            this.plan = plan;
            this.cluster = cluster;
        }

        Node freeze(long clusterId) {
            List<Long> members = new ArrayList<>();
            if (cluster) {
                for (MutableNode m : children) {
                    members.add(m.id);
                }
            }
            return new Node(id, nz(plan.nodeName()), nz(plan.simpleString()), plan.metrics(), cluster, clusterId,
                    members);
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** Spark's {@code buildSparkPlanGraphNode}, case by case. */
    private static final class Builder {
        long nextId;
        final List<MutableNode> top = new ArrayList<>();
        final List<Edge> edges = new ArrayList<>();
        final Map<PlanKey, MutableNode> exchanges = new HashMap<>();

        void build(PlanNode plan, MutableNode parent, MutableNode subgraph) {
            String name = nz(plan.nodeName());
            PlanNode first = plan.children().isEmpty() ? null : plan.children().get(0);
            if (name.startsWith("WholeStageCodegen")) {
                MutableNode cluster = new MutableNode(nextId++, plan, true);
                top.add(cluster);
                if (first != null) {
                    build(first, parent, cluster);
                }
            } else if (name.equals("InputAdapter")) {
                if (first != null) {
                    build(first, parent, null);
                }
            } else if (name.equals("BroadcastQueryStage") || name.equals("ShuffleQueryStage")) {
                if (first == null) {
                    return;
                }
                MutableNode reused = exchanges.get(new PlanKey(first));
                if (reused != null) {
                    edge(reused, parent);
                } else {
                    build(first, parent, null);
                }
            } else if (name.equals("TableCacheQueryStage") || name.equals("ResultQueryStage")) {
                if (first != null) {
                    build(first, parent, null);
                }
            } else if (name.equals("Subquery") && subgraph != null) {
                // a subquery is never drawn inside a codegen cluster
                build(plan, parent, null);
            } else if (name.equals("Subquery") && exchanges.containsKey(new PlanKey(plan))) {
                edge(exchanges.get(new PlanKey(plan)), parent);
            } else if (name.equals("ReusedSubquery")) {
                // may come before the subquery it reuses: drawing the child makes both point to one node
                if (first != null) {
                    build(first, parent, subgraph);
                }
            } else if (name.equals("ReusedExchange") && first != null && exchanges.containsKey(new PlanKey(first))) {
                edge(exchanges.get(new PlanKey(first)), parent);
            } else {
                MutableNode node = new MutableNode(nextId++, plan, false);
                if (subgraph == null) {
                    top.add(node);
                } else {
                    subgraph.children.add(node);
                }
                if (name.contains("Exchange") || name.equals("Subquery")) {
                    exchanges.put(new PlanKey(plan), node);
                }
                if (parent != null) {
                    edge(node, parent);
                }
                for (PlanNode child : plan.children()) {
                    build(child, node, subgraph);
                }
            }
        }

        void edge(MutableNode from, MutableNode to) {
            // Spark would fail on a reuse at the root (no parent); there is no edge to draw then.
            if (to != null) {
                edges.add(new Edge(from.id, to.id));
            }
        }
    }

    /**
     * Spark's {@code SparkPlanInfo} equality: same name, same one-line description, equal children — metrics are
     * not compared (a reused exchange names the same operator with the same accumulators anyway).
     */
    private static final class PlanKey {
        final PlanNode plan;

        PlanKey(PlanNode plan) {
            this.plan = plan;
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(plan.simpleString());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PlanKey k && same(plan, k.plan);
        }

        private static boolean same(PlanNode a, PlanNode b) {
            if (a == b) {
                return true;
            }
            if (!Objects.equals(a.nodeName(), b.nodeName()) || !Objects.equals(a.simpleString(), b.simpleString())
                    || a.children().size() != b.children().size()) {
                return false;
            }
            for (int i = 0; i < a.children().size(); i++) {
                if (!same(a.children().get(i), b.children().get(i))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Nodes sorted by id, descending, as Spark's REST API lists them. */
    public List<Node> nodesByIdDescending() {
        List<Node> out = new ArrayList<>(nodes);
        out.sort((x, y) -> Long.compare(y.id(), x.id()));
        return Collections.unmodifiableList(out);
    }
}
