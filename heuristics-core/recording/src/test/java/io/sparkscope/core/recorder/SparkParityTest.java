package io.sparkscope.core.recorder;

import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.recorder.Events.failure;
import static io.sparkscope.core.recorder.Events.metrics;
import static io.sparkscope.core.recorder.Events.stage;
import static io.sparkscope.core.recorder.Events.success;
import static io.sparkscope.core.recorder.Events.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Numbers the recorder shows as Spark's History Server shows them, on hand-built events. */
class SparkParityTest {

    private static SparkEvent.TaskStart start(int stage, TaskInfo info) {
        return new SparkEvent.TaskStart(stage, 0, new TaskInfo(info.taskId(), info.index(), info.attempt(),
                info.partitionId(), info.launchTime(), info.executorId(), info.host(), info.locality(),
                info.speculative(), 0, 0, false, false));
    }

    private static SparkEvent.JobStart job(int jobId, long time, Map<String, String> props, int... stageIdsAndTasks) {
        List<Integer> ids = new java.util.ArrayList<>();
        List<io.sparkscope.core.event.StageInfo> infos = new java.util.ArrayList<>();
        for (int i = 0; i < stageIdsAndTasks.length; i += 2) {
            ids.add(stageIdsAndTasks[i]);
            infos.add(stage(stageIdsAndTasks[i], 0, stageIdsAndTasks[i + 1], -1, -1, null));
        }
        return new SparkEvent.JobStart(jobId, time, ids, infos, props);
    }

    private static ExecutorSummary executor(AppSnapshot s, String id) {
        return s.executors().stream().filter(e -> e.executorId().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void duplicatedTaskEndLinesNeverRaiseACountAboveTheStagesTasks() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ExecutorAdded(900, "1", "h1", 4));
        r.onEvent(job(0, 1000, Map.of(), 0, 16));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 16, 1000, -1, null)));
        for (int i = 0; i < 16; i++) {
            TaskInfo t = task(100 + i, i, 1000 + i, 1100 + i, "1", i == 3);
            r.onEvent(start(0, t));
            SparkEvent.TaskEnd end = i == 3 ? failure(0, 0, t, metrics(50, 1)) : success(0, 0, t, metrics(80, 2));
            r.onEvent(end);
            if (i % 3 == 0) {
                r.onEvent(end); // the line repeated at once, six times over (the failed task's among them)
            }
        }
        // and a retry of the failed index, its end repeated later on
        TaskInfo retry = task(200, 3, 1300, 1400, "1", false);
        r.onEvent(start(0, retry));
        r.onEvent(success(0, 0, retry, metrics(80, 2)));
        r.onEvent(success(0, 0, task(101, 1, 1001, 1101, "1", false), metrics(80, 2)));
        r.onEvent(success(0, 0, retry, metrics(80, 2)));
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 16, 1000, 1500, null)));
        r.onEvent(new SparkEvent.JobEnd(0, 1500, true, null));

        AppSnapshot snap = r.snapshot();
        StageSummary s = snap.stages().get(0);
        assertEquals(16, s.numCompleteTasks());
        assertEquals(1, s.numFailedTasks());
        assertEquals(16, s.numCompletedIndices());
        assertEquals(8, s.numDuplicateTaskEnds(), "the repeats are still told");
        assertEquals(17, s.endedTasks());
        assertEquals(1, s.endReasons().get("ExceptionFailure"));
        JobSummary j = snap.jobs().get(0);
        assertEquals(16, j.numCompletedTasks());
        assertEquals(1, j.numFailedTasks());
        assertEquals(16, j.numCompletedIndices());
        ExecutorSummary e = executor(snap, "1");
        assertEquals(16, e.completedTasks());
        assertEquals(1, e.failedTasks());
        assertEquals(17, snap.totals().taskEndEvents());
    }

    @Test
    void aResubmittedEndCountsOnceEvenWhenItsLineIsRepeated() {
        TaskEndReason resubmitted = new TaskEndReason("Resubmitted", "resubmitted due to lost executor", null);
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        TaskInfo t = task(1, 0, 1000, 1100, "1", false);
        r.onEvent(start(0, t));
        r.onEvent(success(0, 0, t, metrics(80, 5)));
        SparkEvent.TaskEnd again = new SparkEvent.TaskEnd(0, 0, "ShuffleMapTask", resubmitted, t, null);
        r.onEvent(again);
        r.onEvent(again);
        StageSummary s = r.snapshot().stages().get(0);
        assertEquals(1, s.numCompleteTasks());
        assertEquals(1, s.numFailedTasks(), "Spark's one Resubmitted end counts as failed");
        assertEquals(1, s.numResubmittedTasks());
        assertEquals(1, s.numDuplicateTaskEnds());
    }

    @Test
    void aJobEndingWithASkippedStageKeepsItsRunningStageCountFromSpark34On() {
        for (String version : new String[]{"4.0.4", "3.4.0", null}) {
            JobSummary j = jobWithASkippedStage(version);
            assertEquals(0, j.numActiveStages(), "Spark " + version);
            assertEquals(1, j.numSkippedStages());
            assertEquals(1, j.numCompletedStages());
        }
        // Spark before 3.4 took the pending stage off the running count at the job's end
        assertEquals(-1, jobWithASkippedStage("3.3.2").numActiveStages());
    }

    private static JobSummary jobWithASkippedStage(String version) {
        Recorder r = new Recorder();
        if (version != null) {
            r.onEvent(new SparkEvent.LogStart(version));
        }
        r.onEvent(job(0, 1000, Map.of(), 0, 2, 1, 2));
        r.onEvent(new SparkEvent.StageSubmitted(stage(1, 0, 2, 1000, -1, null)));
        r.onEvent(success(1, 0, task(1, 0, 1000, 1100, "1", false), metrics(10, 0)));
        r.onEvent(success(1, 0, task(2, 1, 1000, 1100, "1", false), metrics(10, 0)));
        r.onEvent(new SparkEvent.StageCompleted(stage(1, 0, 2, 1000, 1200, null)));
        r.onEvent(new SparkEvent.JobEnd(0, 1300, true, null));
        return r.snapshot().jobs().get(0);
    }

    @Test
    void aTaskThatSucceedsAfterItsJobEndedCountsInTheJobsCompletedIndices() {
        Recorder r = new Recorder();
        r.onEvent(job(0, 1000, Map.of(), 0, 2));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 2, 1000, -1, null)));
        TaskInfo t1 = task(1, 0, 1000, 1100, "1", false);
        TaskInfo t2 = task(2, 1, 1000, 1400, "1", false);
        r.onEvent(start(0, t1));
        r.onEvent(start(0, t2));
        r.onEvent(success(0, 0, t1, metrics(10, 0)));
        r.onEvent(new SparkEvent.JobEnd(0, 1200, false, "cancelled"));
        r.onEvent(success(0, 0, t2, metrics(10, 0)));
        JobSummary j = r.snapshot().jobs().get(0);
        assertEquals(2, j.numCompletedTasks());
        assertEquals(2, j.numCompletedIndices(), "Spark counts the late success's index too");
        // once its stage attempt has closed nothing counts in the job any more
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 2, 1000, 1500, null)));
        r.onEvent(success(0, 0, task(3, 1, 1500, 1600, "1", false), metrics(10, 0)));
        assertEquals(2, r.snapshot().jobs().get(0).numCompletedIndices());
    }

    @Test
    void everyTaskEndSetsItsExecutorsPeaksAtLeastToZeroAsSparksReaderDoes() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ExecutorAdded(900, "1", "h1", 2));
        r.onEvent(new SparkEvent.ExecutorAdded(900, "2", "h2", 2));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 2, 1000, -1, null)));
        ExecutorPeaks zeros = ExecutorPeaks.builder().set(ExecutorMetric.JVM_HEAP_MEMORY, 0)
                .set(ExecutorMetric.TOTAL_GC_TIME, 0).build();
        TaskInfo t1 = task(1, 0, 1000, 1100, "1", false);
        TaskInfo t2 = task(2, 1, 1000, 1100, "2", false);
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS, t1, metrics(10, 0), zeros,
                null));
        // a log older than Spark 3.0 carries no peaks with its task ends: Spark's reader takes them as all 0
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS, t2, metrics(10, 0), null,
                null));
        AppSnapshot snap = r.snapshot();
        Map<String, Long> peaks = executor(snap, "1").peakMetrics();
        assertEquals(0L, peaks.get("JVMHeapMemory"));
        assertEquals(0L, peaks.get("TotalGCTime"));
        Map<String, Long> older = executor(snap, "2").peakMetrics();
        assertEquals(ExecutorMetric.count(), older.size());
        assertTrue(older.values().stream().allMatch(v -> v == 0));
        // an executor that ran no task has none
        r.onEvent(new SparkEvent.ExecutorAdded(1200, "3", "h3", 2));
        assertTrue(executor(r.snapshot(), "3").peakMetrics().isEmpty());
    }

    @Test
    void aTaskStillRunningIsListedRunningUntilItEnds() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 2, 1000, -1, null)));
        TaskInfo t1 = task(1, 0, 1000, 1100, "1", false);
        r.onEvent(start(0, t1));
        StageSummary s = r.snapshot().stages().get(0);
        assertEquals(List.of(1L), s.runningTasks().stream().map(t -> t.taskId()).toList());
        assertEquals("RUNNING", s.runningTasks().get(0).status());
        assertEquals(List.of(), s.keptTasks());
        r.onEvent(start(0, task(2, 1, 1010, 1200, "1", false)));
        assertEquals(2, r.snapshot().stages().get(0).runningTasks().size());
        r.onEvent(success(0, 0, t1, metrics(80, 2)));
        s = r.snapshot().stages().get(0);
        assertEquals(List.of(2L), s.runningTasks().stream().map(t -> t.taskId()).toList());
        assertEquals(List.of(1L), s.keptTasks().stream().map(t -> t.taskId()).toList());
    }

    @Test
    void jobsOfAnExecutionNeverStartedMakeNoSqlExecution() {
        Recorder r = new Recorder();
        r.onEvent(job(0, 1000, Map.of("spark.sql.execution.id", "0"), 0, 1));
        r.onEvent(job(1, 1100, Map.of("spark.sql.execution.id", "1"), 1, 1));
        r.onEvent(new SparkEvent.SqlExecutionEnd(0, 1200, null));
        AppSnapshot snap = r.snapshot();
        assertEquals(List.of(), snap.sqlExecutions());
        assertEquals(0, snap.jobs().get(0).sqlExecutionId());
        // an execution that did start still gathers its jobs
        r.onEvent(new SparkEvent.SqlExecutionStart(2, "q", "plan", null, 1300));
        r.onEvent(job(2, 1300, Map.of("spark.sql.execution.id", "2"), 2, 1));
        snap = r.snapshot();
        assertEquals(1, snap.sqlExecutions().size());
        assertEquals(List.of(2), snap.sqlExecutions().get(0).jobIds());
    }
}
