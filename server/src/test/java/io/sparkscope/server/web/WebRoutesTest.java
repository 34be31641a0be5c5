package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every HTML route and its errors, over HTTP against the shared fixture. */
class WebRoutesTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static int panels(String html) {
        Matcher m = Pattern.compile("<article class=\"app-panel ").matcher(html);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    static long resultCount(String html) {
        Matcher m = Pattern.compile("id=\"result-count\">([0-9,]+) application").matcher(html);
        assertTrue(m.find(), "result count shown");
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    static void noStackTrace(String body) {
        assertFalse(body.contains("at io.sparkscope"), body);
        assertFalse(body.contains("Exception"), body);
    }

    @Test
    void dashboardShowsCountsAndLinks() {
        var r = get("/");
        assertEquals(200, r.status());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(r.body().contains("Costliest findings"), "ranked by saving, not by count");
        assertTrue(r.body().contains(">" + WebFixture.TOTAL_APPS + "<"), "application count");
        assertTrue(r.body().contains("href=\"/apps\""));
        assertTrue(r.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"));
    }

    @Test
    void searchListsNewestFirstFiftyPerPage() {
        var r = get("/apps");
        assertEquals(200, r.status());
        assertEquals(WebFixture.TOTAL_APPS, resultCount(r.body()));
        assertEquals(50, panels(r.body()));
        // newest first: the running app (started 1 h before NOW) comes before the red one (2 h)
        assertTrue(r.body().indexOf("app-running") < r.body().indexOf("app-bigmem"));
        var p2 = get("/apps?page=2");
        assertEquals(WebFixture.TOTAL_APPS - 50, panels(p2.body()));
        assertTrue(p2.body().contains("rel=\"prev\""));
    }

    @Test
    void filtersNarrowResults() {
        assertEquals(6, resultCount(get("/apps?name=ETL-dai").body()), "name substring, case-insensitive");
        assertEquals(1, resultCount(get("/apps?user=bob").body()));
        assertEquals(1, resultCount(get("/apps?appId=app-etl-3").body()));
        assertEquals(1, resultCount(get("/apps?status=running").body()));
        assertEquals(1, resultCount(get("/apps?status=incomplete").body()));
        assertEquals(WebFixture.TOTAL_APPS - 2, resultCount(get("/apps?status=complete").body()));
        String red = get("/apps?severity=high").body();
        assertTrue(red.contains("app-bigmem"));
        assertEquals(panels(red), red.split("<article class=\"app-panel sev-high\"", -1).length - 1, "only red panels");
        assertFalse(red.contains("value=\"app-etl-1\""), "a yellow/green run is filtered out");
        assertEquals(1, resultCount(get("/apps?heuristic=SerializerConfig").body()), "only bigmem uses Java serialization");
        assertTrue(get("/apps?heuristic=SerializerConfig").body().contains("app-bigmem"));
        long lastDay = resultCount(get("/apps?since=1d").body());
        assertEquals(4, lastDay, "bigmem, 2 xss, running");
        assertEquals(1, resultCount(get("/apps?since=1h").body()));
        long week = resultCount(get("/apps?startedFrom=" + (WebFixture.NOW - 7 * WebFixture.DAY)).body());
        assertTrue(week > lastDay && week < WebFixture.TOTAL_APPS);
        // ISO date range: the first etl run only
        String day0 = java.time.Instant.ofEpochMilli(WebFixture.NOW - 10 * WebFixture.DAY).toString().substring(0, 10);
        assertEquals(1, resultCount(get("/apps?name=etl&startedFrom=" + day0 + "&startedTo=" + day0).body()));
        assertEquals(2, resultCount(get("/apps?name=etl&endedFrom=" + (WebFixture.NOW - 6 * WebFixture.DAY)
                + "&endedTo=" + (WebFixture.NOW - 4 * WebFixture.DAY)).body()));
        // combined filters intersect
        assertEquals(0, resultCount(get("/apps?user=bob&severity=none").body()));
    }

    @Test
    void searchSortsByDuration() {
        String body = get("/apps?name=etl&sort=duration&order=desc").body();
        assertTrue(body.indexOf("app-etl-4") < body.indexOf("app-etl-0"), "30 min run first");
        String asc = get("/apps?name=etl&sort=duration&order=asc").body();
        assertTrue(asc.indexOf("app-etl-2") < asc.indexOf("app-etl-4"), "9 min run before the 30 min one");
    }

    @Test
    void panelsCarryBannersAndTrafficLight() {
        String body = get("/apps?appId=app-bigmem").body();
        assertTrue(body.contains("class=\"app-panel sev-high\""), body);
        assertTrue(body.contains("class=\"banner banner-high\" title=\""), "HIGH banner with the message on hover");
        assertTrue(body.contains("class=\"banner banner-low\""), "LOW banner (Java serializer)");
        assertTrue(body.contains("name=\"apps\" form=\"compare-form\" value=\"app-bigmem\""), "compare checkbox");
    }

    @Test
    void badFiltersAre400NamingTheParameter() {
        for (String[] c : new String[][]{
                {"/apps?startedFrom=yesterday", "startedFrom"}, {"/apps?status=bogus", "status"},
                {"/apps?severity=purple", "severity"}, {"/apps?appId=a%20b", "appId"}, {"/apps?page=0", "page"},
                {"/apps?since=2d", "since"}, {"/apps?sort=name", "sort"}, {"/apps?heuristic=a%3Cb", "heuristic"},
                {"/apps?startedFrom=2026-01-02&startedTo=2026-01-01", "startedTo"}}) {
            var r = get(c[0]);
            assertEquals(400, r.status(), c[0]);
            assertTrue(r.body().contains("&#39;" + c[1] + "&#39;"), c[0] + " names " + c[1] + ": " + r.body());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
            noStackTrace(r.body());
        }
    }

    @Test
    void applicationPage() {
        var r = get("/apps/app-bigmem");
        assertEquals(200, r.status());
        String b = r.body();
        assertTrue(b.contains("big-memory job"));
        assertTrue(b.contains("Key configuration") && b.contains("spark.executor.memory") && b.contains("40g"));
        assertTrue(b.contains("id=\"all-config\"") && b.contains("id=\"config-filter\""));
        assertTrue(b.contains("class=\"recommendation\""), "finding recommendation");
        assertTrue(b.contains("MemoryConfig"));
        assertTrue(b.contains("id=\"stage-table\"") && b.contains("class=\"quantiles\""));
        assertTrue(b.contains("href=\"/history?job=big-memory%20job%20%7C%20bob%20%7C%20%20%7C%20yarn\""),
                "the history of its job (name, user, program, cluster kind), not of every run with its name");
        assertTrue(b.contains("id=\"shs-link\" href=\"http://shs.example:18080/history/app-bigmem/jobs/\""));
        assertTrue(b.contains("action=\"/compare\""));
    }

    @Test
    void applicationAttemptsAndStageSort() {
        assertTrue(get("/apps/application_1795_0001/1").body().contains("application_1795_0001/1"));
        var newest = get("/apps/application_1795_0001");
        assertEquals(200, newest.status());
        assertTrue(newest.body().contains("application_1795_0001/2"), "attempt omitted: the newest attempt");
        String sorted = get("/apps/app-etl-4?stageSort=duration&stageOrder=desc").body();
        assertTrue(sorted.contains("Duration &#9660;"), "sorted column marked ▼ (as a character reference)");
        assertEquals(400, get("/apps/app-etl-4?stageSort=colour").status());
        assertEquals(400, get("/apps/app-etl-4?stageOrder=sideways").status());
    }

    @Test
    void unknownApplicationIs404Page() {
        var r = get("/apps/app-nope");
        assertEquals(404, r.status());
        assertTrue(r.body().contains("no application app-nope"));
        noStackTrace(r.body());
        assertEquals(404, get("/apps/app-bigmem/7").status());
        assertEquals(400, get("/apps/bad%20id").status());
        var unknown = get("/no/such/page");
        assertEquals(404, unknown.status());
        assertTrue(unknown.body().contains("no such page"));
    }

    @Test
    void compareHighlightsDifferences() {
        var r = get("/compare?apps=app-etl-3,app-etl-4,app-etl-5");
        assertEquals(200, r.status());
        String b = r.body();
        int row = b.indexOf("data-key=\"spark.sql.shuffle.partitions\"");
        assertTrue(row > 0);
        String configRow = b.substring(row, b.indexOf("</tr>", row));
        assertTrue(configRow.contains("diff") && configRow.contains("800"), configRow);
        int dur = b.indexOf("<th>Duration</th>");
        String durRow = b.substring(dur, b.indexOf("</tr>", dur));
        assertTrue(durRow.contains("class=\"num diff\""), "30 min vs 10 min is > 20 %: " + durRow);
        assertTrue(b.contains("job 1 &#183; stage 1") && b.contains("job 2 &#183; stage 2"), "stages matched by position");
        // repeated apps= (the search page's checkboxes) works the same
        assertEquals(200, get("/compare?apps=app-etl-3&apps=app-etl-4").status());
        assertEquals(200, get("/compare?apps=application_1795_0001/1,application_1795_0001/2").status());
    }

    @Test
    void compareTakesRepeatedAndCommaSeparatedAppsAlike() throws Exception {
        for (String q : new String[]{"apps=app-etl-3&apps=app-etl-4&apps=app-etl-5", "apps=app-etl-3,app-etl-4,app-etl-5",
                "apps=app-etl-3,app-etl-4&apps=app-etl-5", "apps=app-etl-3&apps=,app-etl-4,&apps=app-etl-5&apps="}) {
            var page = get("/compare?" + q);
            assertEquals(200, page.status(), q);
            assertTrue(page.body().contains("Compare 3 runs"), q);
            assertTrue(page.body().indexOf("app-etl-3") < page.body().indexOf("app-etl-4")
                    && page.body().indexOf("app-etl-4") < page.body().indexOf("app-etl-5"), "in the order given: " + q);
            JsonNode api = JSON.readTree(get("/api/v1/compare?" + q).body());
            assertEquals(3, api.get("apps").size(), q);
            assertEquals("app-etl-5", api.get("apps").get(2).get("appId").asText(), q);
        }
    }

    @Test
    void compareErrors() {
        assertTrue(get("/compare").body().contains("Compare runs"), "form without apps");
        var one = get("/compare?apps=app-etl-3");
        assertEquals(400, one.status());
        assertTrue(one.body().contains("&#39;apps&#39;"));
        var missing = get("/compare?apps=app-etl-3,app-missing");
        assertEquals(404, missing.status());
        assertTrue(missing.body().contains("app-missing"));
        assertEquals(400, get("/compare?apps=app-etl-3,bad%20id").status());
    }

    @Test
    void historyMarksSlowRun() throws Exception {
        var r = get("/history?name=etl-daily");
        assertEquals(200, r.status());
        String b = r.body();
        assertTrue(b.contains("id=\"history-chart\""));
        assertTrue(b.contains("/webjars/chart.js/4.5.1/dist/chart.umd.min.js"));
        String open = "<script type=\"application/json\" id=\"history-data\">";
        int start = b.indexOf(open) + open.length();
        JsonNode data = JSON.readTree(b.substring(start, b.indexOf("</script>", start)));
        assertEquals(6, data.get("runs").size());
        assertTrue(data.get("runs").get(4).get("slow").asBoolean());
        assertFalse(data.get("runs").get(5).get("slow").asBoolean());
        assertTrue(b.contains("<tr class=\"slow\">"));
        assertTrue(get("/history").body().contains("Application name"));
        assertTrue(get("/history?name=nothing-like-this").body().contains("No run"));
    }

    @Test
    void staticAssetsAndChartJsAreLocal() {
        assertEquals(200, get("/static/sparkscope.css").status());
        assertEquals(200, get("/static/history.js").status());
        var chart = get("/webjars/chart.js/4.5.1/dist/chart.umd.min.js");
        assertEquals(200, chart.status());
        assertTrue(chart.body().contains("Chart"));
    }

    @Test
    void healthz() {
        var r = get("/healthz");
        assertEquals(200, r.status());
        assertTrue(r.body().contains("ok"));
    }
}
