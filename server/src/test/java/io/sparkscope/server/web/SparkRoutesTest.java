package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.sparkscope.server.web.WebFixture.DAY;
import static io.sparkscope.server.web.WebFixture.HOUR;
import static io.sparkscope.server.web.WebFixture.NOW;
import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spark's {@code /api/v1/applications} routes over the web fixture's applications, for what a local-mode Spark
 * application cannot show (see {@code SparkRestApiTest} for the answers compared with Spark's History Server):
 * an application with two attempts, running ones, and the list's filters and limit.
 */
class SparkRoutesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String YARN = "application_1795_0001";

    private static JsonNode json(String path) throws Exception {
        WebFixture.Response r = get("/api/v1/" + path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static List<String> ids(JsonNode apps) {
        List<String> out = new ArrayList<>();
        apps.forEach(a -> out.add(a.path("id").asText()));
        return out;
    }

    @Test
    void anApplicationWithTwoAttemptsListsThemNewestFirst() throws Exception {
        JsonNode app = json("applications/" + YARN);
        assertEquals("yarn job", app.path("name").asText());
        JsonNode attempts = app.path("attempts");
        assertEquals(2, attempts.size());
        assertEquals("2", attempts.get(0).path("attemptId").asText());
        assertEquals("1", attempts.get(1).path("attemptId").asText());
        JsonNode first = json("applications/" + YARN + "/1");
        assertEquals(attempts.get(1), first);
        assertEquals("dave", first.path("sparkUser").asText());
        assertTrue(first.path("completed").asBoolean());
        assertEquals(200_000L, first.path("duration").asLong());
        assertEquals(first.path("startTimeEpoch").asLong() + 200_000L, first.path("endTimeEpoch").asLong());
        assertTrue(first.path("endTime").asText().endsWith("GMT"), first.toString());
        // Each attempt's own stages.
        assertTrue(json("applications/" + YARN + "/1/stages").size() > 0);
        assertEquals(404, get("/api/v1/applications/" + YARN + "/3/stages").status());
    }

    @Test
    void runningApplicationsAsSparkWritesThem() throws Exception {
        JsonNode running = json("applications?status=running");
        assertEquals(List.of("app-running", "app-incomplete"), ids(running), running.toString());
        JsonNode attempt = running.get(0).path("attempts").get(0);
        assertFalse(attempt.path("completed").asBoolean());
        assertEquals("1969-12-31T23:59:59.999GMT", attempt.path("endTime").asText());
        assertEquals(-1, attempt.path("endTimeEpoch").asLong());
        assertEquals(0, attempt.path("duration").asLong());
        // Spark keeps a running application only while maxEndDate is in the future (the clock is the server's).
        assertEquals(0, json("applications?status=running&maxEndDate=2020-01-01").size());
    }

    @Test
    void theListIsFilteredAndLimitedAsSparksIs() throws Exception {
        JsonNode all = json("applications");
        assertEquals(WebFixture.TOTAL_APPS - 1, all.size(), "one entry per application id");
        JsonNode completed = json("applications?status=completed");
        assertEquals(all.size() - 2, completed.size());
        long previous = Long.MAX_VALUE;
        for (JsonNode a : completed) {
            long end = a.path("attempts").get(0).path("endTimeEpoch").asLong();
            assertTrue(end <= previous, "the last ended first: " + ids(completed));
            previous = end;
        }
        assertEquals(ids(completed).subList(0, 3), ids(json("applications?status=completed&limit=3")));
        assertEquals(0, json("applications?limit=0").size());
        // Started in the last day: the big-memory job and the two XSS ones (the running one too).
        String dayAgo = java.time.Instant.ofEpochMilli(NOW - DAY).toString().substring(0, 10);
        JsonNode recent = json("applications?minDate=" + dayAgo);
        assertTrue(ids(recent).containsAll(List.of("app-bigmem", "app-xss-1", "app-xss-2", "app-running")),
                ids(recent).toString());
        assertFalse(ids(recent).contains("app-etl-0"));
        // Ended before the big-memory job did: not it.
        long bigEnd = json("applications/app-bigmem").path("attempts").get(0).path("endTimeEpoch").asLong();
        String before = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSz")
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli(bigEnd - 1));
        List<String> endedBefore = ids(json("applications?status=completed&maxEndDate=" + before));
        assertFalse(endedBefore.contains("app-bigmem"));
        assertTrue(endedBefore.contains("app-etl-0"));
        assertTrue(NOW - 2 * HOUR < bigEnd);
    }
}
