package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.redact.Redactor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.recorder.Events.failure;
import static io.sparkscope.core.recorder.Events.metrics;
import static io.sparkscope.core.recorder.Events.stage;
import static io.sparkscope.core.recorder.Events.success;
import static io.sparkscope.core.recorder.Events.task;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecorderTest {

    private static StageSummary only(AppSnapshot s) {
        assertEquals(1, s.stages().size());
        return s.stages().get(0);
    }

    @Test
    void oneTaskIsEveryQuantile() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        r.onEvent(success(0, 0, task(1, 0, 1000, 1100, "1", false), metrics(80, 5)));
        TaskDistributions d = only(r.snapshot()).taskSummary();
        assertEquals(1, d.count());
        assertEquals(80.0, d.min(DistributionMetric.EXECUTOR_RUN_TIME));
        assertEquals(80.0, d.max(DistributionMetric.EXECUTOR_RUN_TIME));
        assertEquals(100.0, d.median(DistributionMetric.DURATION));
        // schedulerDelay = 100 - 80 - 1 (deserialize) - 0 - 0
        assertEquals(19.0, d.median(DistributionMetric.SCHEDULER_DELAY));
    }

    @Test
    void failedAndMetriclessTasksAreOutsideQuantilesButFailedCountInTotals() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 4, 1000, -1, null)));
        r.onEvent(success(0, 0, task(1, 0, 1000, 1100, "1", false), metrics(10, 1)));
        r.onEvent(success(0, 0, task(2, 1, 1000, 1100, "1", false), metrics(30, 1)));
        r.onEvent(failure(0, 0, task(3, 2, 1000, 1100, "1", true), metrics(1000, 100)));
        r.onEvent(success(0, 0, task(4, 3, 1000, 1100, "1", false), null));
        StageSummary s = only(r.snapshot());
        assertEquals(2, s.taskSummary().count());
        assertEquals(30.0, s.taskSummary().max(DistributionMetric.EXECUTOR_RUN_TIME));
        assertEquals(1040, s.totals().get(TaskMetric.EXECUTOR_RUN_TIME), "totals include the failed task");
        assertEquals(102, s.totals().get(TaskMetric.JVM_GC_TIME));
        assertEquals(3, s.numCompleteTasks());
        assertEquals(1, s.numFailedTasks());
        assertEquals(Map.of("ExceptionFailure", 1), s.endReasons());
        assertTrue(s.keptTasks().stream().anyMatch(t -> t.taskId() == 3 && t.status().equals("FAILED")
                && t.errorMessage().contains("boom")));
    }

    @Test
    void tiesAndEachMetricSortedOnItsOwn() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withQuantiles(new double[] {0.25, 0.5, 0.75}));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 4, 1000, -1, null)));
        long[][] runGc = {{50, 1}, {10, 9}, {50, 5}, {20, 3}};
        for (int i = 0; i < runGc.length; i++) {
            r.onEvent(success(0, 0, task(i, i, 1000, 1200, "1", false), metrics(runGc[i][0], runGc[i][1])));
        }
        TaskDistributions d = only(r.snapshot()).taskSummary().restrictTo(new double[] {0.25, 0.5, 0.75});
        // run: 10 20 50 50 -> idx 1,2,3 ; gc: 1 3 5 9 -> idx 1,2,3
        assertArrayEquals(new double[] {20, 50, 50}, d.values(DistributionMetric.EXECUTOR_RUN_TIME));
        assertArrayEquals(new double[] {3, 5, 9}, d.values(DistributionMetric.JVM_GC_TIME));
    }

    @Test
    void missingMetricsAreZero() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        r.onEvent(success(0, 0, task(1, 0, 1000, 1010, "1", false), TaskMetrics.builder().build()));
        TaskDistributions d = only(r.snapshot()).taskSummary();
        assertEquals(0.0, d.max(DistributionMetric.SHUFFLE_READ_BYTES));
        assertEquals(0.0, d.max(DistributionMetric.EXECUTOR_CPU_TIME));
        assertEquals(10.0, d.max(DistributionMetric.SCHEDULER_DELAY));
    }

    @Test
    void gettingResultTimeAndDerivedShuffleRead() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 1, 1000, -1, null)));
        TaskInfo info = new TaskInfo(1, 0, 0, 0, 1000, "1", "h", "ANY", false, 1090, 1100, false, false);
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 50)
                .set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ, 7).set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, 5)
                .set(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED, 2).set(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED, 3)
                .build();
        r.onEvent(success(0, 0, info, m));
        TaskDistributions d = only(r.snapshot()).taskSummary();
        assertEquals(10.0, d.max(DistributionMetric.GETTING_RESULT_TIME));
        assertEquals(40.0, d.max(DistributionMetric.SCHEDULER_DELAY)); // 100 - 50 - 10
        assertEquals(12.0, d.max(DistributionMetric.SHUFFLE_READ_BYTES));
        assertEquals(5.0, d.max(DistributionMetric.SHUFFLE_TOTAL_BLOCKS_FETCHED));
    }

    @Test
    void stageAttemptsAreKeptApart() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StageSubmitted(stage(3, 0, 2, 1000, -1, null)));
        r.onEvent(success(3, 0, task(1, 0, 1000, 1100, "1", false), metrics(10, 0)));
        r.onEvent(new SparkEvent.StageCompleted(stage(3, 0, 2, 1000, 2000, "FetchFailed: lost")));
        r.onEvent(new SparkEvent.StageSubmitted(stage(3, 1, 1, 2100, -1, null)));
        r.onEvent(success(3, 1, task(2, 1, 2100, 2300, "2", false), metrics(99, 0)));
        r.onEvent(new SparkEvent.StageCompleted(stage(3, 1, 1, 2100, 2400, null)));
        List<StageSummary> stages = r.snapshot().stages();
        assertEquals(2, stages.size());
        assertEquals(StageStatus.FAILED, stages.get(0).status());
        assertEquals("FetchFailed: lost", stages.get(0).failureReason());
        assertEquals(10.0, stages.get(0).taskSummary().max(DistributionMetric.EXECUTOR_RUN_TIME));
        assertEquals(StageStatus.COMPLETE, stages.get(1).status());
        assertEquals(99.0, stages.get(1).taskSummary().max(DistributionMetric.EXECUTOR_RUN_TIME));
        assertEquals(300, stages.get(1).durationMs());
    }

    @Test
    void everyTaskKeptUpToTheCapSlowestFirstPlusAllFailed() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(20));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 20, 1000, -1, null)));
        for (int i = 0; i < 20; i++) {
            r.onEvent(success(0, 0, task(i, i, 1000, 1000 + 10L * i, "1", false), metrics(5, 0)));
        }
        r.onEvent(failure(0, 0, task(100, 0, 1000, 1001, "1", true), metrics(1, 0)));
        StageSummary s = only(r.snapshot());
        assertEquals(21, s.keptTasks().size());
        assertEquals(List.of(19L, 18L, 17L), s.keptTasks().subList(0, 3).stream().map(t -> t.taskId()).toList());
        assertEquals(100L, s.keptTasks().get(20).taskId(), "failed ones come last");
        assertEquals(StageSummary.TaskDetail.ALL, s.taskDetail());
    }

    @Test
    void pastTheCapTheSlowestHalfAndAUniformSampleAreKept() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(3));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 20, 1000, -1, null)));
        for (int i = 0; i < 20; i++) {
            r.onEvent(success(0, 0, task(i, i, 1000, 1000 + 10L * i, "1", false), metrics(5, 0)));
        }
        r.onEvent(failure(0, 0, task(100, 0, 1000, 1001, "1", true), metrics(1, 0)));
        StageSummary s = only(r.snapshot());
        List<Long> ids = s.keptTasks().stream().map(t -> t.taskId()).toList();
        // cap 3: the ⌈3/2⌉ = 2 slowest, 1 of the 18 others, then the failed one
        assertEquals(List.of(19L, 18L), ids.subList(0, 2));
        assertTrue(ids.get(2) < 18, ids.toString());
        assertEquals(100L, ids.get(3));
        assertEquals(4, ids.size());
        assertEquals(StageSummary.TaskDetail.SAMPLED, s.taskDetail());
        assertTrue(s.tasksSampled());
    }

    @Test
    void pastTheExactLimitQuantilesComeFromASampleAndSaySo() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withExactTaskLimit(1000));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 10_000, 1000, -1, null)));
        for (int i = 0; i < 10_000; i++) {
            r.onEvent(success(0, 0, task(i, i, 1000, 2000, "1", false), metrics(i, 0)));
        }
        TaskDistributions d = only(r.snapshot()).taskSummary();
        assertFalse(d.exact());
        assertEquals(10_000, d.count());
        // uniform sample of 1000 from 0..9999: the median lies within a few percent of 5000
        assertEquals(5000, d.median(DistributionMetric.EXECUTOR_RUN_TIME), 500);
    }

    @Test
    void completedStagesAreReducedToQuantilesPastTheRetentionBudget() {
        Recorder r = new Recorder(new RecorderOptions(10, 10, TaskDistributions.SPARK_DEFAULT_QUANTILES, 1000, 5));
        for (int st = 0; st < 3; st++) {
            r.onEvent(new SparkEvent.StageSubmitted(stage(st, 0, 4, 1000, -1, null)));
            for (int i = 0; i < 4; i++) {
                r.onEvent(success(st, 0, task(st * 10L + i, i, 1000, 1100, "1", false), metrics(10 + i, 0)));
            }
            r.onEvent(new SparkEvent.StageCompleted(stage(st, 0, 4, 1000, 1200, null)));
        }
        assertTrue(r.stagesHoldingValues() <= 1, "at most 5 retained rows = one 4-task stage");
        for (StageSummary s : r.snapshot().stages()) {
            assertEquals(13.0, s.taskSummary().max(DistributionMetric.EXECUTOR_RUN_TIME));
            assertEquals(4, s.taskSummary().count());
        }
    }

    @Test
    void jobsSkippedStagesAndAppLifecycle() {
        Recorder r = new Recorder();
        r.onEvent(Events.appStart(1000));
        r.onEvent(new SparkEvent.JobStart(0, 1000, List.of(0, 1),
                List.of(stage(0, 0, 2, -1, -1, null), stage(1, 0, 3, -1, -1, null)),
                Map.of("spark.jobGroup.id", "g")));
        r.onEvent(new SparkEvent.StageSubmitted(stage(1, 0, 3, 1100, -1, null)));
        r.onEvent(success(1, 0, task(1, 0, 1100, 1200, "1", false), metrics(10, 0)));
        r.onEvent(new SparkEvent.StageCompleted(stage(1, 0, 3, 1100, 1300, null)));
        r.onEvent(new SparkEvent.JobEnd(0, 1400, false, "Job aborted"));
        AppSnapshot running = r.snapshot();
        assertFalse(running.complete());
        assertEquals("RUNNING", running.status());
        assertEquals(400, running.durationMs());
        r.onEvent(new SparkEvent.ApplicationEnd(2000));
        AppSnapshot s = r.snapshot();
        assertTrue(s.complete());
        assertEquals(1000, s.durationMs());
        assertEquals(JobStatus.FAILED, s.jobs().get(0).status());
        assertEquals("Job aborted", s.jobs().get(0).failureReason());
        assertEquals("stage 1", s.jobs().get(0).name());
        assertEquals(5, s.jobs().get(0).numTasks());
        assertEquals(1, s.jobs().get(0).numSkippedStages());
        assertEquals(StageStatus.SKIPPED, s.stages().get(0).status());
        assertNull(s.stages().get(0).taskSummary());
        assertEquals(List.of(0), s.stages().get(1).jobIds());
    }

    @Test
    void secretsAreRedactedWithSparksRule() {
        Recorder r = new Recorder();
        r.onEvent(Events.env(Map.of("spark.sparkscope.jdbc.password", "hunter2", "spark.app.name", "x",
                "spark.custom", "my-token-value", "spark.hadoop.fs.s3a.access.key", "AKIA")));
        Map<String, String> p = r.snapshot().config().sparkProperties();
        assertEquals(Redactor.REDACTED, p.get("spark.sparkscope.jdbc.password"));
        assertEquals(Redactor.REDACTED, p.get("spark.custom"), "a value matching the regex is redacted too");
        assertEquals(Redactor.REDACTED, p.get("spark.hadoop.fs.s3a.access.key"));
        assertEquals("x", p.get("spark.app.name"));
    }

    @Test
    void customRedactionRegexIsHonoured() {
        Recorder r = new Recorder();
        r.onEvent(Events.env(Map.of("spark.redaction.regex", "(?i)mykey", "spark.mykey", "v", "spark.password", "p",
                "spark.note", "my-token-value")));
        Map<String, String> p = r.snapshot().config().sparkProperties();
        assertEquals(Redactor.REDACTED, p.get("spark.mykey"));
        assertEquals("my-token-value", p.get("spark.note"), "Spark replaces the default regex when one is set");
        assertEquals(Redactor.REDACTED, p.get("spark.password"), "a credential-shaped key is redacted whatever the regex");
    }

    @Test
    void executorsSumTheirTasksAndLocalDriverGetsCoresFromMaster() {
        Recorder r = new Recorder();
        r.onEvent(Events.env(Map.of("spark.master", "local[4]")));
        r.onEvent(new SparkEvent.BlockManagerAdded(900, "driver", "localhost", 1_000_000));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, 0, 2, 1000, -1, null)));
        r.onEvent(success(0, 0, task(1, 0, 1000, 1100, "driver", false), metrics(80, 7)));
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", new TaskEndReason("TaskKilled", "killed", null),
                new TaskInfo(2, 1, 0, 1, 1000, "driver", "h", "ANY", false, 0, 1050, false, true), metrics(20, 1)));
        r.onEvent(new SparkEvent.StageExecutorMetrics("driver", 0, 0, Map.of("TotalGCTime", 321L)));
        AppSnapshot s = r.snapshot();
        var driver = s.executors().get(0);
        assertEquals(4, driver.totalCores());
        assertEquals(150, driver.totalDuration());
        assertEquals(8, driver.totalGcTime());
        assertEquals(1, driver.completedTasks());
        assertEquals(1, driver.killedTasks());
        assertEquals(321, s.driverGcTimeMs());
        assertEquals(1_000_000, s.driverMaxMemory());
        StageSummary st = s.stages().get(0);
        assertEquals(1, st.numKilledTasks());
        assertEquals(1, st.taskSummary().count(), "killed tasks are not in the quantiles");
    }

    @Test
    void unknownEventsAreCounted() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.Unknown("SparkListenerFoo"));
        r.onEvent(new SparkEvent.Unknown("SparkListenerFoo"));
        assertEquals(Map.of("SparkListenerFoo", 2L), r.snapshot().unknownEventTypes());
        assertEquals(2, r.snapshot().eventCount());
    }
}
