package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.server.web.api.SqlJson;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.server.web.SqlFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQL tab, an execution's page and the Spark-shaped SQL API over real PostgreSQL, on two runs of a real local
 * Spark SQL application: lists, the plan graph with clusters, exchanges and findings on nodes, escaping of the
 * user's description and plan text, the node-stage mapping both ways, and the JSON equal to what the analysed
 * snapshot gives before storing (which the History Server truth test holds against Spark's own answer).
 */
class SqlWebTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static AppSnapshot run() {
        return SqlFixture.runs().get(0);
    }

    static String app() {
        return "/apps/" + run().appId();
    }

    @Test
    void sqlTabListsEveryExecutionWithStatusJobsStagesAndWorstFinding() {
        var r = get(app() + "/sql");
        assertEquals(200, r.status(), r.body());
        String b = r.body();
        assertTrue(b.contains("id=\"tab-sql\" href") || b.contains("id=\"tab-sql\""), "the SQL tab");
        assertTrue(b.contains("aria-current=\"page\" id=\"tab-sql\""), "SQL is the current tab");
        assertEquals(run().sqlExecutions().size(), count(b, "class=\"sql-row\""));
        assertTrue(run().sqlExecutions().size() >= 5);
        assertFalse(b.contains("<b>orders"), "the description is escaped");
        assertTrue(b.contains("&lt;b&gt;orders by customer&lt;/b&gt; &amp;"), b);
        assertTrue(b.contains("st-succeeded\">completed"));
        assertTrue(b.contains("class=\"worst-finding\""), "some query has a finding");
    }

    @Test
    void executionPageDrawsThePlanWithClustersExchangesMetricsAndFindingsOnNodes() {
        AppSnapshot s = run();
        int withNodeFinding = 0;
        for (SqlExecutionSummary sql : s.sqlExecutions()) {
            if (sql.plan() == null) {
                continue;
            }
            var r = get(app() + "/sql/" + sql.executionId());
            assertEquals(200, r.status(), r.body());
            String b = r.body();
            PlanGraph g = PlanGraph.of(sql.plan());
            long operators = g.nodes().stream().filter(n -> !n.cluster()).count();
            long clusters = g.nodes().stream().filter(n -> n.cluster() && !n.members().isEmpty()).count();
            assertEquals(operators, count(b, "<g class=\"plan-node"), "every operator drawn, query " + sql.executionId());
            assertEquals(clusters, count(b, "<g class=\"plan-cluster\""), "every codegen cluster drawn");
            assertEquals(g.edges().size(), count(b, "class=\"plan-edge\""));
            assertEquals(g.nodes().size(), count(b, "class=\"operator-row"), "every node in the operator table");
            if (g.nodes().stream().anyMatch(n -> n.name().contains("Exchange"))) {
                assertTrue(b.contains("plan-node exchange"), "exchanges drawn as such");
            }
            assertTrue(b.contains("number of output rows"), "metrics shown");
            assertTrue(b.contains("id=\"plan-text\""), "the plan text");
            assertFalse(b.contains("<b>orders"));
            if (b.contains("has-finding")) {
                withNodeFinding++;
                assertTrue(b.contains("class=\"finding-mark\""), "the finding's mark in the box");
                assertTrue(b.contains("class=\"node-finding"), "and in the operator table");
            }
        }
        assertTrue(withNodeFinding > 0, "a finding sits on a plan node of some query");
    }

    @Test
    void nodesNameTheirStagesAndStagesNameTheirQueryAndOperators() {
        String appPage = get(app()).body();
        Matcher m = Pattern.compile("class=\"stage-query\" href=\"[^\"]*/sql/(\\d+)\">SQL \\d+</a>: <span "
                + "class=\"stage-operators\"").matcher(appPage);
        assertTrue(m.find(), "a stage row names its query and operators");
        String page = get(app() + "/sql/" + m.group(1)).body();
        assertTrue(page.contains("class=\"stage-ref\" href=\"" + app() + "/stages/"), "a node links its stages");
    }

    @Test
    void planTextIsEscaped() {
        for (SqlExecutionSummary sql : run().sqlExecutions()) {
            String text = sql.physicalPlanDescription();
            if (text != null && text.contains(" < 100")) {
                String b = get(app() + "/sql/" + sql.executionId()).body();
                assertTrue(b.contains(" &lt; 100"), "the plan text's '<', escaped");
                String line = text.lines().filter(l -> l.contains(" < 100")).findFirst().orElseThrow();
                assertTrue(b.contains(io.sparkscope.server.web.page.Html.escape(line)));
                return;
            }
        }
        throw new AssertionError("the first query's plan text holds its filter's '<'");
    }

    @Test
    void apiAnswersInSparksShapeAndEqualsTheAnalysedSnapshot() throws Exception {
        AppSnapshot s = run();
        Map<Integer, JobSummary> jobs = new HashMap<>();
        s.jobs().forEach(j -> jobs.put(j.jobId(), j));
        var list = get("/api/v1/apps/" + s.appId() + "/sql?details=true&planDescription=true&length=1000");
        assertEquals(200, list.status(), list.body());
        JsonNode all = JSON.readTree(list.body());
        assertEquals(s.sqlExecutions().size(), all.size());
        for (SqlExecutionSummary sql : s.sqlExecutions()) {
            JsonNode expected = JSON.readTree(JSON.writeValueAsString(SqlJson.execution(sql, jobs, true, true, 0)));
            var one = get("/api/v1/apps/" + s.appId() + "/sql/" + sql.executionId());
            assertEquals(200, one.status(), one.body());
            JsonNode ours = JSON.readTree(one.body());
            assertEquals(expected, ours, "execution " + sql.executionId() + " read back from the database");
            assertTrue(ours.get("nodes").size() > 0 && ours.get("edges").size() > 0);
        }
        // Spark's defaults: length 20 from offset 0; details=false leaves nodes and edges empty
        java.util.List<Long> ids = s.sqlExecutions().stream().map(SqlExecutionSummary::executionId).sorted().toList();
        JsonNode page = JSON.readTree(get("/api/v1/apps/" + s.appId() + "/sql?offset=1&length=2&details=false").body());
        assertEquals(2, page.size());
        assertEquals((long) ids.get(1), page.get(0).get("id").asLong(), "by execution id, from the second");
        assertEquals(0, page.get(0).get("nodes").size());
        assertTrue(page.get(0).get("planDescription").asText().length() > 0);
        JsonNode noPlan = JSON.readTree(get("/api/v1/apps/" + s.appId() + "/sql/" + ids.get(0) + "?planDescription=false").body());
        assertEquals("", noPlan.get("planDescription").asText());
        ((ObjectNode) noPlan).remove("planDescription");
    }

    @Test
    void compareShowsOneQueryOfTwoRunsSideBySide() {
        AppSnapshot a = SqlFixture.runs().get(0);
        AppSnapshot b = SqlFixture.runs().get(1);
        SqlExecutionSummary first = a.sqlExecutions().get(0);
        assertTrue(get(app() + "/sql/" + first.executionId()).body().contains("action=\"/compare/sql\""),
                "the execution page offers the comparison");
        var r = get("/compare/sql?apps=" + a.appId() + "&apps=" + b.appId() + "&execution=" + first.executionId());
        assertEquals(200, r.status(), r.body());
        String body = r.body();
        long operators = PlanGraph.of(first.plan()).nodes().stream().filter(n -> !n.cluster()).count();
        assertEquals(operators, count(body, "<tr class=\"op-pair\"") + count(body, "<tr class=\"op-pair differs\""),
                "the same plan in both runs: operators paired");
        assertFalse(body.contains("<tr class=\"op-pair differs\""), "no operator only one plan has");
        assertTrue(body.contains("number of output rows"));
        // an unchanged count is not highlighted; the same query over the same data gives the same row counts
        assertTrue(Pattern.compile("metric-name\">number of output rows</td><td class=\"metric-value\">")
                .matcher(body).find(), "an equal row count is not highlighted");
        // another query beside it: plans differ, operators only one has are highlighted
        var other = get("/compare/sql?apps=" + a.appId() + "," + b.appId() + "&execution=" + first.executionId()
                + "&otherExecution=" + b.sqlExecutions().get(b.sqlExecutions().size() - 1).executionId());
        assertEquals(200, other.status());
        assertTrue(other.body().contains("class=\"op-pair differs\"") || other.body().contains("metric-value differs"));
        assertEquals(400, get("/compare/sql?apps=" + a.appId() + "," + b.appId()).status(), "execution missing");
    }

    @Test
    void sqlComparisonAsJson() throws Exception {
        AppSnapshot a = SqlFixture.runs().get(0);
        AppSnapshot b = SqlFixture.runs().get(1);
        SqlExecutionSummary first = a.sqlExecutions().get(0);
        var same = get("/api/v1/compare/sql?apps=" + a.appId() + "," + b.appId() + "&execution=" + first.executionId());
        assertEquals(200, same.status(), same.body());
        JsonNode j = JSON.readTree(same.body());
        assertEquals(2, j.get("queries").size());
        assertTrue(j.get("queries").get(0).get("baseline").asBoolean());
        assertEquals(a.appId(), j.get("queries").get(0).get("appId").asText());
        assertEquals(b.appId(), j.get("queries").get(1).get("appId").asText());
        assertEquals(0.2, j.get("changeThreshold").asDouble());
        long operators = PlanGraph.of(first.plan()).nodes().stream().filter(n -> !n.cluster()).count();
        assertEquals(operators, j.get("operators").size(), "the same plan in both runs: one entry per operator");
        boolean sawRows = false;
        for (JsonNode op : j.get("operators")) {
            assertTrue(op.get("onlyIn").isNull(), "both plans have " + op.get("name"));
            assertFalse(op.get("baselineNodeId").isNull());
            for (JsonNode m : op.get("metrics")) {
                if (m.get("name").asText().equals("number of output rows")) {
                    sawRows = true;
                    assertEquals(m.get("baselineTotal").asLong(), m.get("otherTotal").asLong(), "same data, same rows");
                    assertFalse(m.get("differs").asBoolean());
                }
            }
        }
        assertTrue(sawRows, "row counts are compared");

        SqlExecutionSummary last = b.sqlExecutions().get(b.sqlExecutions().size() - 1);
        var other = get("/api/v1/compare/sql?apps=" + a.appId() + "," + b.appId() + "&execution=" + first.executionId()
                + "&otherExecution=" + last.executionId());
        assertEquals(200, other.status(), other.body());
        JsonNode o = JSON.readTree(other.body());
        assertEquals(last.executionId(), o.get("queries").get(1).get("executionId").asLong());
        assertTrue(o.get("operatorsDiffering").asInt() > 0, "another query: some operators differ");
        int counted = 0;
        for (JsonNode op : o.get("operators")) {
            counted += op.get("differs").asBoolean() ? 1 : 0;
        }
        assertEquals(o.get("operatorsDiffering").asInt(), counted);

        var missing = get("/api/v1/compare/sql?apps=" + a.appId() + "," + b.appId());
        assertEquals(400, missing.status());
        assertTrue(missing.body().contains("execution"), missing.body());
        assertEquals(404, get("/api/v1/compare/sql?apps=" + a.appId() + ",no-such-app&execution=0").status());
    }

    @Test
    void unknownExecutionsAndBadIdsAreClearErrors() {
        var missing = get("/api/v1/apps/" + run().appId() + "/sql/99999");
        assertEquals(404, missing.status());
        assertTrue(missing.body().contains("no SQL execution 99999"), missing.body());
        var bad = get(app() + "/sql/abc");
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("executionId"), bad.body());
        assertEquals(400, get("/api/v1/apps/" + run().appId() + "/sql?details=maybe").status());
        assertEquals(404, get("/apps/no-such-app/sql").status());
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }
}
