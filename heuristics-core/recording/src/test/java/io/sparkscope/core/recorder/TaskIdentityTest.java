package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.sparkscope.core.recorder.Events.metrics;
import static io.sparkscope.core.recorder.Events.stage;
import static io.sparkscope.core.recorder.Events.success;
import static io.sparkscope.core.recorder.Events.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A task id that ends more than once, speculative copies and repeated lines, counted the way Spark's
 * AppStatusListener counts them: a task id's first end and its Resubmitted end in the completed / failed / killed
 * counts (a repeated line nowhere), only the first end in its metrics, quantiles and kept record, nothing after the
 * stage attempt closed.
 */
class TaskIdentityTest {
    static final TaskEndReason RESUBMITTED = new TaskEndReason("Resubmitted", "resubmitted due to lost executor", null);
    static final TaskEndReason KILLED = new TaskEndReason("TaskKilled", "another attempt succeeded", null);

    private static SparkEvent.TaskStart start(int stage, TaskInfo info) {
        TaskInfo running = new TaskInfo(info.taskId(), info.index(), info.attempt(), info.partitionId(),
                info.launchTime(), info.executorId(), info.host(), info.locality(), info.speculative(), 0, 0, false,
                false);
        return new SparkEvent.TaskStart(stage, 0, running);
    }

    private static SparkEvent.TaskEnd end(int stage, TaskEndReason reason, TaskInfo info,
                                          io.sparkscope.core.event.TaskMetrics m) {
        return new SparkEvent.TaskEnd(stage, 0, "ShuffleMapTask", reason, info, m);
    }

    private static StageSummary only(AppSnapshot s) {
        assertEquals(1, s.stages().size());
        return s.stages().get(0);
    }

    private static void assertOneRecordPerTaskId(StageSummary s) {
        Set<Long> ids = new HashSet<>();
        for (TaskRecord t : s.keptTasks()) {
            assertTrue(ids.add(t.taskId()), "task " + t.taskId() + " kept twice in stage " + s.key());
        }
    }

    @Test
    void aFinishedTaskResubmittedAfterItsExecutorWasLostStaysOneSuccessfulTask() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ExecutorAdded(900, "1", "h1", 2));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 2, 1000, -1, null)));
        TaskInfo t1 = task(1, 0, 1000, 1100, "1", false);
        TaskInfo t2 = task(2, 1, 1000, 1200, "1", false);
        r.onEvent(start(0, t1));
        r.onEvent(start(0, t2));
        r.onEvent(success(0, 0, t1, metrics(80, 5)));
        r.onEvent(success(0, 0, t2, metrics(150, 5)));
        // Executor 1 is lost while the stage still runs: Spark reports task 1 again, with its original TaskInfo.
        // (Spark sends no metrics with it; these must be ignored wherever they would count twice.)
        r.onEvent(end(0, RESUBMITTED, t1, metrics(80, 5)));
        TaskInfo t3 = task(3, 0, 1300, 1350, "2", false);
        r.onEvent(start(0, t3));
        r.onEvent(success(0, 0, t3, metrics(40, 1)));
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 2, 1000, 1400, null)));

        AppSnapshot snap = r.snapshot();
        StageSummary s = only(snap);
        // Spark's numbers (what the History Server shows for this stage attempt)
        assertEquals(3, s.numCompleteTasks());
        assertEquals(1, s.numFailedTasks(), "Spark counts the Resubmitted end as a failed one");
        assertEquals(0, s.numKilledTasks());
        assertEquals(2, s.numCompletedIndices());
        assertEquals(80 + 150 + 40, s.totals().get(TaskMetric.EXECUTOR_RUN_TIME), "the repeat adds no metrics");
        assertEquals(3, s.taskSummary().count(), "task 1 stays a success in the quantiles, once");
        // and what they mean
        assertEquals(1, s.numResubmittedTasks());
        assertEquals(0, s.numFailedAttempts());
        assertEquals(3, s.endedTasks());
        assertEquals(4, s.taskEndEvents());
        assertEquals(0, s.numDuplicateTaskEnds());
        assertEquals(0, s.numActiveTasks());
        assertEquals(StageStatus.COMPLETE, s.status());
        assertEquals(3, s.keptTasks().size());
        assertOneRecordPerTaskId(s);
        TaskRecord first = s.keptTasks().stream().filter(t -> t.taskId() == 1).findFirst().orElseThrow();
        assertEquals("SUCCESS", first.status(), "the second end does not update the task");
        assertEquals(100 + 200 + 50, s.taskTimes().durationMs());
        // Executors: Spark counts the repeat (a failure, its duration) but not its metrics.
        ExecutorSummary e1 = snap.executors().stream().filter(e -> e.executorId().equals("1")).findFirst().orElseThrow();
        assertEquals(2, e1.completedTasks());
        assertEquals(1, e1.failedTasks());
        assertEquals(80 + 150, e1.totalRunTime());
        assertEquals(10, e1.totalGcTime());
        assertEquals(100 + 200 + 100, e1.totalDuration());
        assertEquals(3, snap.totalTasks());
        assertEquals(4, snap.taskEndEvents());
        assertEquals(1, snap.resubmittedTasks());
    }

    @Test
    void aDuplicatedTaskEndLineAddsNothingButItsDuplicateCount() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        TaskInfo t = task(7, 0, 1000, 1100, "1", false);
        r.onEvent(start(0, t));
        SparkEvent.TaskEnd line = success(0, 0, t, metrics(90, 3));
        r.onEvent(line);
        r.onEvent(line);
        StageSummary s = only(r.snapshot());
        assertEquals(1, s.numCompleteTasks(), "a repeated line is no second completed task (Spark's would be)");
        assertEquals(1, s.numCompletedIndices());
        assertEquals(1, s.endedTasks());
        assertEquals(1, s.numDuplicateTaskEnds());
        assertEquals(90, s.totals().get(TaskMetric.EXECUTOR_RUN_TIME));
        assertEquals(1, s.taskSummary().count());
        assertEquals(1, s.keptTasks().size());
        assertEquals(0, s.numActiveTasks());
    }

    @Test
    void aRepeatedTaskStartIsOneRunningTask() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        TaskInfo t = task(7, 0, 1000, 1100, "1", false);
        r.onEvent(start(0, t));
        r.onEvent(start(0, t));
        assertEquals(1, only(r.snapshot()).numActiveTasks());
        r.onEvent(success(0, 0, t, metrics(90, 3)));
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 1, 1000, 1200, null)));
        assertEquals(0, only(r.snapshot()).numActiveTasks(), "no task left running forever");
    }

    @Test
    void speculativeCopiesAreTasksOfTheirOwnOnOneIndex() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 2, 1000, -1, null)));
        TaskInfo slow = new TaskInfo(1, 0, 0, 0, 1000, "1", "h1", "ANY", false, 0, 1900, false, true);
        TaskInfo copy = new TaskInfo(2, 0, 1, 0, 1500, "2", "h2", "ANY", true, 0, 1600, false, false);
        TaskInfo other = task(3, 1, 1000, 1100, "2", false);
        TaskInfo otherCopy = new TaskInfo(4, 1, 1, 1, 1050, "1", "h1", "ANY", true, 0, 1120, false, false);
        for (TaskInfo t : List.of(slow, copy, other, otherCopy)) {
            r.onEvent(start(0, t));
        }
        r.onEvent(success(0, 0, copy, metrics(90, 0)));
        r.onEvent(success(0, 0, other, metrics(90, 0)));
        r.onEvent(success(0, 0, otherCopy, metrics(60, 0))); // both attempts of index 1 succeed
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 2, 1000, 1700, null)));
        // the original of index 0 is killed after the stage completed: it was still running, so it still counts
        r.onEvent(end(0, KILLED, slow, metrics(850, 0)));
        StageSummary s = only(r.snapshot());
        assertEquals(3, s.numCompleteTasks());
        assertEquals(1, s.numKilledTasks());
        assertEquals(2, s.numCompletedIndices());
        assertEquals(2, s.numSpeculativeTasks());
        assertEquals(4, s.endedTasks());
        assertEquals(4, s.keptTasks().size());
        assertOneRecordPerTaskId(s);
        assertEquals(90 + 90 + 60 + 850, s.totals().get(TaskMetric.EXECUTOR_RUN_TIME));
        assertEquals(0, s.numActiveTasks());
    }

    @Test
    void taskEventsOfAClosedStageAttemptChangeNothing() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        TaskInfo t = task(1, 0, 1000, 1100, "1", false);
        r.onEvent(start(0, t));
        r.onEvent(success(0, 0, t, metrics(90, 3)));
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 1, 1000, 1200, null)));
        StageSummary before = only(r.snapshot());
        // Spark has forgotten the stage attempt: a repeated end, a late end of an unknown task, a repeated completion
        r.onEvent(success(0, 0, t, metrics(90, 3)));
        r.onEvent(Events.failure(0, 0, task(99, 0, 1000, 1300, "1", true), metrics(5, 0)));
        r.onEvent(new SparkEvent.StageCompleted(stage(0, 0, 1, 1000, 5000, "late failure")));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 6000, -1, null)));
        assertEquals(before, only(r.snapshot()));
    }

    @Test
    void indicesOfAnyValueNeitherThrowNorAllocateByValue() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 3, 1000, -1, null)));
        int[] indices = {-1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0};
        for (int i = 0; i < indices.length; i++) {
            r.onEvent(success(0, 0, task(i, indices[i], 1000, 1100, "1", false), metrics(10, 0)));
        }
        StageSummary s = only(r.snapshot());
        assertEquals(4, s.numCompletedIndices(), "each distinct index counts once, as Spark's hash set counts it");
        assertEquals(4, s.numCompleteTasks());

        SparseBits bits = new SparseBits();
        for (long v : new long[]{-1, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE}) {
            bits.add(v);
        }
        assertEquals(4, bits.size());
        assertTrue(bits.contains(Long.MIN_VALUE) && bits.contains(-1) && !bits.contains(0));
        assertTrue(bits.approxBytes() <= 4L * SparseBits.BYTES_PER_BLOCK, "one block per scattered value");
        SparseBits dense = new SparseBits();
        for (int i = 0; i < 100_000; i++) {
            dense.add(i);
        }
        assertEquals(100_000, dense.size());
        assertTrue(dense.approxBytes() < 100_000 / 8 * 3, "about a bit per dense value: " + dense.approxBytes());

        // Runs of neighbours, jumps back to earlier blocks and repeats (as speculative copies and retries give):
        // the answer of each add, and the set afterwards, are a HashSet's.
        SparseBits mixed = new SparseBits();
        java.util.Set<Long> reference = new java.util.HashSet<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        long next = -600;
        for (int i = 0; i < 20_000; i++) {
            int dice = random.nextInt(10);
            long v = dice < 6 ? next++ : dice < 8 ? random.nextLong(-2_000, 3_000) : next - random.nextInt(1, 700);
            assertEquals(reference.add(v), mixed.add(v), "add(" + v + ") at step " + i);
        }
        assertEquals(reference.size(), mixed.size());
        for (long v = -2_100; v < next + 10; v++) {
            assertEquals(reference.contains(v), mixed.contains(v), "contains(" + v + ")");
        }
    }
}
