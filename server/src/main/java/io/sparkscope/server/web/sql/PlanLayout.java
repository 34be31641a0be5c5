package io.sparkscope.server.web.sql;

import io.sparkscope.core.sql.PlanGraph;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.options.HierarchyHandling;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Positions for a {@link PlanGraph}, computed by the Eclipse Layout Kernel's layered algorithm: operators in layers
 * from the scans at the top to the result at the bottom (Spark's direction), whole-stage-codegen clusters as boxes
 * around their operators with edges crossing them laid out together, edges routed orthogonally. Coordinates are
 * absolute, in SVG pixels.
 */
public final class PlanLayout {
    /** Room above a cluster's members for its title. */
    static final double CLUSTER_TITLE = 22;
    /**
     * Above this many nodes, fewer crossing-minimisation sweeps: a plan of a thousand operators is then laid out in
     * a fraction of a second, paid once per plan since pages keep laid-out plans ({@link #kept}).
     */
    private static final int LARGE = 400;
    /** Layouts kept by {@link #kept}: a page of a plan or stage drawn lately then costs the SVG text only. */
    static final int KEPT = 128;

    private static final Map<String, Laid> LAYOUTS = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Laid> eldest) {
            return size() > KEPT;
        }
    };

    static {
        LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
    }

    public record Box(double x, double y, double width, double height) {
    }

    public record Path(long fromId, long toId, List<double[]> points) {
    }

    public record Laid(double width, double height, Map<Long, Box> boxes, List<Path> edges) {
    }

    private PlanLayout() {
    }

    /**
     * As {@link #of}, from the last {@link #KEPT} layouts when one was made for the same graph: the same nodes (id,
     * cluster, box size) and edges. The layout is most of the CPU of a page that draws a graph (a quarter of the
     * stage page's), and a graph is drawn again and again while its application is read.
     */
    public static Laid kept(PlanGraph graph, Map<Long, double[]> sizes) {
        StringBuilder key = new StringBuilder(graph.nodes().size() * 24);
        for (PlanGraph.Node n : graph.nodes()) {
            key.append(n.id()).append(n.cluster() ? 'c' : 'n').append(n.clusterId());
            double[] wh = sizes.get(n.id());
            if (!n.cluster() && wh != null) {
                key.append(':').append((long) wh[0]).append('x').append((long) wh[1]);
            }
            key.append(';');
        }
        for (PlanGraph.Edge e : graph.edges()) {
            key.append(e.fromId()).append('>').append(e.toId()).append(',');
        }
        String k = key.toString();
        Laid laid;
        synchronized (LAYOUTS) {
            laid = LAYOUTS.get(k);
        }
        if (laid == null) {
            laid = of(graph, sizes); // outside the lock: two pages of one new graph may both lay it out, once each
            synchronized (LAYOUTS) {
                LAYOUTS.put(k, laid);
            }
        }
        return laid;
    }

    /**
     * @param sizes width and height of every non-cluster node by id (clusters are sized around their members)
     */
    public static Laid of(PlanGraph graph, Map<Long, double[]> sizes) {
        ElkNode root = ElkGraphUtil.createGraph();
        root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        root.setProperty(CoreOptions.DIRECTION, Direction.DOWN);
        root.setProperty(CoreOptions.HIERARCHY_HANDLING, HierarchyHandling.INCLUDE_CHILDREN);
        root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
        root.setProperty(CoreOptions.PADDING, new ElkPadding(12));
        root.setProperty(LayeredOptions.SPACING_NODE_NODE, 18.0);
        root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 28.0);
        if (graph.nodes().size() > LARGE) {
            root.setProperty(LayeredOptions.THOROUGHNESS, 1);
        }
        Map<Long, ElkNode> elk = new HashMap<>();
        // clusters first, so members can be created inside them
        for (PlanGraph.Node n : graph.nodes()) {
            if (n.cluster() && !n.members().isEmpty()) {
                ElkNode c = ElkGraphUtil.createNode(root);
                c.setProperty(CoreOptions.PADDING, new ElkPadding(CLUSTER_TITLE + 6, 8, 8, 8));
                c.setProperty(CoreOptions.DIRECTION, Direction.DOWN);
                c.setProperty(LayeredOptions.SPACING_NODE_NODE, 12.0);
                c.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 22.0);
                elk.put(n.id(), c);
            }
        }
        for (PlanGraph.Node n : graph.nodes()) {
            if (elk.containsKey(n.id())) {
                continue;
            }
            ElkNode parent = n.clusterId() >= 0 && elk.containsKey(n.clusterId()) ? elk.get(n.clusterId()) : root;
            ElkNode e = ElkGraphUtil.createNode(parent);
            double[] wh = sizes.getOrDefault(n.id(), new double[]{120, 30});
            e.setDimensions(wh[0], wh[1]);
            elk.put(n.id(), e);
        }
        List<ElkEdge> edges = new ArrayList<>();
        List<PlanGraph.Edge> planEdges = new ArrayList<>();
        for (PlanGraph.Edge pe : graph.edges()) {
            ElkNode from = elk.get(pe.fromId());
            ElkNode to = elk.get(pe.toId());
            if (from == null || to == null || from == to) {
                continue;
            }
            edges.add(ElkGraphUtil.createSimpleEdge(from, to));
            planEdges.add(pe);
        }
        new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

        Map<Long, Box> boxes = new HashMap<>();
        for (Map.Entry<Long, ElkNode> e : elk.entrySet()) {
            ElkNode n = e.getValue();
            double[] abs = absolute(n);
            boxes.put(e.getKey(), new Box(abs[0], abs[1], n.getWidth(), n.getHeight()));
        }
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            ElkEdge edge = edges.get(i);
            if (edge.getSections().isEmpty()) {
                continue;
            }
            double[] off = absolute(edge.getContainingNode());
            ElkEdgeSection s = edge.getSections().get(0);
            List<double[]> pts = new ArrayList<>();
            pts.add(new double[]{s.getStartX() + off[0], s.getStartY() + off[1]});
            for (ElkBendPoint b : s.getBendPoints()) {
                pts.add(new double[]{b.getX() + off[0], b.getY() + off[1]});
            }
            pts.add(new double[]{s.getEndX() + off[0], s.getEndY() + off[1]});
            paths.add(new Path(planEdges.get(i).fromId(), planEdges.get(i).toId(), pts));
        }
        return new Laid(root.getWidth(), root.getHeight(), boxes, paths);
    }

    /** The node's top-left corner in the root's coordinates (the root itself at 0, 0). */
    private static double[] absolute(ElkNode n) {
        double x = 0;
        double y = 0;
        for (ElkNode p = n; p != null && p.getParent() != null; p = p.getParent()) {
            x += p.getX();
            y += p.getY();
        }
        return new double[]{x, y};
    }
}
