package io.sparkscope.server.web.api;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Executors and tasks in Spark's REST shape where Spark's own rules decide a value. */
class SparkRestJsonTest {

    private static ExecutorSummary driver(long taskGcMs, Map<String, Long> peaks) {
        return ExecutorSummary.builder().executorId("driver").host("h").totalCores(2).addTime(1000).maxMemory(1 << 20)
                .completedTasks(4).totalDuration(400).totalRunTime(300).totalGcTime(taskGcMs).peakMetrics(peaks)
                .build();
    }

    @Test
    void theDriversGcTimeIsItsPeaksTotalWheneverItHasPeaks() {
        // Spark's AppStatusStore: TotalGCTime of the driver's peak metrics, 0 where they lack it (all zeros, or a
        // Spark 3.0 log with only minor and major GC time); its tasks' GC time only without any peaks
        assertEquals(120, SparkRestJson.Executor.of(driver(35, Map.of("TotalGCTime", 120L)), 1, 5000).totalGCTime());
        assertEquals(0, SparkRestJson.Executor.of(driver(35, Map.of("JVMHeapMemory", 0L, "TotalGCTime", 0L)), 1, 5000)
                .totalGCTime());
        assertEquals(0, SparkRestJson.Executor.of(driver(35, Map.of("MinorGCTime", 7L)), 1, 5000).totalGCTime());
        assertEquals(35, SparkRestJson.Executor.of(driver(35, Map.of()), 1, 5000).totalGCTime());
    }

    @Test
    void allZeroPeaksAreShownAsSparkShowsThem() {
        Map<String, Long> shown = SparkRestJson.Executor.of(driver(0, Map.of("JVMHeapMemory", 0L)), 1, 5000)
                .peakMemoryMetrics();
        assertEquals(SparkRestJson.PEAK_METRICS.size(), shown.size());
        assertEquals(0L, shown.get("TotalGCTime"));
    }

    @Test
    void aRunningTaskIsListedRunningWithoutMetricsOrDuration() {
        TaskRecord running = TaskRecord.builder().taskId(7).index(3).partitionId(3).executorId("1").host("h1")
                .locality("PROCESS_LOCAL").launchTime(1_422_981_759_000L).status("RUNNING").build();
        SparkRestJson.Task t = SparkRestJson.Task.of(running);
        assertEquals("RUNNING", t.status());
        assertEquals("2015-02-03T16:42:39.000GMT", t.launchTime());
        assertNull(t.duration());
        assertNull(t.taskMetrics());
        assertNull(t.errorMessage());
    }
}
