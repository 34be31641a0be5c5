package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
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

    /**
     * A stage's tasks and per-executor sums come from the kept tasks: every task of a stage within the recorder's
     * per-stage cap (sums given), only the kept ones past it (no sums: they would cover part of the tasks); killed
     * tasks counted by their reason, as Spark does.
     */
    @Test
    void stageDetailsComeFromTheKeptTasks() throws Exception {
        var ds = WebFixture.newDatabase();
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(20));
        r.onEvent(new SparkEvent.ApplicationStart("kept tasks", "app-kept", null, 1000, "tim"));
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "1", "host-a", 1));
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "2", "host-b", 2));
        r.onEvent(new SparkEvent.StageSubmitted(WebTimelineTest.stage(0, 4, "small")));
        r.onEvent(WebTimelineTest.end(0, 1, "1", 1000, 1100, 1090, 80));
        r.onEvent(WebTimelineTest.end(0, 2, "1", 1090, 1200, 0, 100));
        r.onEvent(WebTimelineTest.end(0, 3, "2", 1000, 1150, 0, 140));
        r.onEvent(WebTimelineTest.end(0, 4, "2", 1000, 1150, 0, 140));
        r.onEvent(new SparkEvent.StageSubmitted(WebTimelineTest.stage(1, 50, "big")));
        for (int i = 0; i < 50; i++) {
            r.onEvent(WebTimelineTest.end(1, 100 + i, i % 2 == 0 ? "1" : "2", 2000 + i * 10, 2100 + i * 13, 0, 60));
        }
        r.onEvent(new SparkEvent.ApplicationEnd(5000));
        WebFixture.write(ds, r.snapshot());
        WebFixture.write(ds, WebTimelineTest.failingApp());
        try (OwnServer own = OwnServer.over(ds)) {
            JsonNode small = JSON.readTree(WebFixture.getAt(own.base(),
                    "/api/v1/applications/app-kept/stages/0/0").body());
            assertEquals(4, small.path("tasks").size());
            assertEquals(210, small.at("/executorSummary/1/taskTime").asLong(), "100 + 110 ms");
            assertEquals(2, small.at("/executorSummary/1/succeededTasks").asInt());
            assertEquals(300, small.at("/executorSummary/2/taskTime").asLong());
            assertEquals("small", small.path("name").asText());

            JsonNode big = JSON.readTree(WebFixture.getAt(own.base(),
                    "/api/v1/applications/app-kept/stages/1/0?withSummaries=true").body());
            assertEquals(50, big.path("numCompleteTasks").asInt());
            assertEquals(20, big.path("tasks").size(), "the kept tasks only");
            assertTrue(big.path("executorSummary").isMissingNode(), big.path("executorSummary").toString());
            assertEquals(5, big.at("/taskMetricsDistributions/quantiles").size());

            JsonNode failing = JSON.readTree(WebFixture.getAt(own.base(),
                    "/api/v1/applications/app-timeline-failed/stages/0/0").body());
            assertEquals("{\"another attempt succeeded\":1}", failing.path("killedTasksSummary").toString());
            JsonNode e = failing.at("/executorSummary/1");
            assertEquals(List.of(1, 1, 2), List.of(e.path("failedTasks").asInt(), e.path("killedTasks").asInt(),
                    e.path("succeededTasks").asInt()), e.toString());
            JsonNode failed = JSON.readTree(WebFixture.getAt(own.base(),
                    "/api/v1/applications/app-timeline-failed/stages/0/0?taskStatus=failed").body());
            assertEquals(1, failed.path("tasks").size());
            assertEquals("FAILED", failed.path("tasks").path("10").path("status").asText());
        }
    }
}
