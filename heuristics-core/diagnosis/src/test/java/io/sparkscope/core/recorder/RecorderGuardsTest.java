package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimes;
import io.sparkscope.core.report.TextReport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.recorder.Events.metrics;
import static io.sparkscope.core.recorder.Events.stage;
import static io.sparkscope.core.recorder.Events.success;
import static io.sparkscope.core.recorder.Events.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorder guards itself against any value whatever its source: unknown or impossible times never give a
 * negative, NaN or absurd duration; an application without an id still gets one; and every entity that can be
 * announced twice (jobs, executors, SQL executions, the application) is handled as Spark's listeners handle it.
 */
class RecorderGuardsTest {

    private static void assertSaneDistributions(StageSummary s) {
        TaskDistributions d = s.taskSummary();
        for (DistributionMetric m : DistributionMetric.values()) {
            for (double v : d.values(m)) {
                assertTrue(Double.isFinite(v) && v >= 0, m + " = " + v + " in stage " + s.key());
            }
        }
    }

    @Test
    void unknownOrImpossibleTaskTimesAreLeftOutOfTimeSumsAndQuantiles() {
        Recorder r = new Recorder();
        r.onEvent(Events.appStart(1_600_000_000_000L));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 6, 1_600_000_000_000L, -1, null)));
        long t0 = 1_600_000_001_000L;
        // two good tasks, then: launch 0 (a TaskEnd with "Launch Time": 0), launch unknown (-1), finish before
        // launch, a span of 50 years from a tiny launch time
        long[][] launchFinish = {{t0, t0 + 100}, {t0, t0 + 300}, {0, t0 + 10}, {-1, t0 + 10}, {t0 + 500, t0},
                {1, t0}};
        for (int i = 0; i < launchFinish.length; i++) {
            r.onEvent(success(0, 0, task(i, i, launchFinish[i][0], launchFinish[i][1], "1", false), metrics(50, 1)));
        }
        AppSnapshot snap = r.snapshot();
        StageSummary s = snap.stages().get(0);
        assertEquals(6, s.taskSummary().count(), "every successful task is in the population");
        assertEquals(6 * 50, s.totals().get(TaskMetric.EXECUTOR_RUN_TIME), "their metrics all count");
        assertEquals(4, s.numTasksWithUnknownTimes());
        assertEquals(300, s.taskSummary().max(DistributionMetric.DURATION), "durations of the known ones only");
        assertEquals(100, s.taskSummary().min(DistributionMetric.DURATION));
        assertEquals(300 - 50 - 1, s.taskSummary().max(DistributionMetric.SCHEDULER_DELAY));
        assertSaneDistributions(s);
        assertEquals(400, s.taskTimes().durationMs());
        assertEquals(t0, s.firstTaskLaunchedTime());
        assertEquals(t0 + 300, s.lastTaskFinishedTime());
        for (TaskRecord t : s.keptTasks()) {
            assertTrue(t.durationMs() >= 0 && t.durationMs() <= 300, t.toString());
            assertEquals(t.taskId() < 2, t.timesKnown());
        }
        ExecutorSummary e = snap.executors().get(0);
        assertEquals(400, e.totalDuration());
        // No "Task time 443338 h", no long-task finding from a task that did not run for 50 years
        HeuristicEngine engine = HeuristicEngine.load();
        String report = TextReport.render(snap, engine.run(snap, engine.defaultConfig()).findings(), 5, null);
        assertTrue(report.contains("Task time 400 ms"), report);
        assertFalse(report.contains("LongTasks"), report);
        assertTrue(report.contains("4 with unknown launch or finish time"), report);
    }

    @Test
    void timesBeyondAYearAreNotBelieved() {
        assertEquals(TaskTimes.MAX_TASK_DURATION_MS, TaskTimes.duration(1000, 1000 + TaskTimes.MAX_TASK_DURATION_MS));
        assertEquals(TaskTimes.UNKNOWN, TaskTimes.duration(1000, 1001 + TaskTimes.MAX_TASK_DURATION_MS));
        assertEquals(TaskTimes.UNKNOWN, TaskTimes.duration(1000, Long.MAX_VALUE));
        assertEquals(TaskTimes.UNKNOWN, TaskTimes.duration(Long.MIN_VALUE, 1000));
        assertEquals(0, TaskTimes.gettingResult(1000, 0, 2000));
        assertEquals(300, TaskTimes.gettingResult(1000, 1700, 2000));
        assertEquals(TaskTimes.UNKNOWN, TaskTimes.gettingResult(1000, 500, 2000), "fetch before the launch");
    }

    @Test
    void anApplicationWithoutAnIdGetsAPlaceholderOnceItStarted() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        assertNull(r.snapshot().appId(), "before its start a live application has no id yet");
        r.onEvent(new SparkEvent.ApplicationStart("nameless", null, null, 5000, "u"));
        AppSnapshot s = r.snapshot();
        assertEquals("unknown-app-5000", s.appId());
        assertTrue(s.appIdIsPlaceholder());
        assertEquals("app-from-file", s.withAppId("app-from-file").appId());

        Recorder noStart = new Recorder();
        noStart.onEvent(new SparkEvent.ApplicationEnd(9000));
        assertEquals(AppSnapshot.UNKNOWN_APP_ID, noStart.snapshot().appId());

        Recorder named = new Recorder();
        named.onEvent(new SparkEvent.ApplicationStart("a", "app-1", "1", 5000, "u"));
        named.onEvent(new SparkEvent.ApplicationStart(null, null, null, -1, null)); // a damaged repeat
        assertEquals("app-1", named.snapshot().appId());
        assertEquals("1", named.snapshot().attemptId());
        assertEquals(5000, named.snapshot().startTime());
        assertFalse(named.snapshot().appIdIsPlaceholder());
    }

    @Test
    void anEndBeforeTheStartIsNoDuration() {
        Recorder r = new Recorder();
        r.onEvent(Events.appStart(5000));
        r.onEvent(new SparkEvent.ApplicationEnd(1000));
        AppSnapshot s = r.snapshot();
        assertEquals(0, s.durationMs());
        assertTrue(TextReport.render(s, List.of(), 5, null).contains("duration unknown (the end is stamped before"));
    }

    @Test
    void jobsEndOnceAndOnlyAfterTheyStarted() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.JobEnd(7, 900, true, null)); // never started: Spark ignores it
        r.onEvent(new SparkEvent.JobStart(0, 1000, List.of(0), List.of(stage(0, 0, 1, -1, -1, null)), Map.of()));
        r.onEvent(new SparkEvent.JobEnd(0, 2000, false, "first"));
        r.onEvent(new SparkEvent.JobEnd(0, 3000, true, null));
        r.onEvent(new SparkEvent.JobStart(0, 4000, List.of(0), List.of(), Map.of())); // repeated line
        AppSnapshot s = r.snapshot();
        assertEquals(1, s.jobs().size());
        assertEquals(JobStatus.FAILED, s.jobs().get(0).status());
        assertEquals(2000, s.jobs().get(0).completionTime());
        assertEquals(1000, s.jobs().get(0).submissionTime());
        assertEquals("first", s.jobs().get(0).failureReason());
        assertEquals(StageStatus.SKIPPED, s.stages().get(0).status());
    }

    @Test
    void executorsAreRemovedOnceAndComeBackWhenAddedAgain() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ExecutorRemoved(500, "9", "never added")); // unknown: Spark ignores it
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "1", "h1", 4));
        r.onEvent(new SparkEvent.ExecutorAdded(1500, "1", "h1", 4)); // repeated while alive: keeps its add time
        r.onEvent(new SparkEvent.ExecutorRemoved(2000, "1", "lost"));
        r.onEvent(new SparkEvent.ExecutorRemoved(2500, "1", "again"));
        ExecutorSummary e = r.snapshot().executors().get(0);
        assertEquals(1, r.snapshot().executors().size());
        assertEquals(1000, e.addTime());
        assertEquals(2000, e.removeTime());
        assertEquals("lost", e.removeReason());
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 2600, -1, null)));
        r.onEvent(success(0, 0, task(1, 0, 2600, 2700, "1", false), metrics(50, 0)));
        r.onEvent(new SparkEvent.ExecutorAdded(3000, "1", "h2", 8)); // registers again after the driver gave up on it
        e = r.snapshot().executors().get(0);
        assertEquals(3000, e.addTime());
        assertEquals(-1, e.removeTime());
        assertNull(e.removeReason());
        assertEquals(8, e.totalCores());
        assertEquals(1, e.completedTasks(), "the tasks it ran before stay counted");
    }

    @Test
    void sqlExecutionsEndOnceAndOnlyAfterTheyStarted() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.SqlExecutionEnd(5, 900, null));
        r.onEvent(new SparkEvent.SqlExecutionStart(1, "q", "plan", null, 1000));
        r.onEvent(new SparkEvent.SqlExecutionEnd(1, 2000, "boom"));
        r.onEvent(new SparkEvent.SqlExecutionEnd(1, 3000, null));
        AppSnapshot s = r.snapshot();
        assertEquals(1, s.sqlExecutions().size());
        assertEquals(2000, s.sqlExecutions().get(0).endTime());
        assertEquals("boom", s.sqlExecutions().get(0).errorMessage());
    }

    @Test
    void hostileCountsAndCoresDoNotOverflowOrThrow() {
        Recorder r = new Recorder();
        r.onEvent(Events.env(Map.of("spark.master", "local[99999999999]")));
        r.onEvent(new SparkEvent.JobStart(0, 1000, List.of(0, 1), List.of(stage(0, 0, Integer.MAX_VALUE, -1, -1, null),
                stage(1, 0, Integer.MAX_VALUE, -1, -1, null), stage(2, 0, -5, -1, -1, null)), Map.of()));
        r.onEvent(new SparkEvent.ExecutorAdded(1000, "1", "h", -3));
        AppSnapshot s = r.snapshot();
        assertEquals(Integer.MAX_VALUE, s.jobs().get(0).numTasks(), "clamped, not wrapped");
        assertEquals(0, s.stages().get(2).numTasks());
        assertEquals(0, s.executors().get(0).totalCores());
    }

    @Test
    void aTaskStartedButNeverEndedStaysActive() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        r.onEvent(new SparkEvent.TaskStart(0, 0, new TaskInfo(1, 0, 0, 0, 1000, "1", "h", "ANY", false, 0, 0, false,
                false)));
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 1, 1000, 2000, "cut")));
        StageSummary s = r.snapshot().stages().get(0);
        assertEquals(1, s.numActiveTasks());
        assertEquals(0, s.endedTasks());
        assertEquals(StageStatus.FAILED, s.status());
    }
}
