package io.sparkscope.server.web.page;

import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.server.web.sql.PlanLayout;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.store.query.StagePageQuery;
import io.sparkscope.store.query.StagePlan;
import io.sparkscope.store.query.StageRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage's DAG as the stage page draws it, with the SQL page's drawing code ({@link PlanSvg}, {@link PlanLayout}):
 * the SQL operators the stage ran with the plan's edges between them and their codegen clusters, the stages it read
 * from as boxes above the exchanges that read their shuffle output, and the stages that read its output as boxes
 * below the exchanges that wrote it. A stage that ran no SQL operator is drawn as its own box between its parent and
 * child stages. The store keeps no RDD operations of a stage, so Spark's RDD-level DAG is not drawn.
 */
final class StageDag {
    /** Said under the drawing: what the History Server draws that this one cannot. */
    static final String NOT_SHOWN = "The History Server's stage DAG draws the stage's RDD operations; those are not"
            + " recorded, so this drawing shows the SQL operators the stage ran (from the plan's metrics) and the"
            + " stages it read from and fed.";

    /** A drawn node: a plan node of the stage, a neighbour stage, or the stage itself. */
    private record Drawn(PlanGraph.Node node, String href, String classes, List<String> lines) {
    }

    private StageDag() {
    }

    static void render(Html h, StagePageQuery.Page p) {
        String appId = p.app().appId();
        String att = p.app().attemptId();
        StagePlan plan = p.plan();
        Map<Long, Drawn> drawn = new LinkedHashMap<>();
        List<PlanGraph.Edge> edges = new ArrayList<>();
        // plan nodes get new ids (two executions may both have a node 3); clusters only when a member is drawn
        Map<List<Long>, Long> ids = new HashMap<>();
        for (StagePlan.Node n : plan.nodes()) {
            ids.put(List.of(n.executionId(), n.nodeId()), (long) ids.size());
        }
        Map<Long, List<Long>> members = new HashMap<>();
        for (StagePlan.Node n : plan.nodes()) {
            Long cluster = ids.get(List.of(n.executionId(), n.clusterId()));
            if (!n.cluster() && cluster != null) {
                members.computeIfAbsent(cluster, k -> new ArrayList<>()).add(ids.get(List.of(n.executionId(),
                        n.nodeId())));
            }
        }
        List<Long> exchangesOf = new ArrayList<>();
        for (StagePlan.Node n : plan.nodes()) {
            long id = ids.get(List.of(n.executionId(), n.nodeId()));
            List<Long> mine = members.getOrDefault(id, List.of());
            if (n.cluster() && mine.isEmpty()) {
                continue;
            }
            Long cluster = ids.get(List.of(n.executionId(), n.clusterId()));
            PlanGraph.Node g = new PlanGraph.Node(id, n.name(), n.description(), List.of(), n.cluster(),
                    n.cluster() || cluster == null ? -1 : cluster, mine);
            boolean exchange = !n.cluster() && PlanSvg.isExchange(g);
            if (exchange) {
                exchangesOf.add(id);
            }
            drawn.put(id, new Drawn(g, n.cluster() ? null : StageView.sqlUrl(appId, att, n.executionId(), n.nodeId()),
                    exchange ? " exchange" : "", List.of(PlanPictures.cut(n.name().strip()))));
        }
        for (StagePlan.Edge e : plan.edges()) {
            edges.add(new PlanGraph.Edge(ids.get(List.of(e.executionId(), e.fromId())),
                    ids.get(List.of(e.executionId(), e.toId()))));
        }
        long next = ids.size();
        Long self = null;
        if (drawn.isEmpty()) {
            StageRow s = p.stage();
            self = next++;
            drawn.put(self, stageBox(self, s.stageId(), s.name(), "#stage", " stage-box current", "this stage"));
        }
        for (boolean parents : new boolean[]{true, false}) {
            for (StagePageQuery.StageLink l : parents ? p.parents() : p.children()) {
                long id = next++;
                drawn.put(id, stageBox(id, l.stageId(), l.name(), StageView.url(appId, att, l.stageId(),
                        l.attemptId()), parents ? " stage-box parent" : " stage-box child",
                        parents ? "read from" : "reads it"));
                // joined at the exchanges both stages ran (data flows from the parent, to the child)
                List<Long> joined = self != null ? List.of(self)
                        : sharedExchanges(plan, ids, exchangesOf, l.stageId());
                for (long at : joined) {
                    edges.add(parents ? new PlanGraph.Edge(id, at) : new PlanGraph.Edge(at, id));
                }
            }
        }
        List<PlanGraph.Node> nodes = new ArrayList<>();
        Map<Long, List<String>> lines = new HashMap<>();
        Map<Long, double[]> sizes = new HashMap<>();
        for (Drawn d : drawn.values()) {
            nodes.add(d.node());
            lines.put(d.node().id(), d.lines());
            if (!d.node().cluster()) {
                sizes.put(d.node().id(), PlanPictures.boxSize(d.lines(), 0));
            }
        }
        PlanGraph graph = new PlanGraph(nodes, edges);
        PlanLayout.Laid laid = PlanLayout.kept(graph, sizes);
        PlanSvg.tools(h);
        PlanSvg.svg(h, graph, laid, lines, "stage DAG", new PlanSvg.Look() {
            @Override
            public String href(PlanGraph.Node n) {
                return drawn.get(n.id()).href();
            }

            @Override
            public String classes(PlanGraph.Node n) {
                return drawn.get(n.id()).classes();
            }

            @Override
            public String clusterClass(PlanGraph.Node n) {
                return null;
            }

            @Override
            public String mark(PlanGraph.Node n) {
                return null;
            }
        });
    }

    /** A neighbour stage (or the stage itself) as a box: "Stage 3 · read from" over its readable name. */
    private static Drawn stageBox(long id, int stageId, String name, String href, String classes, String role) {
        String title = "Stage " + stageId + " · " + role;
        String readable = name == null ? "" : name.strip();
        return new Drawn(new PlanGraph.Node(id, title, readable, List.of(), false, -1, List.of()), href, classes,
                readable.isEmpty() ? List.of(title) : List.of(title, PlanPictures.cut(readable)));
    }

    /**
     * The exchanges of the drawing that the other stage also ran: an exchange names the stage that wrote its shuffle
     * and the one that read it, so these are where the two stages meet. Empty when the plan does not say.
     */
    private static List<Long> sharedExchanges(StagePlan plan, Map<List<Long>, Long> ids, List<Long> exchanges,
                                              int stage) {
        List<Long> out = new ArrayList<>();
        for (StagePlan.Node n : plan.nodes()) {
            long id = ids.get(List.of(n.executionId(), n.nodeId()));
            if (exchanges.contains(id) && n.stageIds().contains(stage)) {
                out.add(id);
            }
        }
        return out;
    }
}
