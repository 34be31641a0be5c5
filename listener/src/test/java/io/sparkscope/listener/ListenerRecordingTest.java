package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.redact.Redactor;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The listener attached through spark.extraListeners records a real local application. */
class ListenerRecordingTest {

    @Test
    void recordsJobsStagesTasksAndQuantilesOfARealApplication() throws Exception {
        SparkSession spark = LocalSpark.start("listener-recording", Map.of(
                "spark.sparkscope.report.enabled", "true",
                "spark.sparkscope.jdbc.password", "never-in-logs",
                "spark.sparkscope.tasks.perStage", "not-a-number"));
        SparkscopeListener listener = SparkscopeListener.latest();
        assertNotNull(listener);
        String appId = spark.sparkContext().applicationId();
        LocalSpark.workload(spark);
        spark.stop();
        // A failed job's end may follow ApplicationEnd; the listener records such late events for a short while.
        ListenerOutageTest.waitFor("every job ended", java.time.Duration.ofSeconds(10), () ->
                listener.lastSnapshot() != null && listener.lastSnapshot().jobs().stream()
                        .noneMatch(j -> j.status() == JobStatus.RUNNING));

        AppSnapshot s = listener.lastSnapshot();
        assertNotNull(s, "final snapshot published at application end");
        assertEquals(appId, s.appId());
        assertTrue(s.complete());
        assertEquals("listener-recording", s.appName());
        assertNotNull(s.sparkVersion());
        // Each Spark line is tested by a Maven profile; the recorded version proves the job really ran on it.
        String built = System.getProperty("sparkscope.build.spark.version");
        if (built != null) {
            assertEquals(built, s.sparkVersion(), "the Spark version the job ran on");
        }
        assertTrue(s.jobs().size() >= 3, "jobs: " + s.jobs().size());
        assertTrue(s.jobs().stream().anyMatch(j -> j.status() == JobStatus.FAILED));
        assertTrue(s.stages().stream().anyMatch(st -> st.status() == StageStatus.FAILED));
        assertTrue(s.failedTasks() >= 2, "the recovered task and the failing job's attempts are counted");
        StageSummary shuffleMap = s.stages().stream()
                .filter(st -> st.status() == StageStatus.COMPLETE && st.numTasks() == 6).findFirst().orElseThrow();
        assertEquals(6, shuffleMap.taskSummary().count());
        assertTrue(shuffleMap.taskSummary().max(DistributionMetric.SHUFFLE_WRITE_BYTES) > 0);
        assertTrue(s.executors().stream().anyMatch(e -> e.executorId().equals("driver") && e.totalCores() == 2));
        assertEquals(Redactor.REDACTED, s.config().sparkProperties().get("spark.sparkscope.jdbc.password"));
        assertTrue(s.sqlExecutions().size() >= 1);
        assertEquals(0, listener.droppedEvents());
    }
}
