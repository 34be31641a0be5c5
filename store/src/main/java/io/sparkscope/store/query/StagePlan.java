package io.sparkscope.store.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The part of the SQL plans that one stage ran, for the stage page's drawing: the plan nodes (operators and
 * whole-stage-codegen clusters) whose stored {@code stage_ids} name the stage, and the plan's edges between two of
 * them. An exchange names both the stage that wrote its shuffle and the one that read it, so the nodes' stage ids
 * also tell which exchange connects the stage to a parent or child stage.
 *
 * @param nodes     by execution, then Spark's node id; at most {@link #MAX_NODES}
 * @param edges     child to parent (the way data flows), both ends among {@code nodes}
 * @param truncated the stage ran more nodes than {@link #MAX_NODES}; the first ones are kept
 */
public record StagePlan(List<Node> nodes, List<Edge> edges, boolean truncated) {
    /** Nodes drawn at most: a stage runs a few dozen operators; a damaged plan should not cost a huge layout. */
    public static final int MAX_NODES = 400;

    public static final StagePlan EMPTY = new StagePlan(List.of(), List.of(), false);

    /**
     * @param clusterId the codegen cluster holding the node, -1 when none
     * @param stageIds  the stages that ran it, ascending
     */
    public record Node(long executionId, long nodeId, String name, String description, boolean cluster,
                       long clusterId, List<Integer> stageIds) {
        public Node {
            stageIds = List.copyOf(stageIds);
        }
    }

    public record Edge(long executionId, long fromId, long toId) {
    }

    public StagePlan {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    static StagePlan load(Connection c, long pk, int stageId) throws SQLException {
        List<Node> nodes = new ArrayList<>();
        boolean truncated = false;
        try (PreparedStatement ps = c.prepareStatement("SELECT execution_id, node_id, name, description, is_cluster,"
                + " cluster_id, stage_ids FROM sql_plan_node WHERE app_pk = ? AND ? = ANY(stage_ids)"
                + " ORDER BY execution_id, node_id LIMIT ?")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, MAX_NODES + 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (nodes.size() == MAX_NODES) {
                        truncated = true;
                        break;
                    }
                    nodes.add(new Node(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getBoolean(5), rs.getLong(6), Sql.ints(rs.getArray(7))));
                }
            }
        }
        if (nodes.isEmpty()) {
            return EMPTY;
        }
        Set<List<Long>> kept = new HashSet<>();
        Set<Long> executions = new HashSet<>();
        for (Node n : nodes) {
            kept.add(List.of(n.executionId(), n.nodeId()));
            executions.add(n.executionId());
        }
        List<Edge> edges = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT execution_id, from_id, to_id FROM sql_plan_edge"
                + " WHERE app_pk = ? AND execution_id = ANY(?) ORDER BY execution_id, ord")) {
            ps.setLong(1, pk);
            ps.setArray(2, c.createArrayOf("bigint", executions.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long execution = rs.getLong(1);
                    if (kept.contains(List.of(execution, rs.getLong(2)))
                            && kept.contains(List.of(execution, rs.getLong(3)))) {
                        edges.add(new Edge(execution, rs.getLong(2), rs.getLong(3)));
                    }
                }
            }
        }
        return new StagePlan(nodes, edges, truncated);
    }
}
