package io.sparkscope.server.web.sql;

import io.sparkscope.core.sql.PlanGraph;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanLayoutTest {

    /** A graph drawn again (a new graph object, equal in nodes, sizes and edges) reuses its layout; a box that grew does not. */
    @Test
    void aGraphDrawnAgainKeepsItsLayoutUntilABoxChanges() {
        Map<Long, double[]> sizes = new HashMap<>();
        PlanGraph first = PlanGraph.of(SyntheticPlans.plan(12, 1));
        first.nodes().forEach(n -> sizes.put(n.id(), new double[]{120, 30}));
        PlanLayout.Laid laid = PlanLayout.kept(first, sizes);
        PlanGraph again = PlanGraph.of(SyntheticPlans.plan(12, 1));
        assertSame(laid, PlanLayout.kept(again, new HashMap<>(sizes)));
        long grown = again.nodes().stream().filter(n -> !n.cluster()).findFirst().orElseThrow().id();
        sizes.put(grown, new double[]{300, 44});
        PlanLayout.Laid relaid = PlanLayout.kept(again, sizes);
        assertNotSame(laid, relaid);
        assertEquals(300, relaid.boxes().get(grown).width(), 0.01);
    }

    @Test
    void clustersHoldTheirMembersAndNodesDoNotOverlap() {
        PlanGraph g = PlanGraph.of(SyntheticPlans.plan(60, 1));
        Map<Long, double[]> sizes = new HashMap<>();
        g.nodes().forEach(n -> sizes.put(n.id(), new double[]{100 + (n.id() % 3) * 20, 40}));
        PlanLayout.Laid laid = PlanLayout.of(g, sizes);
        assertTrue(laid.width() > 0 && laid.height() > 0);
        for (PlanGraph.Node n : g.nodes()) {
            PlanLayout.Box b = laid.boxes().get(n.id());
            assertTrue(b != null, "node " + n.id() + " placed");
            if (n.clusterId() >= 0) {
                PlanLayout.Box c = laid.boxes().get(n.clusterId());
                assertTrue(b.x() >= c.x() && b.y() >= c.y() && b.x() + b.width() <= c.x() + c.width() + 0.5
                        && b.y() + b.height() <= c.y() + c.height() + 0.5, "node " + n.id() + " inside its cluster");
            }
            if (!n.cluster()) {
                assertEquals(sizes.get(n.id())[0], b.width(), 0.01);
                for (PlanGraph.Node m : g.nodes()) {
                    if (m.id() != n.id() && !m.cluster()) {
                        assertFalse(overlap(b, laid.boxes().get(m.id())), n.id() + " overlaps " + m.id());
                    }
                }
            }
        }
        assertEquals(g.edges().size(), laid.edges().size());
        // data flows down: a child sits above its parent
        for (PlanLayout.Path p : laid.edges()) {
            assertTrue(laid.boxes().get(p.fromId()).y() < laid.boxes().get(p.toId()).y(),
                    "edge " + p.fromId() + "->" + p.toId() + " points down");
        }
    }

    private static boolean overlap(PlanLayout.Box a, PlanLayout.Box b) {
        return a.x() < b.x() + b.width() - 0.5 && b.x() < a.x() + a.width() - 0.5
                && a.y() < b.y() + b.height() - 0.5 && b.y() < a.y() + a.height() - 0.5;
    }
}
