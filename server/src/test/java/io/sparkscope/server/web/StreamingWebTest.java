package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.server.web.http.Urls;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sparkscope.server.web.StreamingFixture.DONE_APP;
import static io.sparkscope.server.web.StreamingFixture.LIVE_APP;
import static io.sparkscope.server.web.StreamingFixture.LIVE_QUERY;
import static io.sparkscope.server.web.StreamingFixture.QUERY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streaming queries over HTTP: the app page's list, the query page, the JSON API, live pages, escaping, errors. */
class StreamingWebTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAppPageListsItsQueriesWithALinkToEach() {
        WebFixture.Response r = StreamingFixture.get("/apps/" + DONE_APP);
        assertEquals(200, r.status());
        assertTrue(r.body().contains("Structured Streaming queries (1)"), "one query, two runs");
        assertTrue(r.body().contains("href=\"" + Urls.query(DONE_APP, null, QUERY) + "\""), "link to the query page");
        assertTrue(r.body().contains("<td class=\"num\">2</td><td class=\"num\">45</td>"), "2 runs, 45 batches");
        assertFalse(r.body().contains("id=\"live-status\""), "a finished application's page does not poll");
    }

    @Test
    void theQueryPageShowsTheNumbersAndEscapesEveryText() {
        WebFixture.Response r = StreamingFixture.get(Urls.query(DONE_APP, null, QUERY));
        assertEquals(200, r.status());
        String b = r.body();
        assertFalse(b.contains(WebFixture.XSS1), "query name, error text");
        assertFalse(b.contains(WebFixture.XSS2), "source description");
        assertTrue(b.contains("clicks &lt;script&gt;alert(1)&lt;/script&gt;"), "the name, escaped");
        assertTrue(b.contains("id=\"card-batches\" data-value=\"45.0\""), b.substring(0, Math.min(b.length(), 400)));
        assertTrue(b.contains("id=\"card-input-rows\" data-value=\"4500.0\""));
        assertTrue(b.contains("id=\"card-state-rows\" data-value=\"900.0\""), "state after batch 44: 20 × 45 rows");
        assertTrue(b.contains("<canvas id=\"rate-chart\""));
        assertTrue(b.contains("<canvas id=\"duration-chart\""));
        assertTrue(b.contains("<canvas id=\"state-chart\""));
        assertTrue(b.contains("<script type=\"application/json\" id=\"query-data\" data-live-region>"));
        assertTrue(b.contains("data-run-id=\"run-1\"") && b.contains("data-run-id=\"run-2\""));
        assertTrue(b.contains("<span class=\"status status-failed\">failed</span>"), "the second run failed");
        assertTrue(b.contains("data-heuristic=\"StreamingShufflePartitions\""), "its finding is shown with it");
        assertTrue(b.contains("spark.sql.shuffle.partitions=4 (now 200)"), "with the value to use");
        assertTrue(b.contains("clicks: 1 partition") || b.contains("{&quot;clicks&quot;:{&quot;0&quot;:4500}}"),
                "the end offset");
        assertFalse(b.contains("id=\"live-status\""));
    }

    @Test
    void theApiListsQueriesAndGivesOneWithItsBatches() throws Exception {
        JsonNode list = JSON.readTree(StreamingFixture.get("/api/v1/apps/" + DONE_APP + "/queries").body());
        assertEquals(1, list.get("queries").size());
        JsonNode q = list.get("queries").get(0);
        assertEquals(QUERY, q.get("queryId").asText());
        assertEquals(StreamingFixture.XSS_NAME, q.get("name").asText(), "JSON carries the text as it is");
        assertEquals("FAILED", q.get("status").asText());
        assertEquals(2, q.get("runs").size());
        assertEquals(30, q.get("runs").get(0).get("totals").get("batches").asLong());
        assertEquals(-1, q.get("runs").get(0).get("triggerIntervalMs").asLong());

        JsonNode one = JSON.readTree(StreamingFixture.get("/api/v1/apps/" + DONE_APP + "/queries/" + QUERY
                + "?batches=10").body());
        assertEquals(20, one.get("batches").size(), "the newest 10 of each run");
        JsonNode last = one.get("batches").get(19);
        assertEquals(44, last.get("batchId").asLong());
        assertEquals("run-2", last.get("runId").asText());
        assertEquals(1500 + 40 * 14, last.get("durationMs").asLong());
        assertEquals(last.get("durationMs").asLong(), last.get("durationParts").get("triggerExecution").asLong());
        assertEquals(900, last.get("stateRows").asLong());
        assertFalse(one.get("live").asBoolean());
        assertTrue(one.get("findings").size() >= 1);
        JsonNode none = JSON.readTree(StreamingFixture.get("/api/v1/apps/" + DONE_APP + "/queries/" + QUERY)
                .body());
        assertEquals(45, none.get("batches").size(), "all kept batches by default");
    }

    @Test
    void aRunningApplicationsPagesPollAndTheSearchListsWhatIsRunningNow() {
        String app = StreamingFixture.get("/apps/" + LIVE_APP + "?refresh=3").body();
        assertTrue(app.contains("id=\"live-status\""), "the running app's page keeps itself current");
        assertTrue(app.contains("data-refresh-ms=\"3000\""));
        assertTrue(app.contains("data-live-url=\"/api/v1/apps/" + LIVE_APP + "\""));
        assertTrue(app.contains("<script src=\"/static/live.js\" defer></script>"));
        String query = StreamingFixture.get(Urls.query(LIVE_APP, null, LIVE_QUERY)).body();
        assertTrue(query.contains("id=\"live-status\""));
        assertTrue(query.contains("ProcessingTime every 1.0 s"), "the trigger the listener looked up");
        String running = StreamingFixture.get("/apps?status=running").body();
        assertTrue(running.contains(LIVE_APP) && !running.contains(DONE_APP));
        assertTrue(running.contains("id=\"live-status\""), "the list of running applications keeps itself current");
        assertTrue(StreamingFixture.get("/apps").body().contains("id=\"running-now\""), "the quick link");
        assertTrue(StreamingFixture.get("/").body().contains("href=\"/apps?status=running\""), "in the navigation");
    }

    @Test
    void unknownQueriesAndBadParametersAreClearErrors() {
        WebFixture.Response missing = StreamingFixture.get(Urls.query(DONE_APP, null, "0000-not-there"));
        assertEquals(404, missing.status());
        assertTrue(missing.body().contains("no streaming query 0000-not-there in application " + DONE_APP));
        assertEquals(400, StreamingFixture.get("/apps/" + DONE_APP + "/queries/bad%20id").status());
        WebFixture.Response batches = StreamingFixture.get("/api/v1/apps/" + DONE_APP + "/queries/" + QUERY
                + "?batches=0");
        assertEquals(400, batches.status());
        assertTrue(batches.body().contains("\"parameter\":\"batches\""), batches.body());
        for (String tab : List.of("jobs", "executors", "sql")) {
            String page = StreamingFixture.get("/apps/" + LIVE_APP + "/" + tab + "?refresh=2").body();
            assertTrue(page.contains("id=\"live-status\""), "the running app's " + tab + " tab keeps itself current");
            assertTrue(page.contains("data-refresh-ms=\"2000\""), tab);
            assertTrue(page.contains("id=\"tab-content\" data-live-region"), tab);
            assertFalse(StreamingFixture.get("/apps/" + DONE_APP + "/" + tab).body().contains("id=\"live-status\""),
                    "a finished application's " + tab + " tab does not poll");
        }
        assertEquals(400, StreamingFixture.get("/apps/" + LIVE_APP + "/jobs?refresh=0").status());
        assertEquals(400, StreamingFixture.get("/apps/" + LIVE_APP + "?refresh=0").status());
        assertEquals(404, StreamingFixture.get("/api/v1/apps/no-such-app/queries").status());
    }
}
