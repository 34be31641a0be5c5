package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application page and API open with the fix-first list and show findings by saving, knock-ons under their
 * cause; the dashboard ranks by saving; history and Regression follow job keys, not names. Over HTTP, on
 * {@link DiagnosisFixture}'s database.
 */
class DiagnosisWebTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String path, int status) throws Exception {
        var r = DiagnosisFixture.get(path);
        assertEquals(status, r.status(), path + ": " + r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), path);
        return JSON.readTree(r.body());
    }

    static List<String> all(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void appPageOpensWithTheCauseAndNestsItsKnockOns() {
        var r = DiagnosisFixture.get("/apps/app-diag");
        assertEquals(200, r.status());
        String html = r.body();
        int fix = html.indexOf("id=\"fix-first\"");
        assertTrue(fix > 0 && fix < html.indexOf("<h2>Metrics</h2>"), "the page opens with the fix-first list");
        List<String> items = all(html, "<li class=\"fix-item\" data-finding=\"([^\"]+)\"");
        assertTrue(!items.isEmpty() && items.size() <= 3, items.toString());
        assertEquals("TaskFailure:0.0", items.get(0), "the failing tasks are the cause to fix first");
        List<String> blocks = all(html, "<div class=\"finding [^\"]*\" id=\"[^\"]+\" data-finding=\"([^\"]+)\"");
        assertEquals("TaskFailure:0.0", blocks.get(0), "findings open with the cause");
        // the stage failure, the job failure and the cancelled stage follow inside the cause's collapsed block
        int knockOns = html.indexOf("<details class=\"knock-ons\" data-count=\"3\">");
        assertTrue(knockOns > 0, html);
        for (String id : List.of("StageFailure:0.0", "JobFailure", "StageFailure:1.0")) {
            int at = html.indexOf("data-finding=\"" + id + "\"");
            assertTrue(at > knockOns, id + " sits under its cause");
            assertTrue(blocks.indexOf(id) >= 1 && blocks.indexOf(id) <= 3, id + " right after it: " + blocks);
        }
        assertFalse(html.contains("<details class=\"knock-ons\" data-count=\"3\" open"), "collapsed");
        // the saving, in human units, and the error group with its first occurrence
        assertTrue(html.contains("<p class=\"saving\" data-wall-ms=\""), "each estimated finding shows its saving");
        assertTrue(html.contains("<div class=\"error-group\" data-kind=\"TASK\" data-count=\"4\">"), html);
        assertTrue(html.contains("<pre class=\"first\">java.lang.OutOfMemoryError: Unable to acquire 67108864 bytes"));
        // stage ids link to the stage and to its timeline, and the failed tasks to the stage's failed task attempts;
        // the row carries the id
        assertTrue(html.contains("<a class=\"stage-link\" data-stage=\"0.0\" href=\"/apps/app-diag/stages/0/0\">"));
        assertTrue(html.contains("href=\"/apps/app-diag/stages/0/0/tasks?status=failed"), "its failed tasks");
        assertTrue(html.contains("href=\"/apps/app-diag/stages/0/0/timeline\">(timeline)"));
        assertTrue(html.contains("<tr class=\"stage-row\" id=\"stage-0.0\""));
        assertTrue(html.contains("<tr data-key=\"failedRatio\"><th>Share of attempts that failed</th>"));
        assertTrue(html.contains("id=\"history-link\" href=\"/history?job="), "its job's history");
    }

    @Test
    void apiAnswersTheSameDiagnosis() throws Exception {
        JsonNode app = json("/api/v1/apps/app-diag", 200);
        JsonNode fix = app.get("fixFirst");
        assertTrue(fix.size() >= 1 && fix.size() <= 3, fix.toString());
        assertEquals("TaskFailure:0.0", fix.get(0).get("findingId").asText());
        assertEquals(3, fix.get(0).get("knockOns").size());
        assertTrue(fix.get(0).get("sentence").asText().contains("could save about"));
        assertTrue(fix.get(0).get("impact").get("wallMs").asLong() > 0);
        JsonNode findings = app.get("findings");
        assertEquals("TaskFailure:0.0", findings.get(0).get("id").asText());
        assertTrue(findings.get(0).get("causedBy").isNull());
        assertEquals("TaskFailure:0.0", findings.get(1).get("causedBy").asText(), "the stage failure is its knock-on");
        assertTrue(findings.get(0).get("impact").get("basis").asText().length() > 0);
        assertTrue(findings.get(0).has("advice"));
        JsonNode advised = null;
        for (JsonNode f : findings) {
            if (f.get("advice").size() > 0) {
                advised = f.get("advice").get(0);
            }
        }
        assertTrue(advised != null && advised.has("currentValue") && advised.has("recommendedValue")
                && advised.has("currentSource"), findings.toString());
        assertEquals(app.get("jobKey").asText(), DiagnosisFixture.jobKey("sessions", "ann",
                "org.apache.spark.deploy.SparkSubmit --master yarn --class com.example.Sessions sessions.jar"));
        JsonNode list = json("/api/v1/apps/app-diag/findings", 200);
        assertEquals(findings.size(), list.size());
        for (int i = 0; i < list.size(); i++) {
            assertEquals(findings.get(i).get("id"), list.get(i).get("id"), "the findings route keeps the order");
        }
    }

    @Test
    void dashboardRanksBySavingNotByCount() {
        String html = DiagnosisFixture.get("/").body();
        int top = html.indexOf("id=\"top-findings\"");
        assertTrue(top > 0, html);
        List<String> rows = all(html.substring(top), "<tr data-heuristic=\"([^\"]+)\">");
        // the failing app's cause (1 application) and the costly skew (1 application) come before the serializer
        // finding three applications share
        assertTrue(rows.indexOf("StageSkew") < rows.indexOf("SerializerConfig"), rows.toString());
        assertTrue(rows.indexOf("TaskFailure") < rows.indexOf("SerializerConfig"), rows.toString());
        assertFalse(rows.contains("StageFailure") && rows.indexOf("StageFailure") < rows.indexOf("TaskFailure"),
                "knock-ons count with their cause: " + rows);
        assertTrue(html.contains("<span class=\"pill sev-high\">HIGH</span>"), "severity as a badge with its word");
    }

    @Test
    void searchRanksBySaving() throws Exception {
        String html = DiagnosisFixture.get("/apps?sort=saving&order=desc").body();
        List<String> ids = all(html, "<span class=\"app-id\">([^<]+)</span>");
        assertTrue(ids.indexOf("app-costly") >= 0 && ids.indexOf("app-costly") < ids.indexOf("app-cheap-0"), ids.toString());
        assertTrue(html.contains("<dt>Could save</dt><dd class=\"saving\" data-ms=\"600000\">10 min 00 s</dd>"),
                "the saving in human units on the panel");
        assertTrue(html.contains("class=\"sort-link on\""), "the sort is offered and marked");
        JsonNode apps = json("/api/v1/apps?sort=saving&order=desc&limit=500", 200).get("apps");
        long previous = Long.MAX_VALUE;
        for (JsonNode a : apps) {
            long saving = a.get("savingMs").asLong();
            assertTrue(saving <= previous, "largest saving first: " + apps);
            previous = saving;
        }
        assertEquals(0, previous, "applications without an estimate come last");
    }

    @Test
    void unrelatedRunsOfOneNameShareNoHistoryAndNoRegression() throws Exception {
        var ds = DiagnosisFixture.data();
        // alice's slow 5th run is a Regression of her job; bob's 10× slower "etl" is not one of hers
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM finding f JOIN application a USING (app_pk)"
                + " WHERE f.heuristic = 'Regression' AND a.app_id = 'app-etl-alice-4'"));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM finding f JOIN application a USING (app_pk)"
                + " WHERE f.heuristic = 'Regression' AND a.app_id LIKE 'app-etl-bob-%'"));
        // Spark shell sessions of four users: interactive, no job, no Regression although the last ran 30× longer
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM finding f JOIN application a USING (app_pk)"
                + " WHERE f.heuristic = 'Regression' AND a.name = 'Spark shell'"));
        assertEquals(4, TestDb.count(ds, "SELECT count(*) FROM application WHERE name = 'Spark shell'"
                + " AND job_key IS NULL"));

        // the name alone is two jobs: the page lists both to choose from, the API asks for job=
        String pick = DiagnosisFixture.get("/history?name=etl").body();
        assertTrue(pick.contains("id=\"several-jobs\""), pick);
        assertEquals(2, all(pick, "<tr class=\"job-row[^\"]*\" data-job=\"([^\"]+)\"").size());
        JsonNode ambiguous = json("/api/v1/history?name=etl", 400);
        assertEquals("name", ambiguous.get("parameter").asText());
        String alice = DiagnosisFixture.jobKey("etl", "alice", DiagnosisFixture.ALICE_ETL);
        JsonNode h = json("/api/v1/history?job=" + Urls.enc(alice), 200);
        assertEquals(alice, h.get("jobKey").asText());
        assertEquals(5, h.get("runs").size(), "alice's runs only");
        assertTrue(h.get("runs").get(0).has("inputBytes"));
        String page = DiagnosisFixture.get("/history?job=" + Urls.enc(alice)).body();
        assertTrue(page.contains("<th class=\"num\">Input</th>"), "the runs table has the input size");
        assertTrue(page.contains("Job: com.example.Etl on yarn, as alice"), page);
        JsonNode shell = json("/api/v1/history?name=" + Urls.enc("Spark shell"), 200);
        assertEquals(0, shell.get("runs").size());
        assertTrue(shell.get("note").asText().contains("interactive sessions"), shell.toString());
        assertTrue(DiagnosisFixture.get("/history?name=Spark%20shell").body().contains("interactive sessions"));
        String shellPage = DiagnosisFixture.get("/apps/app-shell-3").body();
        assertTrue(shellPage.contains("id=\"history-none\""), "an interactive session has no history link");
    }

    @Test
    void historyListsRecurringJobsWithRunsLastRunAndTrend() throws Exception {
        String html = DiagnosisFixture.get("/history").body();
        assertTrue(html.contains("id=\"recurring-jobs\""), html);
        String alice = DiagnosisFixture.jobKey("etl", "alice", DiagnosisFixture.ALICE_ETL);
        int row = html.indexOf("data-job=\"" + alice + "\"");
        assertTrue(row > 0, html);
        String aliceRow = html.substring(row, html.indexOf("</tr>", row));
        assertTrue(aliceRow.contains(">5<"), "run count: " + aliceRow);
        assertTrue(aliceRow.contains("slower than usual"), "the last run was 2.5× the usual: " + aliceRow);
        assertFalse(html.contains("data-job=\"null\""), "interactive sessions are no job");
        JsonNode jobs = json("/api/v1/jobs", 200);
        JsonNode a = null;
        for (JsonNode j : jobs) {
            assertFalse(j.get("name").asText().equals("Spark shell"), "shells are never a job");
            if (j.get("jobKey").asText().equals(alice)) {
                a = j;
            }
        }
        assertTrue(a != null, jobs.toString());
        assertEquals(5, a.get("runs").asInt());
        assertEquals("SLOWER", a.get("trend").asText());
        assertEquals(1_500_000.0 / 605_000, a.get("trendRatio").asDouble(), 1e-9);
        assertEquals("com.example.Etl", a.get("program").asText());
        assertEquals("yarn", a.get("master").asText());
    }
}
