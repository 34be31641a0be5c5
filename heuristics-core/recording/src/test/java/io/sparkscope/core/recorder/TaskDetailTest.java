package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimeSums;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static io.sparkscope.core.recorder.Events.failure;
import static io.sparkscope.core.recorder.Events.metrics;
import static io.sparkscope.core.recorder.Events.stage;
import static io.sparkscope.core.recorder.Events.success;
import static io.sparkscope.core.recorder.Events.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-stage task cap, its slowest-plus-uniform sample past the cap, the application budget and time sums. */
class TaskDetailTest {

    /** n tasks of stage 0 with shuffled, distinct durations 1…n ms (task id = duration). */
    private static Recorder stageOf(int n, RecorderOptions options, long shuffleSeed) {
        Recorder r = new Recorder(options);
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, n, 1000, -1, null)));
        int[] durations = new int[n];
        for (int i = 0; i < n; i++) {
            durations[i] = i + 1;
        }
        SplittableRandom rnd = new SplittableRandom(shuffleSeed);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = durations[i];
            durations[i] = durations[j];
            durations[j] = t;
        }
        for (int i = 0; i < n; i++) {
            int d = durations[i];
            r.onEvent(success(0, 0, task(d, i, 1000, 1000 + d, "1", false), metrics(Math.max(0, d - 2), 0)));
        }
        return r;
    }

    @Test
    void atTheCapEveryTaskIsKeptAndNotSampled() {
        StageSummary s = stageOf(1000, RecorderOptions.DEFAULTS.withTasksPerStage(1000), 1).snapshot().stages().get(0);
        assertEquals(1000, s.keptTasks().size());
        assertEquals(TaskDetail.ALL, s.taskDetail());
        assertFalse(s.tasksSampled());
        assertEquals(1000, s.keptTasks().get(0).durationMs(), "slowest first");
        assertEquals(1, s.keptTasks().get(999).durationMs());
    }

    @Test
    void pastTheCapTheTrueSlowestHalfAndAUniformSampleOfTheRest() {
        int n = 20_000;
        int cap = 1000;
        StageSummary s = stageOf(n, RecorderOptions.DEFAULTS.withTasksPerStage(cap), 7).snapshot().stages().get(0);
        List<TaskRecord> kept = s.keptTasks();
        assertEquals(cap, kept.size());
        assertEquals(TaskDetail.SAMPLED, s.taskDetail());
        assertTrue(s.tasksSampled());
        assertEquals(n, s.endedTasks());
        // The 500 slowest of the stage are exactly durations n-499 … n, first in the list.
        for (int i = 0; i < cap / 2; i++) {
            assertEquals(n - i, kept.get(i).durationMs(), "rank " + i);
        }
        // The other 500 are distinct and drawn from 1 … n-500; uniform: their mean is near (n-500)/2 and they spread
        // over the whole range (a biased sample, e.g. "the next slowest", would sit near the top).
        Set<Long> ids = new HashSet<>();
        double sum = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (TaskRecord t : kept.subList(cap / 2, cap)) {
            assertTrue(ids.add(t.taskId()));
            assertTrue(t.durationMs() <= n - cap / 2, "sampled ones are not among the slowest");
            sum += t.durationMs();
            min = Math.min(min, t.durationMs());
            max = Math.max(max, t.durationMs());
        }
        double mean = sum / (cap / 2);
        double expected = (n - cap / 2 + 1) / 2.0;
        // standard error of the mean of 500 uniform draws over 19 500 values ≈ 19 500 / √12 / √500 ≈ 252
        assertEquals(expected, mean, 4 * 252, "mean of the uniform half");
        assertTrue(min < 0.05 * n && max > 0.9 * (n - cap / 2), "spread " + min + "…" + max);
    }

    @Test
    void theSampleIsTheSameForTheSameEvents() {
        RecorderOptions o = RecorderOptions.DEFAULTS.withTasksPerStage(100);
        List<TaskRecord> a = stageOf(5000, o, 3).snapshot().stages().get(0).keptTasks();
        List<TaskRecord> b = stageOf(5000, o, 3).snapshot().stages().get(0).keptTasks();
        assertEquals(a, b, "fixed seed per stage: live and replayed runs keep the same tasks");
    }

    @Test
    void failedTasksAreKeptBesidesTheCap() {
        Recorder r = stageOf(300, RecorderOptions.DEFAULTS.withTasksPerStage(100), 5);
        for (int i = 0; i < 7; i++) {
            r.onEvent(failure(0, 0, task(10_000 + i, i, 1000, 1001, "1", true), metrics(1, 0)));
        }
        StageSummary s = r.snapshot().stages().get(0);
        assertEquals(107, s.keptTasks().size());
        assertEquals(7, s.keptTasks().stream().filter(t -> "FAILED".equals(t.status())).count());
        assertEquals(307, s.endedTasks());
    }

    @Test
    void quantilesStayExactWhateverTheCap() {
        // The cap only chooses the task records kept; the Spark-exact statistics see every task.
        var a = stageOf(3000, RecorderOptions.DEFAULTS.withTasksPerStage(10), 9).snapshot().stages().get(0);
        var b = stageOf(3000, RecorderOptions.DEFAULTS.withTasksPerStage(10_000), 9).snapshot().stages().get(0);
        assertEquals(a.taskSummary().count(), b.taskSummary().count());
        for (DistributionMetric m : DistributionMetric.values()) {
            assertEquals(a.taskSummary().median(m), b.taskSummary().median(m), m.path);
        }
        assertEquals(a.totals().get(TaskMetric.EXECUTOR_RUN_TIME), b.totals().get(TaskMetric.EXECUTOR_RUN_TIME));
        assertTrue(a.taskSummary().exact());
    }

    @Test
    void theApplicationBudgetThinsTheOldestCompletedStagesToTheirSlowest() {
        RecorderOptions o = RecorderOptions.DEFAULTS.withTasksPerStage(1000).withRetainedDetailTasks(2500);
        Recorder r = new Recorder(o);
        for (int st = 0; st < 4; st++) {
            r.onEvent(new SparkEvent.StageSubmitted(stage(st, 0, 1000, 1000, -1, null)));
            for (int i = 0; i < 1000; i++) {
                long id = st * 10_000L + i;
                r.onEvent(success(st, 0, task(id, i, 1000, 1001 + i, "1", false), metrics(i, 0)));
            }
            r.onEvent(new SparkEvent.StageCompleted(stage(st, 0, 1000, 1000, 3000, null)));
        }
        List<StageSummary> stages = r.snapshot().stages();
        // 4 000 kept > 2 500: stages 0 and 1 (oldest) are thinned to their 100 slowest, 2 and 3 keep all.
        assertEquals(List.of(100, 100, 1000, 1000), stages.stream().map(s -> s.keptTasks().size()).toList());
        assertEquals(TaskDetail.SLOWEST, stages.get(0).taskDetail());
        assertEquals(TaskDetail.ALL, stages.get(3).taskDetail());
        assertEquals(1000, stages.get(0).keptTasks().get(0).durationMs());
        assertEquals(901, stages.get(0).keptTasks().get(99).durationMs(), "the 100 slowest of 1…1000 ms");
        assertEquals(1000, stages.get(0).taskSummary().count(), "quantiles untouched");
    }

    @Test
    void derivedTaskTimesAreSummedOverTasksWithMetrics() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 3, 1000, -1, null)));
        // 100 ms: run 50, deserialize 10, result ser 5, getting result 20 (1080 → 1100) → scheduler delay 15
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 50)
                .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 10).set(TaskMetric.RESULT_SERIALIZATION_TIME, 5).build();
        r.onEvent(success(0, 0, new TaskInfo(1, 0, 0, 0, 1000, "1", "h", "ANY", false, 1080, 1100, false, false), m));
        // run longer than the duration: scheduler delay clamps at 0 (Spark's rule)
        r.onEvent(success(0, 0, task(2, 1, 1000, 1010, "1", false), metrics(30, 0)));
        // no metrics: not counted (as in the stage totals)
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", new TaskEndReason("ExecutorLostFailure", "lost", null),
                task(3, 2, 1000, 1500, "1", true), null));
        TaskTimeSums t = r.snapshot().stages().get(0).taskTimes();
        assertEquals(new TaskTimeSums(110, 15, 20), t);
    }

    @Test
    void aSnapshotWithoutDetailInformationReadsAsTheOldSlowestRule() {
        StageSummary s = stageOf(50, RecorderOptions.DEFAULTS.withTasksPerStage(10), 2).snapshot().stages().get(0);
        // as a source without the task detail and counts gives it
        StageSummary legacy = s.toBuilder().taskDetail(null).taskTimes(null).deriveTaskCounts().build();
        assertEquals(TaskDetail.SLOWEST, legacy.taskDetail());
        assertNotEquals(legacy, s);
    }
}
