package io.sparkscope.store;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.recorder.StreamingLimits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streaming query runs and their kept batches in PostgreSQL: read back equal to what was written, and a running
 * query's writes ship only the batches that are new (the rows already stored are not touched again).
 */
class StreamingStoreTest {
    static DataSource ds;
    static final SnapshotWriter WRITER = new SnapshotWriter();

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    /** A recorder fed as Spark would: one query, restarted once, with a window of {@code window} batches. */
    static final class Run {
        final Recorder recorder;
        long t = 1_700_000_000_000L;

        Run(String appId, int window) {
            recorder = new Recorder(RecorderOptions.DEFAULTS, new StreamingLimits(window, 10));
            recorder.onEvent(new SparkEvent.ApplicationStart("streaming", appId, null, t, "alice"));
            recorder.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(),
                    Map.of()));
        }

        void start(String runId) {
            recorder.onEvent(new SparkEvent.StreamingQueryStarted("q-1", runId, "clicks 'n' <views>", t += 10));
            recorder.onEvent(new SparkEvent.StreamingQueryTrigger("q-1", runId, "ProcessingTime", 500));
        }

        void batches(String runId, long fromId, int n) {
            for (long id = fromId; id < fromId + n; id++) {
                Map<String, Long> phases = new LinkedHashMap<>();
                phases.put("triggerExecution", 400 + id);
                phases.put("addBatch", 300L);
                phases.put("walCommit", 20L);
                StreamingProgress.StateOperator op = new StreamingProgress.StateOperator("stateStoreSave", 10 * id,
                        id, 2, 30, 4, 12, 1000 * id, id % 3, 2, 2, Map.of("loadedMapCacheHitCount", id));
                StreamingProgress.Source src = new StreamingProgress.Source("RateStreamV2[rowsPerSecond=40]",
                        id == 0 ? null : String.valueOf(id * 20), String.valueOf((id + 1) * 20), null, 20,
                        id == 0 ? -1 : 41.5 + id / 3.0, 52.25 - id / 7.0, Map.of("note", "x"));
                recorder.onEvent(new SparkEvent.StreamingQueryProgress(new StreamingProgress("q-1", runId,
                        "clicks 'n' <views>", t, id, 400 + id, phases, Map.of("watermark", t - 5000, "max", t),
                        List.of(op), List.of(src), new StreamingProgress.Sink("MemorySink", 20))));
                t += 500;
            }
        }

        void stop(String runId, String error) {
            recorder.onEvent(new SparkEvent.StreamingQueryTerminated("q-1", runId, error, null));
        }

        AppSnapshot snapshot() {
            return recorder.snapshot();
        }
    }

    @Test
    void runsAndBatchesReadBackEqual() throws Exception {
        Run r = new Run("app-streaming-rt", 100);
        r.start("run-a");
        r.batches("run-a", 0, 12);
        r.stop("run-a", null);
        r.start("run-b");
        r.batches("run-b", 12, 5);
        r.stop("run-b", "java.lang.IllegalStateException: boom");
        r.recorder.onEvent(new SparkEvent.ApplicationEnd(r.t + 1000));
        AppSnapshot written = r.snapshot();
        assertTrue(WRITER.write(ds, written, List.of()).written());
        AppSnapshot read = SnapshotReader.read(ds, "app-streaming-rt", null).orElseThrow();
        for (int i = 0; i < 2; i++) {
            StreamingQuerySummary w = written.streamingQueries().get(i);
            StreamingQuerySummary q = read.streamingQueries().get(i);
            assertEquals(w.totals(), q.totals(), "totals of run " + i);
            assertEquals(w.recentBatches(), q.recentBatches(), "batches of run " + i);
            assertEquals(w, q);
        }
        assertEquals(written, read);
        assertEquals(StreamingQuerySummary.Status.FAILED, read.streamingQueries().get(1).status());
        assertEquals(UNCHANGED, WRITER.write(ds, written, List.of()).outcome(), "rewriting it changes nothing");

        try (Connection c = ds.getConnection()) {
            long pk = pk(c, "app-streaming-rt");
            List<StreamingQuerySummary> newest = StreamingRows.runs(c, pk, "q-1", 3);
            assertEquals(List.of(9L, 10L, 11L), newest.get(0).recentBatches().stream().map(StreamingBatch::batchId)
                    .toList(), "the newest 3 of each run, oldest first");
            assertEquals(12, newest.get(0).totals().batches(), "totals are the whole run's");
            assertEquals(0, StreamingRows.runs(c, pk, "q-1", 0).get(0).recentBatches().size());
            assertTrue(StreamingRows.runs(c, pk, "no-such-query", 10).isEmpty());
        }
    }

    private static final io.sparkscope.store.WriteResult.Outcome UNCHANGED = WriteResult.Outcome.UNCHANGED;

    @Test
    void aRunningQueryShipsOnlyItsNewBatchesAndDropsThoseLeavingTheWindow() throws Exception {
        Run r = new Run("app-streaming-live", 5);
        r.start("run-a");
        r.batches("run-a", 0, 4);
        WRITER.write(ds, r.snapshot(), List.of());
        Map<Long, Long> before = batchRowVersions("app-streaming-live");
        assertEquals(List.of(0L, 1L, 2L, 3L), List.copyOf(before.keySet()));

        r.batches("run-a", 4, 3); // window now 2..6
        WRITER.write(ds, r.snapshot(), List.of());
        Map<Long, Long> after = batchRowVersions("app-streaming-live");
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L), List.copyOf(after.keySet()), "the window, no more");
        assertEquals(before.get(2L), after.get(2L), "a stored batch is not written again");
        assertEquals(before.get(3L), after.get(3L));
        assertEquals(r.snapshot(), SnapshotReader.read(ds, "app-streaming-live", null).orElseThrow());

    }

    @Test
    void manyNewBatchesAtOnceGoThroughCopyWithTheSameRows() throws Exception {
        Run r = new Run("app-streaming-copy", 300);
        r.start("run-a");
        WRITER.write(ds, r.snapshot(), List.of());
        r.batches("run-a", 0, 407);
        WRITER.write(ds, r.snapshot(), List.of());
        AppSnapshot read = SnapshotReader.read(ds, "app-streaming-copy", null).orElseThrow();
        assertEquals(r.snapshot(), read);
        assertEquals(300, read.streamingQueries().get(0).recentBatches().size());
        assertEquals(107, read.streamingQueries().get(0).recentBatches().get(0).batchId());
    }

    @Test
    void aRunLeavingTheSnapshotTakesItsBatchesWithIt() throws Exception {
        Run r = new Run("app-streaming-gone", 50);
        r.start("run-a");
        r.batches("run-a", 0, 3);
        r.stop("run-a", null);
        WRITER.write(ds, r.snapshot(), List.of());
        // a recorder keeping no terminated run: run-a leaves, run-b comes
        Run later = new Run("app-streaming-gone", 50);
        later.recorder.onEvent(new SparkEvent.LogStart("4.0.4")); // more events than the first: not stale
        later.start("run-b");
        later.batches("run-b", 3, 2);
        for (int i = 0; i < 5; i++) {
            later.recorder.onEvent(new SparkEvent.LogStart("4.0.4"));
        }
        AppSnapshot s = later.snapshot();
        assertNotEquals(WriteResult.Outcome.SKIPPED_STALE, WRITER.write(ds, s, List.of()).outcome());
        assertEquals(Map.of("run-b", 2L), batchesByRun("app-streaming-gone"));
    }

    @Test
    void aPartialSnapshotWithOnlyTheChangedRunKeepsTheOthersStored() throws Exception {
        Run r = new Run("app-streaming-partial", 50);
        r.start("run-a");
        r.batches("run-a", 0, 4);
        r.stop("run-a", null);
        r.start("run-b");
        r.batches("run-b", 4, 3);
        Recorder.Snapshots first = r.recorder.snapshots(false);
        assertTrue(WRITER.write(ds, first.changed(), List.of()).written());
        r.recorder.written(first.changed().eventCount());
        Map<Long, Long> before = batchRowVersions("app-streaming-partial");

        r.batches("run-b", 7, 2);
        AppSnapshot changed = r.recorder.snapshots(false).changed();
        assertTrue(changed.partial());
        assertEquals(List.of("run-b"), changed.streamingQueries().stream().map(StreamingQuerySummary::runId).toList(),
                "only the run that moved on is in the write");
        assertTrue(WRITER.write(ds, changed, List.of()).written());

        assertEquals(Map.of("run-a", 4L, "run-b", 5L), batchesByRun("app-streaming-partial"),
                "the finished run and its batches stay stored; the running one gained its two new batches");
        Map<Long, Long> after = batchRowVersions("app-streaming-partial");
        for (long id = 0; id < 7; id++) {
            assertEquals(before.get(id), after.get(id), "batch " + id + " was stored already: not written again");
        }
        AppSnapshot read = SnapshotReader.read(ds, "app-streaming-partial", null).orElseThrow();
        assertEquals(r.snapshot().streamingQueries(), read.streamingQueries(),
                "what is stored is the whole run, as a full snapshot would have written it");
    }

    private static long pk(Connection c, String appId) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk FROM application WHERE app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** batch id → the row version's transaction id (xmin): unchanged when the row was not rewritten. */
    private static Map<Long, Long> batchRowVersions(String appId) throws Exception {
        Map<Long, Long> out = new TreeMap<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT b.batch_id, b.xmin::text::bigint FROM streaming_batch b"
                     + " JOIN application a USING (app_pk) WHERE a.app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    private static Map<String, Long> batchesByRun(String appId) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT b.run_id, count(*) FROM streaming_batch b"
                     + " JOIN application a USING (app_pk) WHERE a.app_id = ? GROUP BY b.run_id")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }
}
