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
