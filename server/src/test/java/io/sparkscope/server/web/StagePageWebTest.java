package io.sparkscope.server.web;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.server.web.text.Fmt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stage page and the application timeline over real PostgreSQL: an application recorded by the real recorder
 * with a 40-task stage on two executors (one failed attempt, the slowest), a stage reading it that failed once and
 * succeeded on its second attempt, and an executor removed for a reason that is markup; a stage past the per-stage
 * task cap; and a {@code local[2]} application whose tasks overlap on the driver's clock.
 */
class StagePageWebTest {
    static final String APP = "app-stage";
    static final String CAPPED = "app-stage-capped";
    static final String LOCAL = "app-local-two";
    static final String EVIL = "<script>alert(1)</script>";
    static final String ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;";
    static final int TASKS = 40;

    static DataSource ds;
    static OwnServer server;

    @BeforeAll
    static void start() {
        ds = WebFixture.newDatabase();
        WebFixture.write(ds, twoStages());
        WebFixture.write(ds, capped());
        WebFixture.write(ds, localTwo());
        try {
            ManyExecutorsLoad.write(ds, 3_000);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        server = OwnServer.over(ds);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static WebFixture.Response get(String path) {
        return WebFixture.getAt(server.base(), path);
    }

    static AppSnapshot twoStages() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS);
        long t0 = WebFixture.NOW - WebFixture.HOUR;
        r.onEvent(new SparkEvent.ApplicationStart("stage page " + EVIL, APP, null, t0, "sam"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "spark://m:7077"), Map.of(), Map.of(),
                Map.of()));
        r.onEvent(new SparkEvent.BlockManagerAdded(t0 + 1, "driver", "driver-host", 1L << 30));
        r.onEvent(new SparkEvent.ExecutorAdded(t0 + 10, "1", "host-a", 2));
        r.onEvent(new SparkEvent.ExecutorAdded(t0 + 10, "2", "host-b", 2));
        StageInfo s0 = new StageInfo(0, 0, "map at Report.scala:12", TASKS, List.of(), "details", t0 + 100, -1, null,
                List.of());
        StageInfo s1 = new StageInfo(1, 0, "collect at Report.scala:30", 4, List.of(0), "details", -1, -1, null,
                List.of());
        r.onEvent(new SparkEvent.JobStart(0, t0 + 100, List.of(0, 1), List.of(s0, s1),
                Map.of("spark.job.description", "report " + EVIL)));
        r.onEvent(new SparkEvent.StageSubmitted(s0));
        for (int i = 0; i < TASKS; i++) {
            String ex = i % 2 == 0 ? "1" : "2";
            long launch = t0 + 200 + i * 10L;
            long run = 100 + i * 7L;
            boolean fails = i == 5;
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, run)
                    .set(TaskMetric.JVM_GC_TIME, i % 5).set(TaskMetric.INPUT_BYTES, 500L * i)
                    .set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 1000L * i).build();
            TaskEndReason reason = fails ? new TaskEndReason("ExceptionFailure", "java.lang.IllegalStateException: "
                    + EVIL, null) : TaskEndReason.SUCCESS;
            r.onEvent(new SparkEvent.TaskEnd(0, 0, "ShuffleMapTask", reason,
                    info(i, i, 0, launch, ex, fails ? launch + 1500 : launch + run + 10, fails), m));
            if (fails) {
                r.onEvent(new SparkEvent.TaskEnd(0, 0, "ShuffleMapTask", TaskEndReason.SUCCESS,
                        info(1000 + i, i, 1, launch + 600, ex, launch + 700, false), m));
            }
        }
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(0, 0, "map at Report.scala:12", TASKS, List.of(),
                "details", t0 + 100, t0 + 2000, null, List.of())));
        StageInfo first = new StageInfo(1, 0, "collect at Report.scala:30", 4, List.of(0), "details", t0 + 2100, -1,
                null, List.of());
        r.onEvent(new SparkEvent.StageSubmitted(first));
        r.onEvent(new SparkEvent.TaskEnd(1, 0, "ResultTask", TaskEndReason.SUCCESS,
                info(2000, 0, 0, t0 + 2200, "1", t0 + 2300, false), runOnly(80)));
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(1, 0, "collect at Report.scala:30", 4, List.of(0),
                "details", t0 + 2100, t0 + 2400, "FetchFailed from host-b " + EVIL, List.of())));
        StageInfo second = new StageInfo(1, 1, "collect at Report.scala:30", 4, List.of(0), "details", t0 + 2500, -1,
                null, List.of());
        r.onEvent(new SparkEvent.StageSubmitted(second));
        for (int i = 0; i < 4; i++) {
            r.onEvent(new SparkEvent.TaskEnd(1, 1, "ResultTask", TaskEndReason.SUCCESS,
                    info(3000 + i, i, 0, t0 + 2600, "1", t0 + 2700 + i, false), runOnly(90)));
        }
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(1, 1, "collect at Report.scala:30", 4, List.of(0),
                "details", t0 + 2500, t0 + 2800, null, List.of())));
        r.onEvent(new SparkEvent.JobEnd(0, t0 + 2800, true, null));
        r.onEvent(new SparkEvent.ExecutorRemoved(t0 + 3000, "2", "Container lost: " + EVIL));
        r.onEvent(new SparkEvent.ApplicationEnd(t0 + 4000));
        return r.snapshot();
    }

    /** One stage of 60 tasks, 20 kept. */
    static AppSnapshot capped() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(20));
        long t0 = WebFixture.NOW - 2 * WebFixture.HOUR;
        r.onEvent(new SparkEvent.ApplicationStart("capped", CAPPED, null, t0, "sam"));
        r.onEvent(new SparkEvent.ExecutorAdded(t0, "1", "host-a", 4));
        StageInfo s = new StageInfo(0, 0, "count at Big.scala:3", 60, List.of(), "details", t0 + 10, -1, null,
                List.of());
        r.onEvent(new SparkEvent.JobStart(0, t0 + 10, List.of(0), List.of(s), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(s));
        for (int i = 0; i < 60; i++) {
            r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS,
                    info(i, i, 0, t0 + 20 + i, "1", t0 + 100 + 3L * i, false), runOnly(50 + i)));
        }
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(0, 0, "count at Big.scala:3", 60, List.of(),
                "details", t0 + 10, t0 + 500, null, List.of())));
        r.onEvent(new SparkEvent.JobEnd(0, t0 + 500, true, null));
        r.onEvent(new SparkEvent.ApplicationEnd(t0 + 600));
        return r.snapshot();
    }

    /**
     * {@code local[2]}: the driver runs the tasks, with no ExecutorAdded event; on the driver's clock three tasks
     * overlap (each launch is stamped before the previous finish is handled), yet Spark had two cores.
     */
    static AppSnapshot localTwo() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS);
        long t0 = WebFixture.NOW - 3 * WebFixture.HOUR;
        r.onEvent(new SparkEvent.ApplicationStart("local two", LOCAL, null, t0, "sam"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(),
                Map.of()));
        r.onEvent(new SparkEvent.BlockManagerAdded(t0 + 1, "driver", "localhost", 1L << 30));
        for (int job = 0; job < 3; job++) {
            long js = t0 + 100 + job * 1000L;
            StageInfo s = new StageInfo(job, 0, "job " + job + " at Local.scala:" + job, 8, List.of(), "details",
                    js, -1, null, List.of());
            r.onEvent(new SparkEvent.JobStart(job, js, List.of(job), List.of(s), Map.of()));
            r.onEvent(new SparkEvent.StageSubmitted(s));
            for (int i = 0; i < 8; i++) {
                long launch = js + 10 + i * 50L;
                r.onEvent(new SparkEvent.TaskEnd(job, 0, "ResultTask", TaskEndReason.SUCCESS,
                        info(job * 100L + i, i, 0, launch, "driver", launch + 140, false), runOnly(60)));
            }
            r.onEvent(new SparkEvent.StageCompleted(new StageInfo(job, 0, "job " + job + " at Local.scala:" + job, 8,
                    List.of(), "details", js, js + 600, null, List.of())));
            r.onEvent(new SparkEvent.JobEnd(job, js + 600, true, null));
        }
        r.onEvent(new SparkEvent.ApplicationEnd(t0 + 4000));
        return r.snapshot();
    }

    private static TaskMetrics runOnly(long run) {
        return TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, run).build();
    }

    private static TaskInfo info(long id, int index, int attempt, long launch, String executor, long finish,
                                 boolean failed) {
        return new TaskInfo(id, index, attempt, index, launch, executor, "host-" + executor, "PROCESS_LOCAL", false,
                0, finish, failed, false);
    }

    // --- the stage page --------------------------------------------------------------------------------------

    @Test
    void stagePageShowsItsHeadingDagAttemptsAndLinks() {
        var r = get("/apps/" + APP + "/stages/1/1");
        assertEquals(200, r.status(), r.body());
        String b = r.body();
        assertTrue(b.contains("<span id=\"stage-key\">1.1</span>"));
        assertTrue(b.contains("collect at Report.scala:30"), "the stage's name");
        assertTrue(b.contains("id=\"stage-status\">complete</span>"), "its status");
        assertTrue(b.contains("4 succeeded, 0 failed, 0 killed"), "its task counts");
        assertTrue(b.contains("<a class=\"parent-stage\" href=\"/apps/" + APP + "/stages/0/0\">0</a>"),
                "the stage it read from, linked to its page");
        assertTrue(b.contains("id=\"no-operators\""), "says why no operator is listed");
        // both attempts: the other one linked, with its failure reason escaped
        assertTrue(b.contains("data-attempt=\"0\"") && b.contains("data-attempt=\"1\""));
        assertTrue(b.contains("href=\"/apps/" + APP + "/stages/1/0\">0</a>"));
        assertTrue(b.contains("FetchFailed from host-b " + ESCAPED));
        assertTrue(b.contains("href=\"/apps/" + APP + "/stages/1/1/tasks\""), "to its task table");
        assertTrue(b.contains("href=\"/apps/" + APP + "/stages/1/1/timeline\""), "to its task timeline");
        assertFalse(b.contains(EVIL), "everything escaped");

        String child = get("/apps/" + APP + "/stages/0/0").body();
        assertTrue(child.contains("<a class=\"child-stage\" href=\"/apps/" + APP + "/stages/1/1\">1</a>"),
                "the stage that read it, its newest attempt");
        assertTrue(child.contains("id=\"to-failed-tasks\" href=\"/apps/" + APP + "/stages/0/0/tasks?status=failed\""),
                "its failed task linked, filtered");
    }

    @Test
    void dagDrawsTheStageBetweenTheStagesItReadFromAndFed() {
        String b = get("/apps/" + APP + "/stages/1/1").body();
        String dag = between(b, "id=\"stage-dag-drawing\"", "id=\"dag-not-shown\"");
        assertTrue(dag.contains("aria-label=\"stage DAG\""), "drawn with the plan graph's code");
        assertTrue(dag.contains("id=\"plan-graph\""), "in the box sparkscope.js pans and zooms");
        // no SQL operator ran in it: itself as a box, its parent stage 0 above, an edge from the parent to it
        String self = box(dag, "current", "#stage");
        String parent = box(dag, "parent", "/apps/" + APP + "/stages/0/0");
        assertTrue(dag.contains("Stage 1 &#183; this stage"), dag);
        assertTrue(dag.contains("Stage 0 &#183; read from"), dag);
        assertEquals(1, count(dag, "class=\"plan-edge\""), "one edge");
        assertTrue(dag.contains("data-from=\"" + parent + "\" data-to=\"" + self + "\""), "parent → stage");
        assertTrue(b.contains("RDD operations; those are not recorded"), "says what is not drawn");

        String first = between(get("/apps/" + APP + "/stages/0/0").body(), "id=\"stage-dag-drawing\"",
                "id=\"dag-not-shown\"");
        String self0 = box(first, "current", "#stage");
        String child = box(first, "child", "/apps/" + APP + "/stages/1/1");
        assertTrue(first.contains("data-from=\"" + self0 + "\" data-to=\"" + child + "\""), "stage → child");
        assertFalse(first.contains(EVIL));
    }

    /** The data-node of the one stage box of this kind linking to href. */
    private static String box(String dag, String kind, String href) {
        Matcher m = Pattern.compile("<a href=\"" + Pattern.quote(href) + "\"><g class=\"plan-node stage-box " + kind
                + "\" id=\"plan-node-(\\d+)\"").matcher(dag);
        assertTrue(m.find(), kind + " box linking to " + href + " in " + dag);
        String id = m.group(1);
        assertFalse(m.find(), "one " + kind + " box");
        return id;
    }

    @Test
    void slowestTasksAreTheStoredOnesLongestFirstWithTheirErrors() throws Exception {
        List<Long> expected = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT t.task_id FROM task t"
                + " JOIN application a USING (app_pk) WHERE a.app_id = ? AND t.stage_id = 0 AND t.stage_attempt_id = 0"
                + " ORDER BY t.duration_ms DESC, t.task_id DESC LIMIT 20")) {
            ps.setString(1, APP);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    expected.add(rs.getLong(1));
                }
            }
        }
        assertEquals(20, expected.size());
        String b = get("/apps/" + APP + "/stages/0/0").body();
        String table = between(b, "id=\"stage-task-table\"", "</table>");
        List<Long> shown = new ArrayList<>();
        Matcher m = Pattern.compile("<tr class=\"task-row[^\"]*\" data-task=\"(\\d+)\"").matcher(table);
        while (m.find()) {
            shown.add(Long.parseLong(m.group(1)));
        }
        assertEquals(expected, shown, "the 20 longest stored tasks, longest first");
        assertEquals(5L, shown.get(0), "the failed attempt ran longest");
        // its error on its own row under it, escaped, as in the task table
        assertTrue(table.contains("<tr class=\"task-error-row\" data-error-of=\"5\">"), table);
        assertTrue(table.contains("java.lang.IllegalStateException: " + ESCAPED));
        assertTrue(b.contains("The 20 longest stored tasks of 41"), "says how many of how many");
        assertTrue(b.contains("id=\"slowest-all\" href=\"/apps/" + APP
                + "/stages/0/0/tasks?sort=duration&amp;order=desc#tasks\""), "the full table in the same order");
        assertTrue(table.contains("href=\"/apps/" + APP + "/stages/0/0/tasks?sort=gc_time&amp;order=desc#tasks\""),
                "a heading sorts the full task table");
        // the page it links to lists the same tasks first
        String full = get("/apps/" + APP + "/stages/0/0/tasks?sort=duration&order=desc").body();
        Matcher f = Pattern.compile("<tr class=\"task-row[^\"]*\" data-task=\"(\\d+)\"").matcher(full);
        assertTrue(f.find());
        assertEquals("5", f.group(1));
    }

    @Test
    void sameStagePageWithTheAttemptIdAndTheSubPagesStillMatch() {
        // this application has no attempt id; the route with one must reach the page, and its 404 name the attempt
        var withAttempt = get("/apps/" + APP + "/none/stages/0/0");
        assertEquals(404, withAttempt.status());
        assertTrue(withAttempt.body().contains("no application " + APP + " attempt none"), withAttempt.body());
        assertTrue(get("/apps/" + APP + "/stages/0/0/tasks").body().contains("id=\"task-table\""));
        assertTrue(get("/apps/" + APP + "/stages/0/0/timeline").body().contains("id=\"timeline\""));
    }

    @Test
    void quantilesAreTheStoredOnes() throws Exception {
        String b = get("/apps/" + APP + "/stages/0/0").body();
        double[] quantiles;
        double[] run;
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT s.summary_quantiles,"
                + " st.vals FROM stage_attempt s JOIN application a USING (app_pk) JOIN stage_statistics st"
                + " ON st.app_pk = s.app_pk AND st.stage_id = s.stage_id AND st.stage_attempt_id = s.attempt_id"
                + " WHERE a.app_id = ? AND s.stage_id = 0 AND st.metric = 'executorRunTime'")) {
            ps.setString(1, APP);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "stored quantiles");
                quantiles = doubles(rs.getArray(1));
                run = doubles(rs.getArray(2));
            }
        }
        Matcher row = Pattern.compile("<tr data-metric=\"executorRunTime\">(.*?)</tr>", Pattern.DOTALL).matcher(b);
        assertTrue(row.find(), "the run time row");
        List<String> cells = cells(row.group(1));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < quantiles.length; i++) {
            double q = quantiles[i];
            if (q == 0 || q == 0.25 || q == 0.5 || q == 0.75 || q == 0.95 || q == 1) {
                expected.add(Fmt.duration(Math.round(run[i])));
            }
        }
        assertEquals(expected.size(), cells.size(), row.group(1));
        for (int i = 0; i < cells.size(); i++) {
            assertEquals(html(expected.get(i)), cells.get(i), "quantile column " + i);
        }
        assertTrue(b.contains("<tr data-metric=\"shuffleWriteMetrics.writeBytes\">"), "every metric has its row");
        assertTrue(b.contains("<details class=\"quantiles\" open>"), "shown open on the stage page");
    }

    @Test
    void perExecutorSumsEqualTheStoredTasks() throws Exception {
        String b = get("/apps/" + APP + "/stages/0/0").body();
        long tasks;
        long duration;
        long shuffleWrite;
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT count(*),"
                + " sum(t.duration_ms), s.shuffle_write_bytes FROM task t JOIN application a USING (app_pk)"
                + " JOIN stage_attempt s ON s.app_pk = t.app_pk AND s.stage_id = t.stage_id"
                + " AND s.attempt_id = t.stage_attempt_id WHERE a.app_id = ? AND t.stage_id = 0"
                + " GROUP BY s.shuffle_write_bytes")) {
            ps.setString(1, APP);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                tasks = rs.getLong(1);
                duration = rs.getLong(2);
                shuffleWrite = rs.getLong(3);
            }
        }
        assertEquals(TASKS + 1, tasks, "every attempt kept: 40 and one retry");
        String table = between(b, "<table class=\"grid small\" id=\"stage-executors\">", "</table>");
        String body = between(table, "<tbody>", "</tbody>");
        assertEquals(2, count(body, "<tr data-executor="), "executors 1 and 2");
        assertEquals(tasks, sum(body, "data-sum=\"tasks\">(\\d+)<"));
        assertEquals(duration, sum(body, "data-sum=\"duration\" data-ms=\"(\\d+)\""));
        assertEquals(shuffleWrite, sum(body, "data-sum=\"shuffle-write\" data-bytes=\"(\\d+)\""),
                "all tasks kept: the executors' shuffle write adds up to the stage's");
        assertEquals(1, sum(body, "data-sum=\"failed\">(\\d+)<"), "the one failed attempt, on its executor");
        String total = between(table, "<tfoot>", "</tfoot>");
        assertEquals(tasks, sum(total, "data-sum=\"tasks\">(\\d+)<"), "the total row");
        assertTrue(body.contains("Container lost: " + ESCAPED), "executor 2's remove reason, escaped");
        assertTrue(body.contains("href=\"/apps/" + APP + "/stages/0/0/tasks?executor=2\""),
                "an executor leads to its tasks of the stage");
        assertFalse(b.contains("id=\"executors-capped\""), "every task kept: nothing to warn of");
    }

    @Test
    void saysWhenTheSumsCoverOnlyTheKeptTasks() {
        String b = get("/apps/" + CAPPED + "/stages/0/0").body();
        assertTrue(b.contains("id=\"executors-capped\""), b);
        assertTrue(b.contains("Summed over the 20 stored task rows of 60 ended task attempts"));
    }

    @Test
    void findingsAboutTheStageAreListed() throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT f.finding_id FROM"
                + " finding f JOIN application a USING (app_pk) WHERE a.app_id = ?"
                + " AND EXISTS (SELECT 1 FROM unnest(f.stage_ids) s WHERE s LIKE '0.%' OR s = '0')")) {
            ps.setString(1, APP);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        String b = get("/apps/" + APP + "/stages/0/0").body();
        if (ids.isEmpty()) {
            assertTrue(b.contains("id=\"no-findings\""));
        } else {
            for (String id : ids) {
                assertTrue(b.contains("<li data-finding=\"" + id + "\">"), id);
            }
        }
        assertEquals(ids.size(), count(b, "<li data-finding="), "only findings naming stage 0");
    }

    @Test
    void jsonHasThePagesNumbersUnformatted() throws Exception {
        var r = get("/api/v1/apps/" + APP + "/stages/0/0");
        assertEquals(200, r.status(), r.body());
        var j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        assertEquals(0, j.get("stageId").asInt());
        assertEquals(TASKS + 1, j.get("keptTasks").asLong());
        assertFalse(j.get("tasksCapped").asBoolean());
        long tasks = 0;
        for (var e : j.get("executors")) {
            tasks += e.get("tasks").asLong();
        }
        assertEquals(TASKS + 1, tasks, "the executors' tasks add up to the kept tasks");
        assertEquals(j.get("quantiles").size(), j.get("taskMetricsDistributions").get("executorRunTime").size());
        assertEquals(1, j.get("children").get(0).get("stageId").asInt());
        assertEquals(20, j.get("slowestTaskIds").size(), "the page's slowest tasks");
        assertEquals(5, j.get("slowestTaskIds").get(0).asLong(), "the failed attempt ran longest");
        assertEquals(0, j.get("plan").get("nodes").size(), "no SQL operator ran in it");
        assertEquals(404, get("/api/v1/apps/" + APP + "/stages/1/7").status());
        var capped = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                get("/api/v1/apps/" + CAPPED + "/stages/0/0").body());
        assertTrue(capped.get("tasksCapped").asBoolean(), "20 of 60 kept");
    }

    @Test
    void unknownStageOrAttemptIsA404ThatSaysWhat() {
        var noStage = get("/apps/" + APP + "/stages/9/0");
        assertEquals(404, noStage.status());
        assertTrue(noStage.body().contains("no stage 9 in application " + APP), noStage.body());
        var noAttempt = get("/apps/" + APP + "/stages/1/7");
        assertEquals(404, noAttempt.status());
        assertTrue(noAttempt.body().contains("no attempt 7 of stage 1 in application " + APP
                + "; stored attempts: 0, 1"), noAttempt.body());
        var noApp = get("/apps/app-nowhere/stages/0/0");
        assertEquals(404, noApp.status());
        assertTrue(noApp.body().contains("no application app-nowhere in the database"));
        assertEquals(400, get("/apps/" + APP + "/stages/x/0").status(), "not a stage id");
    }

    // --- the application timeline ----------------------------------------------------------------------------

    @Test
    void localTwoTimelineHasTwoLanesWhateverTheDriverClockSays() {
        var r = get("/apps/" + LOCAL + "/timeline");
        assertEquals(200, r.status(), r.body());
        String b = r.body();
        assertTrue(b.contains("id=\"tab-timeline\"") && b.contains("aria-current=\"page\""), "its tab, marked");
        assertTrue(b.contains("data-lanes=\"2\""), "lanes = the two cores of local[2]");
        assertEquals(2, count(b, "<rect class=\"lane "), "two lanes drawn");
        assertEquals(3, count(b, "<rect class=\"bar job-bar"), "three jobs");
        assertEquals(3, count(b, "<rect class=\"bar stage-bar"), "three stages");
        assertTrue(b.contains("href=\"/apps/" + LOCAL + "/stages/2/0\""), "a stage bar leads to its page");
        // the stage task timeline of the same stage still marks its driver-clock overlap: that page explains it
        assertTrue(get("/apps/" + LOCAL + "/stages/0/0/timeline").body().contains("id=\"timeline\""));
    }

    @Test
    void clusterTimelineShowsEachExecutorsCoresAndWhyOneWasRemoved() {
        String b = get("/apps/" + APP + "/timeline").body();
        assertTrue(b.contains("data-lanes=\"4\""), "two executors of two cores; the driver runs no task");
        assertEquals(4, count(b, "<rect class=\"exec-life"), "each executor's lifetime on each of its slots");
        assertTrue(b.contains("<rect class=\"exec-life removed\" data-executor=\"2\""), "executor 2 was removed");
        assertTrue(b.contains("Container lost: " + ESCAPED), "with its reason, escaped");
        assertEquals(3, count(b, "<rect class=\"bar stage-bar"), "stage 0 and both attempts of stage 1");
        assertTrue(b.contains("data-stage=\"1.0\"") && b.contains("st-failed"), "the failed attempt marked");
        assertTrue(b.contains("id=\"app-timeline-box\""), "drawn in a box of its own");
        assertFalse(b.contains(EVIL));
        assertEquals(404, get("/apps/app-nowhere/timeline").status());
    }

    @Test
    void thousandsOfExecutorsStopAtTheLaneBudgetAndSaySo() {
        var r = get("/apps/" + ManyExecutorsLoad.APP + "/timeline");
        assertEquals(200, r.status());
        String b = r.body();
        Matcher lanes = Pattern.compile("data-lanes=\"(\\d+)\"").matcher(b);
        assertTrue(lanes.find());
        int drawn = Integer.parseInt(lanes.group(1));
        assertTrue(drawn > 0 && drawn <= io.sparkscope.server.web.model.AppTimeline.MAX_LANES, "lanes " + drawn);
        assertEquals(drawn, count(b, "<rect class=\"lane "));
        assertTrue(b.contains("more executors not drawn"), "says what it left out");
        assertTrue(b.length() < 3_000_000, "a bounded page: " + b.length());
        assertFalse(b.contains(ManyExecutorsLoad.EVIL));
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private static double[] doubles(java.sql.Array a) throws Exception {
        Object[] v = (Object[]) a.getArray();
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = ((Number) v[i]).doubleValue();
        }
        return out;
    }

    private static List<String> cells(String row) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<td class=\"num\">(.*?)</td>").matcher(row);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** As the page writes text: characters past ASCII as references. */
    private static String html(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(cp -> {
            if (cp < 128) {
                sb.appendCodePoint(cp);
            } else {
                sb.append("&#").append(cp).append(';');
            }
        });
        return sb.toString();
    }

    private static String between(String s, String from, String to) {
        int i = s.indexOf(from);
        assertTrue(i >= 0, "missing " + from);
        int j = s.indexOf(to, i + from.length());
        assertTrue(j >= 0, "missing " + to);
        return s.substring(i + from.length(), j);
    }

    private static long sum(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        long n = 0;
        while (m.find()) {
            n += Long.parseLong(m.group(1));
        }
        return n;
    }

    private static int count(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
