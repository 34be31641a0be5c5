package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.KiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverTimeTest {
    private final DriverTime heuristic = new DriverTime();

    /** A 100 s application with stages busy over the given [from, to) seconds. */
    private static List<Finding> busy(long[]... spans) {
        var b = app().durationMs(100_000);
        int id = 0;
        for (long[] s : spans) {
            long from = s[0] * 1000;
            long len = (s[1] - s[0]) * 1000;
            b = b.stage(id++).startAt(from).tasks(2, i -> task().runTime(len)).done();
        }
        return run(new DriverTime(), b.build());
    }

    @Test
    void thirtyFivePercentWithoutTasksIsLow() {
        Finding f = single(Severity.LOW, busy(new long[]{5, 50}, new long[]{40, 70}));
        assertEquals(35_000L, f.details().get("noTaskMs"));
    }

    @Test
    void halfWithoutTasksIsHighAndTheLongestGapIsNamed() {
        Finding f = single(Severity.HIGH, busy(new long[]{0, 30}, new long[]{60, 80}));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> gaps = (List<Map<String, Object>>) f.details().get("longestGaps");
        assertEquals(Map.of("startOffsetMs", 30_000L, "durationMs", 30_000L, "afterStage", "0.0", "beforeStage", "1.0",
                        "kind", "driver work"),
                gaps.get(0));
        assertTrue(f.message().contains("after stage 0.0 before stage 1.0"), f.message());
    }

    @Test
    void busyOrShortApplicationsAreSilent() {
        silent(busy(new long[]{2, 95}));
        silent(run(heuristic, app().durationMs(30_000).build()));
    }

    /** An application of {@code appMs} with two stages busy over [0.2 s, 1 s) and [{@code lastFrom}, the end). */
    private static AppSnapshot shortRun(long appMs, long lastFrom) {
        return app().durationMs(appMs)
                .stage(0).startAt(200).tasks(2, i -> task().runTime(800)).done()
                .stage(1).startAt(lastFrom).tasks(2, i -> task().runTime(appMs - lastFrom)).done()
                .build();
    }

    @Test
    void aShortRunIsJudgedWhenItsDriverWorkAloneIsLongEnough() {
        // 12 s of a 15 s run spent by the driver alone (a loop over collected rows): the run is that loop
        Finding f = single(Severity.LOW, run(heuristic, shortRun(15_000, 13_000)));
        assertEquals(12_000L, f.details().get("driverWorkMs"));
        assertEquals(10_500L, f.impact().wallMs(), "driver work above 10 % of the application");
        // a tiny run whose planning is half of it (2 s of 3.5 s) stays silent, as does a short run's small share
        silent(run(heuristic, shortRun(3_500, 2_000)));
        silent(run(heuristic, shortRun(15_000, 7_000)));
    }

    /**
     * A 100 s application whose jobs (one stage each, tasks over the whole job) run over the given [from, to)
     * seconds; {@code conf} are extra settings as key, value pairs.
     */
    static AppSnapshot jobsAt(String master, long[][] jobs, String... conf) {
        return jobsAt(master, COLLECTED_BYTES, jobs, conf);
    }

    /** Task results of each job's tasks in {@link #jobsAt}: rows collected for the driver to work on. */
    static final long COLLECTED_BYTES = 4 * MiB;

    /** {@link #jobsAt}, each task of each job returning {@code resultBytes} to the driver. */
    static AppSnapshot jobsAt(String master, long resultBytes, long[][] jobs, String... conf) {
        var b = app().durationMs(100_000).master(master).executor("1", 4, 10_000);
        for (int i = 0; i < conf.length; i += 2) {
            b = b.conf(conf[i], conf[i + 1]);
        }
        for (int i = 0; i < jobs.length; i++) {
            long len = (jobs[i][1] - jobs[i][0]) * 1000;
            b = b.stage(i).startAt(jobs[i][0] * 1000).jobs(i)
                    .tasks(2, t -> task().runTime(len).metric(TaskMetric.RESULT_SIZE, resultBytes)).done();
        }
        return withJobs(b.build(), jobs);
    }

    /** The snapshot with job i (stage i) submitted and completed at the given [from, to) seconds. */
    private static AppSnapshot withJobs(AppSnapshot s, long[][] jobs) {
        List<JobSummary> js = new ArrayList<>();
        for (int i = 0; i < jobs.length; i++) {
            js.add(JobSummary.builder().jobId(i).name("job " + i).submissionTime(s.startTime() + jobs[i][0] * 1000)
                    .completionTime(s.startTime() + jobs[i][1] * 1000).status(JobSummary.JobStatus.SUCCEEDED)
                    .stageIds(List.of(i)).build());
        }
        return s.toBuilder().jobs(js).build();
    }

    private static final long[][] THREE_COMMANDS = {{2, 12}, {40, 50}, {80, 90}};

    @Test
    void aBatchProgramBetweenItsJobsIsDriverWorkAndRankedWithAdviceToMoveWorkOffTheDriver() {
        Finding f = single(Severity.HIGH, run(heuristic, jobsAt("yarn", THREE_COMMANDS)));
        assertEquals(2_000L, f.details().get("startupMs"));
        assertEquals(68_000L, f.details().get("driverWorkMs"));
        assertEquals(0L, f.details().get("waitingMs"));
        assertEquals(70_000L, f.details().get("noTaskMs"), "the existing total stays");
        assertEquals("batch", f.details().get("session"));
        assertEquals(58_000L, f.impact().wallMs(), "driver work above 10 % of the application");
        assertTrue(f.recommendation().contains("collect()"), f.recommendation());
        assertTrue(heuristic.detailLabels().keySet().containsAll(List.of("startupMs", "driverWorkMs", "waitingMs")),
                "pages label the split");
    }

    /**
     * The same program, but each job hands the driver only a count (2 KiB) and its executors are held: nothing
     * collected to work on and no job running, so the driver slept or waited outside Spark. Shown, not ranked: the
     * idle executors are the cost (IdleCores), not work to move off the driver.
     */
    @Test
    void aBatchProgramIdleBetweenJobsWithExecutorsHeldAndNothingCollectedIsWaitingNotDriverWork() {
        Finding f = single(Severity.LOW, run(heuristic, jobsAt("yarn", 2 * KiB, THREE_COMMANDS)));
        assertEquals(2_000L, f.details().get("startupMs"));
        assertEquals(58_000L, f.details().get("waitingMs"), "the two stretches between the jobs");
        assertEquals(10_000L, f.details().get("driverWorkMs"), "the tail after the last job stays driver work");
        assertEquals("batch", f.details().get("session"));
        assertFalse(f.impact().saves(), "a sleeping driver is no saving: " + f.impact());
        assertFalse(f.recommendation().contains("collect()"), f.recommendation());
        assertTrue(f.recommendation().contains("IdleCores"), f.recommendation());
        assertEquals("true", f.adviceFor("spark.dynamicAllocation.enabled").recommendedValue());
        // in local mode the driver runs the tasks itself: no executor of its own waits, the stretch stays driver work
        Finding local = single(Severity.HIGH, run(heuristic, jobsAt("local[4]", 2 * KiB, THREE_COMMANDS)));
        assertEquals(0L, local.details().get("waitingMs"));
        assertTrue(local.impact().saves(), local.impact().toString());
    }

    @Test
    void anInteractiveShellBetweenCommandsIsWaitingShownWithoutSavingOrCollectAdvice() {
        for (String[] shell : List.of(new String[]{"spark.repl.class.uri", "spark://10.0.0.1:40000/classes"},
                new String[]{"spark.app.name", "PySparkShell"}, new String[]{"spark.app.name", "livy-session-3"})) {
            Finding f = single(Severity.LOW, run(heuristic, jobsAt("yarn", THREE_COMMANDS, shell)));
            // the executor was there from the start: the 2 s before the first command were a person typing
            assertEquals(0L, f.details().get("startupMs"), shell[1]);
            assertEquals(70_000L, f.details().get("waitingMs"), shell[1]);
            assertEquals(0L, f.details().get("driverWorkMs"), shell[1]);
            assertEquals("interactive", f.details().get("session"));
            assertFalse(f.impact().saves(), "waiting for a person is not a saving: " + f.impact());
            assertFalse(f.recommendation().contains("collect"), f.recommendation());
            assertEquals("true", f.adviceFor("spark.dynamicAllocation.enabled").recommendedValue(),
                    "executors are given back while the session waits");
            assertTrue(f.title().contains("mostly waiting"), f.title());
        }
        // a first command long after the shell was ready is not a long start-up either
        Finding late = single(Severity.LOW, run(heuristic, jobsAt("yarn", new long[][]{{70, 95}},
                "spark.app.name", "Spark shell")));
        assertEquals(0L, late.details().get("startupMs"));
        assertEquals(75_000L, late.details().get("waitingMs"));
        assertEquals(1, run(heuristic, jobsAt("yarn", new long[][]{{70, 95}}, "spark.app.name", "Spark shell")).size(),
                "no start-up finding");
    }

    @Test
    void aLongStartUpIsShownNotRankedAndGetsItsOwnFindingOnlyWhereASettingShortensIt() {
        long[][] late = {{70, 95}};
        Finding f = single(Severity.LOW, run(heuristic, jobsAt("local[2]", late)));
        assertEquals(70_000L, f.details().get("startupMs"));
        assertFalse(f.impact().saves(), f.impact().toString());
        assertTrue(f.recommendation().contains("start-up"), f.recommendation());
        assertFalse(f.recommendation().contains("collect"), f.recommendation());
        // YARN in client mode without spark.yarn.archive uploads Spark's jars at every start: that setting helps
        List<Finding> yarn = run(heuristic, jobsAt("yarn", late));
        assertEquals(2, yarn.size(), yarn.toString());
        Finding startup = yarn.get(1);
        assertEquals("DriverTime:startup", startup.id());
        assertEquals(Severity.LOW, startup.severity());
        assertTrue(startup.adviceFor("spark.yarn.archive") != null, startup.toString());
        assertEquals(1, run(heuristic, jobsAt("yarn", late, "spark.yarn.archive", "hdfs:///libs/spark.zip")).size());
    }

    @Test
    void aQueryPlannedBeforeItsFirstJobIsDriverWorkNotStartUp() {
        AppSnapshot s = jobsAt("yarn", new long[][]{{70, 95}});
        s = s.toBuilder().sqlExecutions(List.of(SqlExecutionSummary.builder().executionId(0).description("q")
                .startTime(s.startTime() + 5_000).endTime(s.startTime() + 95_000).physicalPlanDescription("")
                .build())).build();
        Finding f = single(Severity.HIGH, run(heuristic, s));
        assertEquals(5_000L, f.details().get("startupMs"));
        assertEquals(70_000L, f.details().get("driverWorkMs"), "65 s of planning/listing and the 5 s tail");
    }

    /** A query triggered every 20 s whose batches take 1.4 s (one 1 s job each), in a 100 s application. */
    static AppSnapshot streamingApp() {
        AppSnapshot s = jobsAt("yarn", new long[][]{{5, 6}, {25, 26}, {45, 46}, {65, 66}, {85, 86}});
        List<StreamingBatch> batches = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batches.add(StreamingBatch.builder().batchId(i).timestamp(s.startTime() + (5 + 20L * i) * 1000 - 200)
                    .durationMs(1_400).build());
        }
        return s.toBuilder().streamingQueries(List.of(StreamingQuerySummary.builder().queryId("q").runId("r")
                .startTime(s.startTime() + 4_000).status(StreamingQuerySummary.Status.STOPPED)
                .endTime(s.startTime() + 99_000).recentBatches(batches).build())).build();
    }

    @Test
    void aStreamingQueryBetweenItsTriggersIsWaitingNotDriverWork() {
        Finding f = single(Severity.LOW, run(heuristic, streamingApp()));
        assertEquals("streaming", f.details().get("session"));
        assertEquals(4_000L, f.details().get("startupMs"));
        assertEquals(88_000L, f.details().get("waitingMs"), f.details().toString());
        assertEquals(2_000L, f.details().get("streamingBatchMs"), "the batches' planning: 5 × 0.4 s");
        assertEquals(1_000L, f.details().get("driverWorkMs"), "the last second after the query stopped");
        assertFalse(f.impact().saves(), f.impact().toString());
        assertTrue(f.recommendation().contains("between triggers"), f.recommendation());
    }

    /**
     * Batches that spend most of their time on the driver (planning, offsets, commits: 9 of each 10 s) are the
     * query's own work. The streaming rules judge a batch against its trigger; DriverTime neither ranks it as a
     * saving nor tells the user to avoid collect().
     */
    @Test
    void timeInsideStreamingBatchesIsTheBatchesOwnWorkNotDriverWorkToMoveOff() {
        AppSnapshot s = jobsAt("yarn", new long[][]{{14, 15}, {24, 25}, {34, 35}, {44, 45}, {54, 55}, {64, 65},
                {74, 75}, {84, 85}, {94, 95}});
        List<StreamingBatch> batches = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            batches.add(StreamingBatch.builder().batchId(i).timestamp(s.startTime() + (6 + 10L * i) * 1000)
                    .durationMs(9_000).build());
        }
        s = s.toBuilder().streamingQueries(List.of(StreamingQuerySummary.builder().queryId("q").runId("r")
                .startTime(s.startTime() + 5_000).status(StreamingQuerySummary.Status.STOPPED)
                .endTime(s.startTime() + 99_000).recentBatches(batches).build())).build();
        Finding f = single(Severity.LOW, run(heuristic, s));
        assertTrue((Long) f.details().get("streamingBatchMs") >= 70_000L, f.details().toString());
        assertTrue((Long) f.details().get("driverWorkMs") <= 2_000L, f.details().toString());
        assertFalse(f.impact().saves(), f.impact().toString());
        assertFalse(f.recommendation().contains("collect()"), f.recommendation());
        assertTrue(f.recommendation().contains("Streaming findings"), f.recommendation());
    }

    /**
     * A 100 s YARN application whose first job is submitted at 2 s, whose executor registers at {@code executorAtS}
     * seconds, and whose two jobs then run tasks over [40 s, 60 s) and [60 s, 100 s).
     */
    private static AppSnapshot executorRegisteringAt(long executorAtS) {
        AppSnapshot s = app().durationMs(100_000).master("yarn").executor("1", 2, executorAtS * 1000, -1)
                .stage(0).startAt(40_000).jobs(0).tasks(2, t -> task().runTime(20_000)).done()
                .stage(1).startAt(60_000).jobs(1).tasks(2, t -> task().runTime(40_000)).done()
                .build();
        return withJobs(s, new long[][]{{2, 60}, {60, 100}});
    }

    @Test
    void waitingForTheFirstExecutorIsStartUpNotDriverWork() {
        // the first job waits 38 s for an executor to register (containers granted, JVMs starting): no code change
        // on the driver shortens that, so it is start-up, shown without a saving
        Finding f = single(Severity.LOW, run(heuristic, executorRegisteringAt(40)));
        assertEquals(40_000L, f.details().get("startupMs"));
        assertEquals(0L, f.details().get("driverWorkMs"));
        assertFalse(f.impact().saves(), f.impact().toString());
        // with the executor there from the start, the same 38 s inside the job are the driver's own work
        Finding early = single(Severity.LOW, run(heuristic, executorRegisteringAt(0)));
        assertEquals(38_000L, early.details().get("driverWorkMs"));
        assertTrue(early.impact().saves(), early.impact().toString());
    }
}
