package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The task timeline routes over HTTP, on a database of their own: an application recorded by the real recorder
 * with a 1-core executor whose tasks overlap on the driver's clock (a task's launch is stamped before the previous
 * one's finish), a 2-core one that is fine, and a stage past the per-stage cap.
 */
class WebTimelineTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String EVIL = "<script>alert(1)</script>";
    static OwnServer server;
    static String base;

    @BeforeAll
    static void start() {
        var ds = WebFixture.newDatabase();
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(20));
        r.onEvent(new SparkEvent.ApplicationStart("timeline app", "app-timeline", null, 1000, "tim"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "spark://m:7077"), Map.of(), Map.of(),
                Map.of()));
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "1", "host-a", 1));
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "2", "host-b", 2));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 4, EVIL)));
        // executor 1 (1 core): task 2 offered at 1090, before task 1 was marked finished at 1100
        r.onEvent(end(0, 1, "1", 1000, 1100, 1090, 80));
        r.onEvent(end(0, 2, "1", 1090, 1200, 0, 100));
        // executor 2 (2 cores): two at once, as it may
        r.onEvent(end(0, 3, "2", 1000, 1150, 0, 140));
        r.onEvent(end(0, 4, "2", 1000, 1150, 0, 140));
        r.onEvent(new SparkEvent.StageSubmitted(stage(1, 50, "big")));
        for (int i = 0; i < 50; i++) {
            r.onEvent(end(1, 100 + i, i % 2 == 0 ? "1" : "2", 2000 + i * 10, 2100 + i * 13, 0, 60));
        }
        r.onEvent(new SparkEvent.ApplicationEnd(5000));
        WebFixture.write(ds, r.snapshot());
        WebFixture.write(ds, failingApp());
        server = OwnServer.over(ds);
        base = server.base();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** One stage whose task 1 fails once (out of memory) and succeeds on its retry, beside a killed speculative copy. */
    static io.sparkscope.core.model.AppSnapshot failingApp() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS);
        r.onEvent(new SparkEvent.ApplicationStart("failing app", "app-timeline-failed", null, 1000, "tim"));
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "1", "host-a", 2));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 2, "retried")));
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 150).build();
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", new TaskEndReason("ExceptionFailure",
                "java.lang.OutOfMemoryError: Java heap space", null), new TaskInfo(10, 1, 0, 1, 1000, "1", "host-a",
                "PROCESS_LOCAL", false, 0, 1200, true, false), m));
        r.onEvent(end(0, 11, "1", 1200, 1500, 0, 250));
        r.onEvent(end(0, 12, "1", 1000, 1400, 0, 350));
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", new TaskEndReason("TaskKilled",
                "another attempt succeeded", null), new TaskInfo(13, 1, 1, 1, 1300, "1", "host-a",
                "PROCESS_LOCAL", true, 0, 1450, false, true), null));
        r.onEvent(new SparkEvent.ApplicationEnd(3000));
        return r.snapshot();
    }

    static StageInfo stage(int id, int tasks, String name) {
        return new StageInfo(id, 0, name, tasks, List.of(), "details", 1000, -1, null, List.of());
    }

    static SparkEvent.TaskEnd end(int stage, long id, String executor, long launch, long finish, long gettingResult,
                                  long run) {
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, run)
                .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 5).set(TaskMetric.RESULT_SERIALIZATION_TIME, 1).build();
        return new SparkEvent.TaskEnd(stage, 0, "ResultTask", TaskEndReason.SUCCESS, new TaskInfo(id, (int) id, 0,
                (int) id, launch, executor, "host", "PROCESS_LOCAL", false, gettingResult, finish, false, false), m);
    }

    static WebFixture.Response get(String path) {
        return WebFixture.getAt(base, path);
    }

    static int count(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void pageDrawsOneLanePerSlotSaysWhyTasksOverlapAndEscapes() {
        var r = get("/apps/app-timeline/stages/0/0/timeline");
        assertEquals(200, r.status(), r.body());
        String html = r.body();
        assertTrue(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"timeline\""));
        // executor 1: its one core, although its two tasks overlap on the driver's clock; executor 2: two cores
        assertTrue(html.contains("data-lanes=\"3\""), "lanes are the task slots, none invented");
        assertEquals(3, count(html, "<rect class=\"lane "), "three lane rectangles");
        assertTrue(html.contains("data-bars=\"4\""), "bars");
        assertFalse(html.contains("beyond cores"), "no lane beyond the cores");
        assertEquals(1, count(html, "<path class=\"crowded\" d=\"M[^\"]*z\"/>"), "task 2 outlined, drawn over");
        assertEquals(1, count(html, "<path class=\"crowded\" d=\"[^M\"]*M[^M\"]*\"/>"), "one bar in that path");
        assertTrue(html.contains("id=\"timeline-artifact\""), "the one-sentence explanation");
        assertTrue(html.contains("Lanes are the executors&#39; task slots, none added: 1 task was launched while"),
                html);
        assertTrue(html.contains("driver offers it"));
        assertTrue(html.contains("counting executor-side time only, no executor ran more tasks than its cores"),
                "task 1's executor side ended before task 2's began");
        assertFalse(html.contains("id=\"timeline-sampled\""), "all 4 tasks shown");
        for (String phase : List.of("scheduler-delay", "deserialization", "run", "result-serialization",
                "getting-result")) {
            assertTrue(html.contains("<li data-phase=\"" + phase + "\">"), "legend " + phase);
        }
        assertTrue(html.contains("<path class=\"ph-run\""), "run phase drawn");
        assertTrue(html.contains("<path class=\"ph-getting-result\""), "task 1 fetched its result");
        assertEquals(4, count(html, "<rect class=\"hit\" data-task="), "hover text per bar");
        assertTrue(html.contains("task 1 (index 1, attempt 0) &#183; executor 1 &#183; SUCCESS"), "pages write non-ASCII as character references");
        assertFalse(html.contains(EVIL), "the stage name is escaped");
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        // the executor table says the executor side never overlapped on executor 1
        assertTrue(html.contains("<tr class=\"overflow\" data-executor=\"1\">"));
        assertTrue(Pattern.compile("<tr class=\"overflow\" data-executor=\"1\">.*?<td class=\"num\">1</td></tr>",
                Pattern.DOTALL).matcher(html).find(), "one task drawn over the busy slot");
    }

    @Test
    void failedAttemptsAreDrawnAsFailed() throws Exception {
        String html = get("/apps/app-timeline-failed/stages/0/0/timeline").body();
        assertTrue(html.contains("data-failed=\"1\""), html);
        assertEquals(1, count(html, "<path class=\"failed\" data-outcome=\"failed\""), "one overlay path");
        assertEquals(1, count(html, "<path class=\"killed\" data-outcome=\"killed\""));
        assertTrue(html.contains("<pattern id=\"failed-hatch\""), "hatched, not by colour alone");
        assertTrue(html.contains("id=\"timeline-failed\""));
        assertTrue(html.contains("This stage shows 1 failed task attempt (hatched red"), html);
        assertTrue(html.contains("1 killed attempt (outlined dashed"), html);
        assertTrue(html.contains("FAILED (ExceptionFailure): attempt failed, its work lost"), "hover text");
        assertTrue(html.contains("<li data-outcome=\"failed\">"), "legend");
        JsonNode j = JSON.readTree(get("/api/v1/apps/app-timeline-failed/stages/0/0/timeline").body());
        assertEquals(1, j.get("failedTasks").asInt());
        assertEquals(1, j.get("killedTasks").asInt());
        int failed = 0;
        for (JsonNode b : j.get("bars")) {
            if (b.get("failed").asBoolean()) {
                failed++;
                assertEquals(10, b.get("taskId").asLong());
                assertEquals("ExceptionFailure", b.get("endReason").asText());
            }
        }
        assertEquals(1, failed);
        String clean = get("/apps/app-timeline/stages/0/0/timeline").body();
        assertFalse(clean.contains("id=\"timeline-failed\""), "no notice without failures");
        assertFalse(clean.contains("data-outcome=\"failed\" d="), "no overlay without failures");
    }

    @Test
    void aStagePastTheCapSaysItIsSampled() {
        String html = get("/apps/app-timeline/stages/1/0/timeline").body();
        assertTrue(html.contains("id=\"timeline-sampled\""));
        assertTrue(html.contains("Showing 20 of 50 tasks: the slowest and a uniform sample"), html);
        assertTrue(html.contains("data-bars=\"20\""));
    }

    @Test
    void jsonHasTheSameLanesBarsPhasesAndFlags() throws Exception {
        var r = get("/api/v1/apps/app-timeline/stages/0/0/timeline");
        assertEquals(200, r.status(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode j = JSON.readTree(r.body());
        assertEquals(3, j.get("lanes").size(), "executor 1's one slot and executor 2's two");
        assertEquals(4, j.get("bars").size());
        assertTrue(j.get("overflow").asBoolean());
        assertFalse(j.get("sampled").asBoolean());
        assertEquals("ALL", j.get("taskDetail").asText());
        JsonNode e1 = j.get("executors").get(0);
        assertEquals("1", e1.get("executorId").asText());
        assertEquals(1, e1.get("slots").asInt());
        assertEquals(2, e1.get("maxConcurrent").asInt());
        assertEquals(1, e1.get("executorSideMaxConcurrent").asInt(), "task 1's executor side ended at 1090");
        assertEquals(1, e1.get("lanes").asInt());
        assertEquals(1, e1.get("crowded").asInt(), "task 2 drawn over the busy slot");
        JsonNode task1 = null;
        for (JsonNode b : j.get("bars")) {
            if (b.get("taskId").asLong() == 1) {
                task1 = b;
            }
        }
        assertEquals(10, task1.at("/phases/gettingResultTime/ms").asLong());
        assertEquals(1090, task1.at("/phases/gettingResultTime/start").asLong());
        assertEquals(4, task1.at("/phases/schedulerDelay/ms").asLong(), "100 - 80 - 5 - 1 - 10");
        assertEquals(1000, task1.at("/phases/schedulerDelay/start").asLong());
        JsonNode sampled = JSON.readTree(get("/api/v1/apps/app-timeline/stages/1/0/timeline").body());
        assertTrue(sampled.get("sampled").asBoolean());
        assertEquals(50, sampled.get("endedTasks").asInt());
        assertEquals(20, sampled.get("shownTasks").asInt());
        assertEquals("SAMPLED", sampled.get("taskDetail").asText());
    }

    @Test
    void unknownStageOrAppIs404AndBadIdsAre400() throws Exception {
        var noStage = get("/apps/app-timeline/stages/9/0/timeline");
        assertEquals(404, noStage.status());
        assertTrue(noStage.body().contains("no stage 9.0"), noStage.body());
        assertEquals(404, get("/apps/app-timeline/stages/0/3/timeline").status(), "no such stage attempt");
        assertEquals(404, get("/apps/no-such-app/stages/0/0/timeline").status());
        assertEquals(404, get("/apps/app-timeline/7/stages/0/0/timeline").status(), "no such app attempt");
        var api = get("/api/v1/apps/app-timeline/stages/9/0/timeline");
        assertEquals(404, api.status());
        assertEquals(404, JSON.readTree(api.body()).get("status").asInt());

        var bad = get("/apps/app-timeline/stages/x1/0/timeline");
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("bad parameter &#39;stageId&#39;"), bad.body());
        WebRoutesTest.noStackTrace(bad.body());
        var badApi = get("/api/v1/apps/app-timeline/stages/0/-1/timeline");
        assertEquals(400, badApi.status());
        assertEquals("stageAttemptId", JSON.readTree(badApi.body()).get("parameter").asText());
        assertEquals(400, get("/api/v1/apps/app-timeline/stages/99999999999/0/timeline").status(), "too large");
        assertEquals(400, get("/apps/bad%20id/stages/0/0/timeline").status());
    }

    @Test
    void appPageLinksEveryStageToItsTimelineAndShowsTheBreakdown() {
        String html = get("/apps/app-timeline").body();
        assertTrue(html.contains("href=\"/apps/app-timeline/stages/0/0/timeline\""));
        assertTrue(html.contains("href=\"/apps/app-timeline/stages/1/0/timeline\""));
        assertTrue(html.contains("id=\"breakdown-legend\""));
        assertEquals(2, count(html, "<svg class=\"breakdown\""), "one stacked bar per stage");
        assertTrue(html.contains("class=\"pt-scheduler-delay\""), "scheduler delay is part of it");
        assertTrue(html.contains("Getting result: 10 ms"), "sums of the derived times, from the stage row");
    }
}
