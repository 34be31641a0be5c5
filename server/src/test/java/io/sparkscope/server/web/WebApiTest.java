package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JSON API under /api/v1: shapes, filters, paging, 404 and 400 errors. */
class WebApiTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String path, int expectedStatus) throws Exception {
        var r = get(path);
        assertEquals(expectedStatus, r.status(), path + ": " + r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), path);
        return JSON.readTree(r.body());
    }

    @Test
    void appsWithFiltersAndPaging() throws Exception {
        JsonNode all = json("/api/v1/apps", 200);
        assertEquals(WebFixture.TOTAL_APPS, all.get("total").asInt());
        assertEquals(50, all.get("apps").size());
        assertEquals("app-running", all.get("apps").get(0).get("appId").asText(), "newest first");
        JsonNode page = json("/api/v1/apps?limit=5&offset=5", 200);
        assertEquals(5, page.get("apps").size());
        assertEquals(all.get("apps").get(5).get("appId"), page.get("apps").get(0).get("appId"));
        JsonNode bob = json("/api/v1/apps?user=bob", 200);
        assertEquals(1, bob.get("total").asInt());
        JsonNode app = bob.get("apps").get(0);
        assertEquals("HIGH", app.get("worstSeverity").asText());
        assertTrue(app.get("findings").size() >= 2);
        assertEquals(6, json("/api/v1/apps?name=etl", 200).get("total").asInt());
        assertEquals(1, json("/api/v1/apps?status=incomplete", 200).get("total").asInt());
    }

    @Test
    void badParametersAre400NamingThem() throws Exception {
        for (String[] c : new String[][]{{"/api/v1/apps?limit=0", "limit"}, {"/api/v1/apps?limit=x", "limit"},
                {"/api/v1/apps?endedTo=never", "endedTo"}, {"/api/v1/apps?status=done", "status"},
                {"/api/v1/apps?offset=-1", "offset"}, {"/api/v1/compare?apps=app-etl-1", "apps"},
                {"/api/v1/history", "name"}, {"/api/v1/apps/app-etl-1/stages?quantiles=0.33", "quantiles"},
                {"/api/v1/apps/app-etl-1/stages?quantiles=2", "quantiles"}}) {
            JsonNode e = json(c[0], 400);
            assertEquals(c[1], e.get("parameter").asText(), c[0]);
            assertTrue(e.get("error").asText().contains(c[1]));
            assertEquals(400, e.get("status").asInt());
        }
    }

    @Test
    void unknownIdsAre404Json() throws Exception {
        assertTrue(json("/api/v1/apps/app-nope", 404).get("error").asText().contains("app-nope"));
        json("/api/v1/apps/app-nope/stages", 404);
        json("/api/v1/apps/app-nope/findings", 404);
        json("/api/v1/apps/app-etl-1/9", 404);
        json("/api/v1/apps/app-etl-1/9/stages", 404);
        json("/api/v1/compare?apps=app-etl-1,app-nope", 404);
        json("/api/v1/nothing", 404);
    }

    @Test
    void appDetailFindingsAndAttempts() throws Exception {
        JsonNode a = json("/api/v1/apps/app-bigmem", 200);
        assertEquals("big-memory job", a.get("name").asText());
        assertEquals("40g", a.get("config").get("spark").get("spark.executor.memory").asText());
        assertEquals("COMPLETE", a.get("status").asText());
        JsonNode f = json("/api/v1/apps/app-bigmem/findings", 200);
        assertTrue(f.isArray() && f.size() >= 2);
        assertTrue(f.get(0).has("recommendation") && f.get(0).get("details").isObject());
        assertEquals("1", json("/api/v1/apps/application_1795_0001/1", 200).get("attemptId").asText());
        assertEquals("2", json("/api/v1/apps/application_1795_0001", 200).get("attemptId").asText());
        assertTrue(json("/api/v1/apps/application_1795_0001/1/findings", 200).isArray());
        JsonNode running = json("/api/v1/apps/app-running", 200);
        assertEquals("RUNNING", running.get("status").asText());
        assertEquals(-1, running.get("endTime").asLong());
    }

    @Test
    void stagesCarrySparkTaskSummary() throws Exception {
        JsonNode stages = json("/api/v1/apps/app-etl-1/stages", 200);
        assertEquals(4, stages.size());
        JsonNode s = stages.get(1);
        JsonNode ts = s.get("taskSummary");
        assertEquals(5, ts.get("quantiles").size(), "Spark's default quantiles");
        assertEquals(0.05, ts.get("quantiles").get(0).asDouble());
        for (String k : new String[]{"duration", "executorRunTime", "jvmGcTime", "schedulerDelay", "gettingResultTime"}) {
            assertEquals(5, ts.get(k).size(), k);
        }
        assertEquals(400_000, ts.get("shuffleReadMetrics").get("readBytes").get(2).asLong());
        assertTrue(ts.get("inputMetrics").has("bytesRead"));
        assertTrue(ts.get("shuffleWriteMetrics").has("writeBytes"));
        assertTrue(s.get("totals").has("executorRunTime"));
        JsonNode median = json("/api/v1/apps/app-etl-1/stages?quantiles=0.5", 200).get(1).get("taskSummary");
        assertEquals(1, median.get("quantiles").size());
        assertEquals(ts.get("executorRunTime").get(2), median.get("executorRunTime").get(0));
        // the failed stage of the XSS app: failure reason kept as data
        JsonNode failed = json("/api/v1/apps/app-xss-1/stages", 200).get(3);
        assertEquals("FAILED", failed.get("status").asText());
        assertEquals(WebFixture.XSS2, failed.get("failureReason").asText());
    }

    @Test
    void compareAndHistory() throws Exception {
        JsonNode c = json("/api/v1/compare?apps=app-etl-3,app-etl-5", 200);
        assertEquals(2, c.get("apps").size());
        boolean found = false;
        for (JsonNode row : c.get("config")) {
            if (row.get("key").asText().equals("spark.sql.shuffle.partitions")) {
                assertTrue(row.get("differs").asBoolean());
                assertEquals("800", row.get("values").get(1).asText());
                found = true;
            }
        }
        assertTrue(found);
        assertEquals(4, c.get("stages").size());
        JsonNode h = json("/api/v1/history?name=etl-daily", 200);
        assertEquals(6, h.get("runs").size());
        assertTrue(h.get("runs").get(4).get("slow").asBoolean());
        assertFalse(h.get("runs").get(3).get("slow").asBoolean());
        assertEquals("/apps/app-etl-0", h.get("runs").get(0).get("url").asText());
        assertEquals(0, json("/api/v1/history?name=none-such", 200).get("runs").size());
        assertNull(h.get("runs").get(0).get("worstSeverity").textValue() == null ? null : null);
    }
}
