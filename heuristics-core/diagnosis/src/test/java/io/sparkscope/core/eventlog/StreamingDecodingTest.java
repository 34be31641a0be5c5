package io.sparkscope.core.eventlog;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Structured Streaming's listener events in the shapes Spark 3.0–4.x write them into event logs. */
class StreamingDecodingTest {
    static final String ID = "cb17fd10-bb54-4c3e-aeb7-a62c652268e2";
    static final String RUN = "cf6b8e54-09dd-4f90-830d-de76d00b63fa";
    static final String PKG = "org.apache.spark.sql.streaming.StreamingQueryListener$";

    /** As Spark 4.0.4 wrote it (a rate source into a windowed count with a watermark, noop sink). */
    static final String STARTED_40 = "{\"Event\":\"" + PKG + "QueryStartedEvent\",\"id\":\"" + ID + "\",\"runId\":\""
            + RUN + "\",\"name\":\"probe_q\",\"timestamp\":\"2026-12-01T16:28:24.614Z\"}";
    static final String PROGRESS_40 = "{\"Event\":\"" + PKG + "QueryProgressEvent\",\"progress\":{\"id\":\"" + ID
            + "\",\"runId\":\"" + RUN + "\",\"name\":\"probe_q\",\"timestamp\":\"2026-12-01T16:28:49.837Z\","
            + "\"batchId\":1,\"batchDuration\":8991,\"durationMs\":{\"triggerExecution\":8991,\"queryPlanning\":462,"
            + "\"getBatch\":0,\"commitOffsets\":439,\"latestOffset\":0,\"addBatch\":7708,\"walCommit\":336},"
            + "\"eventTime\":{\"min\":\"2026-12-01T16:28:26.929Z\",\"avg\":\"2026-12-01T16:28:37.919Z\","
            + "\"watermark\":\"1970-01-01T00:00:00.000Z\",\"max\":\"2026-12-01T16:28:48.909Z\"},"
            + "\"stateOperators\":[{\"operatorName\":\"stateStoreSave\",\"numRowsTotal\":23,\"numRowsUpdated\":23,"
            + "\"allUpdatesTimeMs\":2046,\"numRowsRemoved\":0,\"allRemovalsTimeMs\":53,\"commitTimeMs\":1314,"
            + "\"memoryUsedBytes\":6456,\"numRowsDroppedByWatermark\":0,\"numShufflePartitions\":4,"
            + "\"numStateStoreInstances\":4,\"customMetrics\":{\"stateOnCurrentVersionSizeBytes\":5240,"
            + "\"loadedMapCacheHitCount\":8,\"loadedMapCacheMissCount\":0}}],"
            + "\"sources\":[{\"description\":\"RateStreamV2[rowsPerSecond=50, rampUpTimeSeconds=0, numPartitions=default\","
            + "\"startOffset\":\"0\",\"endOffset\":\"22\",\"latestOffset\":\"22\",\"numInputRows\":1100,"
            + "\"inputRowsPerSecond\":48.98249988867614,\"processedRowsPerSecond\":122.34456678901124,\"metrics\":{}}],"
            + "\"sink\":{\"description\":\"org.apache.spark.sql.execution.datasources.noop.NoopTable$@5c39ac1b\","
            + "\"numOutputRows\":23,\"metrics\":{}},\"observedMetrics\":{}}}";
    static final String TERMINATED_40 = "{\"Event\":\"" + PKG + "QueryTerminatedEvent\",\"id\":\"" + ID
            + "\",\"runId\":\"" + RUN + "\",\"exception\":null,\"errorClassOnException\":null}";

    /** As Spark 3.1 wrote it: no batchDuration, no operator name, numLateInputs, a NaN rate as text, Kafka offsets. */
    static final String PROGRESS_31 = "{\"Event\":\"" + PKG + "QueryProgressEvent\",\"progress\":{\"id\":\"q31\","
            + "\"runId\":\"r31\",\"name\":null,\"timestamp\":\"2020-07-29T10:56:56.015Z\",\"batchId\":0,"
            + "\"durationMs\":{\"triggerExecution\":7109,\"queryPlanning\":439,\"getBatch\":21,\"latestOffset\":3524,"
            + "\"addBatch\":3011,\"walCommit\":35},\"eventTime\":{},\"stateOperators\":[{\"numRowsTotal\":1,"
            + "\"numRowsUpdated\":1,\"memoryUsedBytes\":776,\"numLateInputs\":5,\"customMetrics\":{}}],"
            + "\"sources\":[{\"description\":\"KafkaV2[Subscribe[test5]]\",\"startOffset\":null,"
            + "\"endOffset\":\"{\\\"test5\\\":{\\\"0\\\":48279}}\",\"numInputRows\":3,\"inputRowsPerSecond\":\"NaN\","
            + "\"processedRowsPerSecond\":0.42194092827004215}],\"sink\":{\"description\":\"ConsoleTable\","
            + "\"numOutputRows\":-1},\"observedMetrics\":{}}}";

    @TempDir
    Path dir;

    private TestLogs.Result readLines(String... lines) throws Exception {
        return TestLogs.read(TestLogs.write(dir.resolve("log"), List.of(lines)));
    }

    @Test
    void spark40EventsDecodeFieldByField() throws Exception {
        TestLogs.Result r = readLines(STARTED_40, PROGRESS_40, TERMINATED_40);
        assertEquals(List.of(), r.problems());
        assertEquals(new SparkEvent.StreamingQueryStarted(ID, RUN, "probe_q", 1796142504614L),
                r.first(SparkEvent.StreamingQueryStarted.class));
        assertEquals(new SparkEvent.StreamingQueryTerminated(ID, RUN, null, null),
                r.first(SparkEvent.StreamingQueryTerminated.class));
        StreamingProgress p = r.first(SparkEvent.StreamingQueryProgress.class).progress();
        assertEquals(ID, p.queryId());
        assertEquals(RUN, p.runId());
        assertEquals(1796142529837L, p.timestamp());
        assertEquals(1, p.batchId());
        assertEquals(8991, p.batchDurationMs());
        assertEquals(List.of("triggerExecution", "queryPlanning", "getBatch", "commitOffsets", "latestOffset",
                "addBatch", "walCommit"), List.copyOf(p.durationMs().keySet()), "Spark's order is kept");
        assertEquals(7708L, p.durationMs().get("addBatch"));
        assertEquals(0L, p.eventTime().get("watermark"), "a watermark not advanced yet is 0, not absent");
        assertEquals(1796142528909L, p.eventTime().get("max"));
        assertEquals(1100, p.numInputRows());
        assertEquals(48.98249988867614, p.inputRowsPerSecond());
        assertEquals(122.34456678901124, p.processedRowsPerSecond());
        assertTrue(p.executed());
        StreamingProgress.StateOperator op = p.stateOperators().get(0);
        assertEquals(new StreamingProgress.StateOperator("stateStoreSave", 23, 23, 0, 2046, 53, 1314, 6456, 0, 4, 4,
                Map.of("stateOnCurrentVersionSizeBytes", 5240L, "loadedMapCacheHitCount", 8L,
                        "loadedMapCacheMissCount", 0L)), op);
        StreamingProgress.Source src = p.sources().get(0);
        assertEquals("0", src.startOffset());
        assertEquals("22", src.endOffset());
        assertEquals("22", src.latestOffset());
        assertEquals(new StreamingProgress.Sink("org.apache.spark.sql.execution.datasources.noop.NoopTable$@5c39ac1b",
                23), p.sink());
    }

    @Test
    void spark31ShapesAreReadWithTheirOldNames() throws Exception {
        TestLogs.Result r = readLines(PROGRESS_31);
        assertEquals(List.of(), r.problems());
        StreamingProgress p = r.first(SparkEvent.StreamingQueryProgress.class).progress();
        assertNull(p.name());
        assertEquals(7109, p.batchDurationMs(), "without batchDuration the trigger's whole time stands in");
        assertEquals(-1, p.inputRowsPerSecond(), "NaN is unknown");
        assertEquals(0.42194092827004215, p.processedRowsPerSecond());
        assertTrue(p.eventTime().isEmpty(), "no watermark defined");
        StreamingProgress.StateOperator op = p.stateOperators().get(0);
        assertNull(op.operatorName());
        assertEquals(5, op.numRowsDroppedByWatermark(), "numLateInputs is the old name");
        assertEquals(-1, op.numRowsRemoved(), "not reported before 3.3");
        assertEquals(-1, op.numShufflePartitions());
        assertEquals("{\"test5\":{\"0\":48279}}", p.sources().get(0).endOffset());
        assertNull(p.sources().get(0).startOffset());
        assertEquals(-1, p.sink().numOutputRows());
    }

    @Test
    void idleEventsAndIdleProgressAreNotBatches() throws Exception {
        String idle = "{\"Event\":\"" + PKG + "QueryIdleEvent\",\"id\":\"" + ID + "\",\"runId\":\"" + RUN
                + "\",\"timestamp\":\"2026-12-01T16:30:00.000Z\"}";
        // Spark before 3.5: a trigger without new data reports the next batch id, with no addBatch phase
        String noData = PROGRESS_40.replace("\"batchId\":1", "\"batchId\":2")
                .replace("\"queryPlanning\":462,\"getBatch\":0,\"commitOffsets\":439,", "")
                .replace(",\"addBatch\":7708,\"walCommit\":336", "").replace("\"numInputRows\":1100", "\"numInputRows\":0");
        String batch2 = PROGRESS_40.replace("\"batchId\":1", "\"batchId\":2")
                .replace("2026-12-01T16:28:49.837Z", "2026-12-01T16:31:00.000Z");
        TestLogs.Result r = readLines(STARTED_40, PROGRESS_40, idle, noData, batch2, PROGRESS_40, TERMINATED_40);
        assertEquals(List.of(), r.problems());
        assertEquals(new SparkEvent.StreamingQueryIdle(ID, RUN, 1796142600000L),
                r.first(SparkEvent.StreamingQueryIdle.class));
        AppSnapshot s = snapshot(STARTED_40, PROGRESS_40, idle, noData, batch2, PROGRESS_40, TERMINATED_40);
        StreamingQuerySummary q = s.streamingQueries().get(0);
        assertEquals(2, q.totals().batches(), "batch 1, batch 2; the repeated batch 1 line is not a third");
        assertEquals(2, q.totals().idleTriggers());
        assertEquals(List.of(1L, 2L), q.recentBatches().stream().map(StreamingBatch::batchId).toList());
        assertEquals(StreamingQuerySummary.Status.STOPPED, q.status());
        assertEquals(1796142660000L + 8991, q.endTime(), "ended at the newest time seen");
    }

    @Test
    void badValuesAreNamedAndBecomeUnknown() throws Exception {
        String badRate = PROGRESS_40.replace("\"inputRowsPerSecond\":48.98249988867614", "\"inputRowsPerSecond\":\"fast\"");
        String badTime = STARTED_40.replace("2026-12-01T16:28:24.614Z", "yesterday");
        String badRows = PROGRESS_40.replace("\"numRowsTotal\":23", "\"numRowsTotal\":-4")
                .replace("\"batchId\":1", "\"batchId\":2");
        String noBatchId = PROGRESS_40.replace("\"batchId\":1,", "\"batchId\":\"one\",");
        String noRunId = TERMINATED_40.replace("\"runId\":\"" + RUN + "\",", "");
        TestLogs.Result r = readLines(badTime, badRate, badRows, noBatchId, noRunId);
        List<String> problems = r.problems();
        assertEquals(5, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("StreamingQueryListener$QueryStartedEvent field \"timestamp\": \"yesterday\""
                + " is not an ISO-8601 time; treated as unknown"), problems.get(0));
        assertTrue(problems.get(1).contains("field \"inputRowsPerSecond\": \"fast\" is not a number"), problems.get(1));
        assertTrue(problems.get(2).contains("field \"numRowsTotal\": -4 is negative"), problems.get(2));
        assertTrue(problems.get(3).contains("field \"batchId\": \"one\" is not a number; treated as unknown, so the"
                + " event is skipped"), problems.get(3));
        assertTrue(problems.get(4).contains("QueryTerminatedEvent without runId"), problems.get(4));
        assertTrue(problems.stream().allMatch(p -> p.startsWith(dir.resolve("log") + ":")), "file:line first");
        assertEquals(-1, r.first(SparkEvent.StreamingQueryStarted.class).time());
        List<SparkEvent.StreamingQueryProgress> progress = r.of(SparkEvent.StreamingQueryProgress.class);
        assertEquals(2, progress.size(), "the batch without an id is skipped");
        assertEquals(-1, progress.get(0).progress().inputRowsPerSecond());
        assertEquals(-1, progress.get(1).progress().stateOperators().get(0).numRowsTotal());
        assertTrue(r.of(SparkEvent.StreamingQueryTerminated.class).isEmpty());
    }

    @Test
    void longKafkaOffsetsAreSummarisedPerTopic() throws Exception {
        StringBuilder offsets = new StringBuilder("{\\\"clicks\\\":{");
        for (int i = 0; i < 200; i++) {
            offsets.append(i == 0 ? "" : ",").append("\\\"").append(i).append("\\\":").append(1000 + i);
        }
        offsets.append("}}");
        String line = PROGRESS_40.replace("\"endOffset\":\"22\"", "\"endOffset\":\"" + offsets + "\"");
        StreamingProgress p = readLines(line).first(SparkEvent.StreamingQueryProgress.class).progress();
        assertEquals("clicks: 200 partitions, Σ " + (200 * 1000 + 199 * 200 / 2), p.sources().get(0).endOffset());
    }

    @Test
    void sharedSpark31StreamingLogIsRead() {
        Path log = SharedData.eventLogs().map(d -> d.resolve("spark-events-sql/local-1596020211915")).orElse(null);
        Assumptions.assumeTrue(log != null && Files.isRegularFile(log),
                "../shared/eventlogs/spark-events-sql/local-1596020211915 not present: shared streaming log not checked");
        List<String> problems = new ArrayList<>();
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(log), RecorderOptions.DEFAULTS, problems::add)
                .snapshot();
        assertEquals(List.of(), problems);
        assertEquals(1, s.streamingQueries().size());
        StreamingQuerySummary q = s.streamingQueries().get(0);
        assertEquals("8d268dc2-bc9c-4be8-97a9-b135d2943028", q.queryId());
        assertEquals("e225d92f-2545-48f8-87a2-9c0309580f8a", q.runId());
        assertEquals(8, q.totals().batches() + q.totals().idleTriggers(), "8 progress reports");
        StreamingBatch first = q.recentBatches().get(0);
        assertEquals(0, first.batchId());
        assertEquals(7110, first.durationMs());
        assertEquals(3, first.numInputRows());
        assertEquals(-1, first.inputRowsPerSecond());
        assertEquals(1, first.stateRows());
        assertEquals(StreamingQuerySummary.Status.RUNNING, q.status(), "the log ends without a terminated event");
        assertFalse(s.unknownEventTypes().keySet().stream().anyMatch(t -> t.contains("StreamingQueryListener")));
    }

    private AppSnapshot snapshot(String... lines) throws Exception {
        Path file = TestLogs.write(dir.resolve("snap-" + System.nanoTime()),
                java.util.stream.Stream.concat(java.util.stream.Stream.of(TestLogs.APP_START), java.util.Arrays.stream(lines))
                        .toList());
        List<String> problems = new ArrayList<>();
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(file), RecorderOptions.DEFAULTS, problems::add)
                .snapshot();
        assertEquals(List.of(), problems);
        return s;
    }
}
