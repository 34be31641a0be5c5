package io.sparkscope.listener;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live run learns executor peaks from heartbeats, whatever the application logs; its own event log (with
 * {@code spark.eventLog.logStageExecutorMetrics=true}) holds peaks of the same samples taken while stages ran.
 */
class ExecutorPeaksLiveTest {
    private static final int CACHED_MIB = 48;

    @Test
    void heartbeatPeaksAgreeWithTheRunsOwnEventLog(@TempDir Path eventLogDir) throws Exception {
        SparkSession spark = LocalSpark.start("peaks-live", Map.of(
                "spark.executor.heartbeatInterval", "200ms",
                "spark.eventLog.enabled", "true",
                "spark.eventLog.logStageExecutorMetrics", "true",
                "spark.eventLog.dir", eventLogDir.toUri().toString()));
        SparkscopeListener listener = SparkscopeListener.latest();
        String appId = spark.sparkContext().applicationId();
        try {
            cacheAndReadSlowly(spark);
        } finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
        ListenerOutageTest.waitFor("final snapshot", java.time.Duration.ofSeconds(10),
                () -> listener.lastSnapshot() != null && listener.lastSnapshot().complete());
        ExecutorSummary live = driver(listener.lastSnapshot());

        EventLogSource log = EventLogReader.discover(eventLogDir).stream()
                .filter(l -> l.path().getFileName().toString().contains(appId)).findFirst().orElseThrow();
        AppSnapshot replayed = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS,
                p -> { throw new AssertionError("problem reading Spark's own log: " + p); }).snapshot();
        ExecutorSummary logged = driver(replayed);

        long cached = (long) CACHED_MIB << 20;
        for (ExecutorSummary e : List.of(live, logged)) {
            Map<String, Long> p = e.peakMetrics();
            assertTrue(p.getOrDefault("JVMHeapMemory", 0L) > cached, "heap above the cached data: " + p);
            assertTrue(p.getOrDefault("OnHeapStorageMemory", 0L) >= cached, "cache in storage memory: " + p);
        }
        // The log's peaks are of heartbeats and task ends while a stage ran; the listener sees the heartbeats but
        // not the samples Spark takes at a task's end. Such a sample can sit above every heartbeat: CI runs found
        // JVM off-heap memory 14 KB and the heap 6 MB (2 %) higher in the log, and the GC totals 12 ms apart. So
        // each metric the log has must be seen live, at no less than three quarters of the logged peak (the heap
        // moves fastest). The cache is held all along, so its storage memory is the same in both: compared exactly
        // below.
        for (Map.Entry<String, Long> m : logged.peakMetrics().entrySet()) {
            Long ours = live.peakMetrics().get(m.getKey());
            assertNotNull(ours, m.getKey() + " logged but not seen live");
            long floor = m.getValue() - m.getValue() / 4;
            assertTrue(ours >= floor, m.getKey() + ": live " + ours + " < 3/4 of logged " + m.getValue());
        }
        assertEquals(logged.peakMetrics().get("OnHeapStorageMemory"), live.peakMetrics().get("OnHeapStorageMemory"));
        double heapRatio = (double) live.peakMetrics().get("JVMHeapMemory") / logged.peakMetrics().get("JVMHeapMemory");
        assertTrue(heapRatio < 2.0, "heap peaks differ by more than sampling explains: " + heapRatio);
    }

    @Test
    void withoutLoggedExecutorMetricsTheListenerStillKnowsThePeaks() throws Exception {
        SparkSession spark = LocalSpark.start("peaks-heartbeat-only", Map.of(
                "spark.executor.heartbeatInterval", "200ms"));
        SparkscopeListener listener = SparkscopeListener.latest();
        try {
            cacheAndReadSlowly(spark);
        } finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
        ListenerOutageTest.waitFor("final snapshot", java.time.Duration.ofSeconds(10),
                () -> listener.lastSnapshot() != null && listener.lastSnapshot().complete());
        Map<String, Long> p = driver(listener.lastSnapshot()).peakMetrics();
        assertTrue(p.getOrDefault("OnHeapStorageMemory", 0L) >= (long) CACHED_MIB << 20, p.toString());
        assertTrue(p.getOrDefault("JVMHeapMemory", 0L) > 0, p.toString());
    }

    /** Caches CACHED_MIB MiB, then reads it in jobs long enough for several heartbeats. */
    static void cacheAndReadSlowly(SparkSession spark) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> blocks = new ArrayList<>();
        for (int i = 0; i < CACHED_MIB; i++) {
            blocks.add(i);
        }
        JavaRDD<byte[]> cached = jsc.parallelize(blocks, 4).map(i -> new byte[1 << 20])
                .persist(StorageLevel.MEMORY_ONLY());
        assertEquals(CACHED_MIB, cached.count());
        for (int round = 0; round < 3; round++) {
            cached.map(b -> {
                Thread.sleep(150);
                return b.length;
            }).reduce(Integer::sum);
        }
    }

    private static ExecutorSummary driver(AppSnapshot s) {
        return s.executors().stream().filter(ExecutorSummary::isDriver).findFirst()
                .orElseThrow(() -> new AssertionError("no driver in " + s.executors()));
    }
}
