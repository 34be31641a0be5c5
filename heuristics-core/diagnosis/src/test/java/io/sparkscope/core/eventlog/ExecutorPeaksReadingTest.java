package io.sparkscope.core.eventlog;

import io.sparkscope.core.analysis.efficiency.MemoryPeaks;
import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Executor peaks from every place an event log carries them: task ends, per-stage metrics, metrics updates. */
class ExecutorPeaksReadingTest {
    @TempDir
    Path dir;

    private TestLogs.Result readLines(String... lines) throws Exception {
        return TestLogs.read(TestLogs.write(dir.resolve("log"), List.of(lines)));
    }

    private static String taskEnd(long taskId, String executor, String executorMetrics) {
        return TestLogs.taskEnd(1, taskId).replace("\"Executor ID\":\"1\"", "\"Executor ID\":\"" + executor + "\"")
                .replace("\"Task Executor Metrics\":{\"JVMHeapMemory\":1,\"JVMOffHeapMemory\":2}",
                        "\"Task Executor Metrics\":" + executorMetrics);
    }

    @Test
    void taskEndCarriesTheExecutorsPeaks() throws Exception {
        TestLogs.Result r = readLines(taskEnd(1, "1", "{\"JVMHeapMemory\":500,\"OnHeapStorageMemory\":70,"
                + "\"ProcessTreePythonRSSMemory\":0,\"SomeFutureMetric\":9,\"MinorGCCount\":-1}"));
        assertEquals(List.of(), r.problems());
        ExecutorPeaks p = r.first(SparkEvent.TaskEnd.class).executorMetrics();
        assertEquals(500, p.get(ExecutorMetric.JVM_HEAP_MEMORY));
        assertEquals(70, p.get(ExecutorMetric.ON_HEAP_STORAGE_MEMORY));
        assertEquals(0, p.get(ExecutorMetric.PROCESS_TREE_PYTHON_RSS_MEMORY));
        // Spark's "not set" -1 and a name this version does not know are both absent
        assertEquals(ExecutorPeaks.ABSENT, p.get(ExecutorMetric.MINOR_GC_COUNT));
        assertEquals(Map.of("JVMHeapMemory", 500L, "OnHeapStorageMemory", 70L, "ProcessTreePythonRSSMemory", 0L),
                p.asMap());
        assertFalse(p.measuredNothing());
    }

    @Test
    void allZeroTaskMetricsMeanNotMeasuredButAreShownAsSparkShowsThem() throws Exception {
        TestLogs.Result r = readLines(TestLogs.APP_START,
                taskEnd(1, "1", "{\"JVMHeapMemory\":0,\"JVMOffHeapMemory\":0,\"OnHeapExecutionMemory\":0}"),
                TestLogs.APP_END);
        SparkEvent.TaskEnd end = r.first(SparkEvent.TaskEnd.class);
        assertTrue(end.executorMetrics().measuredNothing());
        AppSnapshot s = record(r);
        // Spark's History Server shows the executor's peaks, all 0; judging memory, a 0-byte heap is no measurement
        Map<String, Long> peaks = executor(s, "1").peakMetrics();
        assertEquals(ExecutorMetric.count(), peaks.size());
        assertTrue(peaks.values().stream().allMatch(v -> v == 0), peaks.toString());
        assertFalse(MemoryPeaks.of(executor(s, "1").peakMetrics()).measured());
    }

    @Test
    void anInvalidValueIsLeftOutWithOneWarning() throws Exception {
        TestLogs.Result r = readLines(taskEnd(1, "1", "{\"JVMHeapMemory\":\"lots\",\"JVMOffHeapMemory\":12.5,"
                + "\"DirectPoolMemory\":40}"));
        assertEquals(2, r.problems().size(), r.problems().toString());
        assertTrue(r.problems().get(0).contains("\"JVMHeapMemory\""), r.problems().get(0));
        assertTrue(r.problems().get(1).contains("\"JVMOffHeapMemory\""), r.problems().get(1));
        ExecutorPeaks p = r.first(SparkEvent.TaskEnd.class).executorMetrics();
        assertEquals(Map.of("DirectPoolMemory", 40L), p.asMap());
    }

    @Test
    void aLogWithoutExecutorMetricsHasNone() throws Exception {
        TestLogs.Result r = readLines(TestLogs.taskEnd(1, 1).replace(
                "\"Task Executor Metrics\":{\"JVMHeapMemory\":1,\"JVMOffHeapMemory\":2},", ""));
        assertNull(r.first(SparkEvent.TaskEnd.class).executorMetrics());
    }

    @Test
    void metricsUpdatesInBothShapesAreMerged() throws Exception {
        TestLogs.Result r = readLines(
                "{\"Event\":\"SparkListenerExecutorMetricsUpdate\",\"Executor ID\":\"2\",\"Metrics Updated\":["
                        + "{\"Task ID\":5,\"Stage ID\":1,\"Stage Attempt ID\":0,\"Accumulator Updates\":[]}],"
                        + "\"Executor Metrics Updated\":["
                        + "{\"Stage ID\":1,\"Stage Attempt ID\":0,\"Executor Metrics\":{\"JVMHeapMemory\":300,\"MajorGCTime\":4}},"
                        + "{\"Stage ID\":2,\"Stage Attempt ID\":0,\"Executor Metrics\":{\"JVMHeapMemory\":900,\"MajorGCTime\":3}}]}",
                "{\"Event\":\"SparkListenerExecutorMetricsUpdate\",\"Executor ID\":\"driver\","
                        + "\"Metrics Updated\":[],\"Executor Metrics Updated\":{\"JVMHeapMemory\":77,\"TotalGCTime\":15}}");
        assertEquals(List.of(), r.problems());
        List<SparkEvent.ExecutorMetricsUpdate> updates = r.of(SparkEvent.ExecutorMetricsUpdate.class);
        assertEquals("2", updates.get(0).executorId());
        assertEquals(Map.of("JVMHeapMemory", 900L, "MajorGCTime", 4L), updates.get(0).peaks().asMap());
        assertEquals(Map.of("JVMHeapMemory", 77L, "TotalGCTime", 15L), updates.get(1).peaks().asMap());
    }

    @Test
    void everySourceFoldsIntoTheExecutorsPeak() throws Exception {
        TestLogs.Result r = readLines(TestLogs.APP_START,
                taskEnd(1, "1", "{\"JVMHeapMemory\":500,\"OnHeapExecutionMemory\":10}"),
                taskEnd(2, "1", "{\"JVMHeapMemory\":400,\"OnHeapExecutionMemory\":30}"),
                taskEnd(3, "1", "{\"JVMHeapMemory\":0,\"OnHeapExecutionMemory\":0}"),
                "{\"Event\":\"SparkListenerStageExecutorMetrics\",\"Executor ID\":\"1\",\"Stage ID\":1,"
                        + "\"Stage Attempt ID\":0,\"Executor Metrics\":{\"JVMHeapMemory\":450,\"DirectPoolMemory\":8}}",
                "{\"Event\":\"SparkListenerExecutorMetricsUpdate\",\"Executor ID\":\"driver\",\"Metrics Updated\":[],"
                        + "\"Executor Metrics Updated\":[{\"Stage ID\":-1,\"Stage Attempt ID\":-1,"
                        + "\"Executor Metrics\":{\"JVMHeapMemory\":123,\"TotalGCTime\":42}}]}",
                TestLogs.APP_END);
        assertEquals(List.of(), r.problems());
        AppSnapshot s = record(r);
        // every metric a task end's sample lacks is 0 in Spark's reader: only these three were measured
        Map<String, Long> measured = new java.util.HashMap<>(executor(s, "1").peakMetrics());
        measured.values().removeIf(v -> v == 0);
        assertEquals(Map.of("JVMHeapMemory", 500L, "OnHeapExecutionMemory", 30L, "DirectPoolMemory", 8L), measured);
        assertEquals(ExecutorMetric.count(), executor(s, "1").peakMetrics().size());
        assertEquals(Map.of("JVMHeapMemory", 123L, "TotalGCTime", 42L), executor(s, "driver").peakMetrics());
        assertEquals(42, s.driverGcTimeMs(), "the driver's GC time from its heartbeat");
    }

    private static AppSnapshot record(TestLogs.Result r) {
        Recorder rec = new Recorder();
        r.events().forEach(rec::onEvent);
        return rec.snapshot();
    }

    private static ExecutorSummary executor(AppSnapshot s, String id) {
        return s.executors().stream().filter(e -> e.executorId().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no executor " + id));
    }
}
