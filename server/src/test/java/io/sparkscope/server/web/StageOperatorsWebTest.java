package io.sparkscope.server.web;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stage page of a real SQL application (a shared Spark 3 event log, read in place; skipped with a message when
 * the shared logs are absent): the plan operators that ran in a stage are listed, each linked to its node on the SQL
 * execution's page.
 */
class StageOperatorsWebTest {
    static final String LOG = "spark-events-sql/local-1596020211915";
    static DataSource ds;
    static OwnServer server;
    static String appId;

    @BeforeAll
    static void start() throws Exception {
        Path shared = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(shared != null && Files.exists(shared.resolve(LOG)),
                "SKIPPED: ../shared/eventlogs/" + LOG + " not found (set SPARKSCOPE_SHARED)");
        var s = EventLogAnalysis.analyze(EventLogReader.discover(shared.resolve(LOG)).get(0), RecorderOptions.DEFAULTS,
                p -> { }).snapshot();
        appId = s.appId();
        ds = WebFixture.newDatabase();
        WebFixture.write(ds, s);
        server = OwnServer.over(ds);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private record Operator(long executionId, long nodeId, String name) {
    }

    @Test
    void operatorsOfAStageAreListedAndLinkedToTheirNode() throws Exception {
        int stage = -1;
        int attempt = -1;
        List<Operator> ops = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT s.stage_id,"
                + " max(s.attempt_id) FROM stage_attempt s WHERE EXISTS (SELECT 1 FROM sql_plan_node n"
                + " WHERE n.app_pk = s.app_pk AND NOT n.is_cluster AND s.stage_id = ANY(n.stage_ids))"
                + " GROUP BY s.stage_id ORDER BY s.stage_id LIMIT 1")) {
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "a stage that ran plan operators");
                stage = rs.getInt(1);
                attempt = rs.getInt(2);
            }
            try (PreparedStatement q = c.prepareStatement("SELECT execution_id, node_id, name FROM sql_plan_node"
                    + " WHERE NOT is_cluster AND ? = ANY(stage_ids) ORDER BY execution_id, node_id")) {
                q.setInt(1, stage);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        ops.add(new Operator(rs.getLong(1), rs.getLong(2), rs.getString(3)));
                    }
                }
            }
        }
        var r = WebFixture.getAt(server.base(), "/apps/" + appId + "/stages/" + stage + "/" + attempt);
        assertEquals(200, r.status(), r.body());
        String b = r.body();
        assertFalse(b.contains("id=\"no-operators\""));
        assertEquals(ops.size(), count(b, "<a class=\"operator\" data-node="), "every operator of the stage");
        for (Operator o : ops) {
            assertTrue(b.contains("data-node=\"" + o.nodeId() + "\" href=\"/apps/" + appId + "/sql/" + o.executionId()
                    + "#node-" + o.nodeId() + "\""), "operator " + o);
        }
        // and the SQL execution's page has the node the link points at
        Operator first = ops.get(0);
        String sql = WebFixture.getAt(server.base(), "/apps/" + appId + "/sql/" + first.executionId()).body();
        assertTrue(sql.contains("id=\"node-" + first.nodeId() + "\""), "the node's anchor on the SQL page");
    }

    @Test
    void dagDrawsTheStagesOperatorsWithThePlansEdgesAndItsParentStagesAtTheirExchanges() throws Exception {
        // a stage that ran plan operators and read another stage's shuffle
        int stage;
        int attempt;
        int parent;
        List<Operator> ops = new ArrayList<>();
        List<long[]> planEdges = new ArrayList<>();
        List<Long> parentExchanges = new ArrayList<>();
        try (Connection c = ds.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT s.stage_id, s.attempt_id, p.stage_id"
                    + " FROM stage_attempt s JOIN stage_attempt p ON p.app_pk = s.app_pk"
                    + " AND p.stage_id = ANY(s.parent_ids)"
                    + " WHERE EXISTS (SELECT 1 FROM sql_plan_node n WHERE n.app_pk = s.app_pk AND NOT n.is_cluster"
                    + " AND s.stage_id = ANY(n.stage_ids) AND p.stage_id = ANY(n.stage_ids))"
                    + " ORDER BY s.stage_id, s.attempt_id DESC, p.stage_id LIMIT 1")) {
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next(), "a stage meeting its parent at an operator both ran");
                    stage = rs.getInt(1);
                    attempt = rs.getInt(2);
                    parent = rs.getInt(3);
                }
            }
            try (PreparedStatement q = c.prepareStatement("SELECT execution_id, node_id, name, ? = ANY(stage_ids)"
                    + " FROM sql_plan_node WHERE NOT is_cluster AND ? = ANY(stage_ids)"
                    + " ORDER BY execution_id, node_id")) {
                q.setInt(1, parent);
                q.setInt(2, stage);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        Operator o = new Operator(rs.getLong(1), rs.getLong(2), rs.getString(3));
                        ops.add(o);
                        if (rs.getBoolean(4) && (o.name().contains("Exchange") || o.name().contains("ShuffleRead"))) {
                            parentExchanges.add(o.nodeId());
                        }
                    }
                }
            }
            try (PreparedStatement q = c.prepareStatement("SELECT e.from_id, e.to_id FROM sql_plan_edge e"
                    + " JOIN sql_plan_node f ON f.app_pk = e.app_pk AND f.execution_id = e.execution_id"
                    + " AND f.node_id = e.from_id JOIN sql_plan_node t ON t.app_pk = e.app_pk"
                    + " AND t.execution_id = e.execution_id AND t.node_id = e.to_id"
                    + " WHERE ? = ANY(f.stage_ids) AND ? = ANY(t.stage_ids)")) {
                q.setInt(1, stage);
                q.setInt(2, stage);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        planEdges.add(new long[]{rs.getLong(1), rs.getLong(2)});
                    }
                }
            }
        }
        assertFalse(parentExchanges.isEmpty(), "the exchange both stages ran");
        String b = WebFixture.getAt(server.base(), "/apps/" + appId + "/stages/" + stage + "/" + attempt).body();
        String dag = b.substring(b.indexOf("id=\"stage-dag-drawing\""), b.indexOf("id=\"dag-not-shown\""));
        // every operator of the stage is a box linking to its node on the SQL page
        java.util.Map<String, Long> boxToNode = new java.util.HashMap<>();
        for (Operator o : ops) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<a href=\"/apps/" + appId + "/sql/"
                    + o.executionId() + "#node-" + o.nodeId()
                    + "\"><g class=\"plan-node[^\"]*\" id=\"plan-node-(\\d+)\"")
                    .matcher(dag);
            assertTrue(m.find(), "operator " + o + " drawn, linked to its node");
            boxToNode.put(m.group(1), o.nodeId());
        }
        assertEquals(ops.size(), count(dag, "<a href=\"/apps/" + appId + "/sql/"), "only the stage's operators");
        // the parent stage is a box with an edge into each exchange both stages ran
        java.util.regex.Matcher p = java.util.regex.Pattern.compile("<a href=\"/apps/" + appId + "/stages/" + parent
                + "/\\d+\"><g class=\"plan-node stage-box parent\" id=\"plan-node-(\\d+)\"").matcher(dag);
        assertTrue(p.find(), "parent stage " + parent + " as a box");
        List<Long> fed = new ArrayList<>();
        java.util.regex.Matcher e = java.util.regex.Pattern.compile("data-from=\"" + p.group(1)
                + "\" data-to=\"(\\d+)\"").matcher(dag);
        while (e.find()) {
            fed.add(boxToNode.get(e.group(1)));
        }
        assertEquals(parentExchanges, fed, "the parent's edges end at the exchanges it shares with the stage");
        // the plan's edges between two of the stage's operators, and no other edge between operators
        int operatorEdges = 0;
        java.util.regex.Matcher all = java.util.regex.Pattern.compile("data-from=\"(\\d+)\" data-to=\"(\\d+)\"")
                .matcher(dag);
        while (all.find()) {
            Long from = boxToNode.get(all.group(1));
            Long to = boxToNode.get(all.group(2));
            if (from != null && to != null) {
                operatorEdges++;
                assertTrue(planEdges.stream().anyMatch(x -> x[0] == from && x[1] == to), from + " → " + to);
            }
        }
        assertEquals(planEdges.size(), operatorEdges, "every stored edge between the stage's operators");
        // the JSON carries the same nodes (clusters too) and edges, by Spark's node ids
        var j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(WebFixture.getAt(server.base(),
                "/api/v1/apps/" + appId + "/stages/" + stage + "/" + attempt).body()).get("plan");
        List<Long> jsonOperators = new ArrayList<>();
        for (var n : j.get("nodes")) {
            if (!n.get("cluster").asBoolean()) {
                jsonOperators.add(n.get("nodeId").asLong());
            }
        }
        assertEquals(ops.stream().map(Operator::nodeId).toList(), jsonOperators);
        assertEquals(planEdges.size(), j.get("edges").size());
    }

    @Test
    void timelineHasOneLanePerCoreOfTheLocalDriver() {
        String b = WebFixture.getAt(server.base(), "/apps/" + appId + "/timeline").body();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("data-lanes=\"(\\d+)\"").matcher(b);
        assertTrue(m.find(), "the drawing");
        assertEquals(count(b, "<rect class=\"lane "), Integer.parseInt(m.group(1)));
        assertTrue(b.contains("data-executor=\"driver\""), "a local application's driver runs its tasks");
    }

    private static int count(String html, String regex) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(html);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
