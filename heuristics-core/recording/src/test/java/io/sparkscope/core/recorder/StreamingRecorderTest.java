package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StateOperatorTotals;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static io.sparkscope.core.recorder.StreamingRun.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recorder's streaming queries: the batch window, the totals past it, lifecycle and retention. */
class StreamingRecorderTest {

    @Test
    void windowKeepsTheNewestBatchesAndTotalsCoverAll() {
        AppSnapshot s = StreamingRun.app().limits(new StreamingLimits(10, 200))
                .query("q1", "clicks").batches(50, i -> batch().rows(100 + i).durationMs(400 + i)).done().build();
        StreamingQuerySummary q = s.streamingQueries().get(0);
        assertEquals(LongStream.range(40, 50).boxed().toList(),
                q.recentBatches().stream().map(StreamingBatch::batchId).toList());
        StreamingTotals t = q.totals();
        assertEquals(50, t.batches());
        assertEquals(40, q.batchesNotKept());
        assertEquals(0, t.firstBatchId());
        assertEquals(49, t.lastBatchId());
        assertEquals(LongStream.range(0, 50).map(i -> 100 + i).sum(), t.inputRows());
        assertEquals(t.inputRows(), t.outputRows(), "the memory sink wrote every row");
        assertEquals(LongStream.range(0, 50).map(i -> 400 + i).sum(), t.batchDurationMs());
        assertEquals(449, t.maxBatchDurationMs());
        assertEquals(LongStream.range(0, 50).map(i -> (400 + i) * 6 / 10).sum(), t.durationPartsMs().get("addBatch"));
        assertEquals(StreamingRun.START + 1000, t.firstBatchTime());
        assertEquals(q.recentBatches().get(9).endTime(), t.lastBatchEndTime());
        assertEquals("clicks", q.name());
        assertEquals(StreamingQuerySummary.Status.STOPPED, q.status());
        assertEquals(t.lastBatchEndTime(), q.endTime(), "ended at the newest time seen: the last batch's end");
    }

    @Test
    void fallingBehindStreaksAreCountedOverTheWholeRunEvenPastTheWindow() {
        AppSnapshot s = StreamingRun.app().limits(new StreamingLimits(5, 200)).query("q1", null)
                .batches(40, i -> {
                    boolean behind = (i >= 10 && i < 30) || i >= 35;
                    return batch().rows(1000).durationMs(2000).inputRate(behind ? 800 : 400)
                            .processedRate(behind ? 500 : 600);
                }).keepsRunning().done().running().build();
        StreamingQuerySummary q = s.streamingQueries().get(0);
        StreamingTotals t = q.totals();
        assertEquals(25, t.behindBatches());
        StreamingTotals.Streak longest = t.longestBehind();
        assertEquals(20, longest.batches());
        assertEquals(10, longest.firstBatchId());
        assertEquals(800, longest.meanInputRowsPerSecond(), 1e-9);
        assertEquals(500, longest.meanProcessedRowsPerSecond(), 1e-9);
        assertEquals(20 * 2000, longest.spanMs(), "batches back to back, 2 s each");
        assertEquals(5, t.currentBehind().batches(), "the latest batches are still behind");
        assertEquals(35, t.currentBehind().firstBatchId());
        assertEquals(StreamingQuerySummary.Status.RUNNING, q.status());
        assertEquals(-1, q.endTime());
        assertEquals(-1, t.batchesOverTrigger(), "no trigger known: not counted");
    }

    @Test
    void batchesOverTheTriggerAreCountedAlsoWhenTheTriggerIsLearntLate() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StreamingQueryStarted("q", "r", "n", 1000));
        long t = 2000;
        for (int i = 0; i < 6; i++) {
            long duration = i % 2 == 0 ? 1500 : 800;
            r.onEvent(new SparkEvent.StreamingQueryProgress(batch().rows(10).durationMs(duration)
                    .progress("q", "r", "n", i, t)));
            t += duration;
            if (i == 2) {
                r.onEvent(new SparkEvent.StreamingQueryTrigger("q", "r", "ProcessingTime", 1000));
            }
        }
        StreamingQuerySummary q = r.snapshot().streamingQueries().get(0);
        assertEquals(3, q.totals().batchesOverTrigger(), "batches 0, 2 and 4 took 1.5 s against a 1 s trigger");
        assertEquals("ProcessingTime", q.triggerKind());
        assertEquals(1000, q.triggerIntervalMs());
    }

    @Test
    void stateAndWatermarkTotals() {
        long[] rows = {10, 20, 30, 25, 40, 60};
        AppSnapshot s = StreamingRun.app().query("q", "agg").batches(rows.length, i -> batch().rows(50)
                .watermark(i < 2 ? 0 : 1_000_000L * i).shufflePartitions(8)
                .state(rows[i], 1000 * rows[i], i == 3 ? 15 : 0, i == 5 ? 7 : 0)).done().build();
        StreamingTotals t = s.streamingQueries().get(0).totals();
        StateOperatorTotals op = t.stateOperators().get(0);
        assertEquals(0, op.index());
        assertEquals("stateStoreSave", op.operatorName());
        assertEquals(6, op.batches());
        assertEquals(10, op.firstRowsTotal());
        assertEquals(60, op.lastRowsTotal());
        assertEquals(60, op.maxRowsTotal());
        assertEquals(1, op.decreases());
        assertEquals(15, op.rowsRemoved());
        assertEquals(7, op.rowsDroppedByWatermark());
        assertEquals(7, t.rowsDroppedByWatermark());
        assertEquals(1, t.batchesDroppingRows());
        assertEquals(60_000, op.lastMemoryUsedBytes());
        assertEquals(60_000, op.maxMemoryUsedBytes());
        assertEquals(8, op.numShufflePartitions());
        assertTrue(t.watermarkDefined());
        assertEquals(5_000_000L, t.lastWatermark());
        assertEquals(4, t.watermarkAdvances(), "0 → 2e6 → 3e6 → 4e6 → 5e6");
    }

    @Test
    void repeatedReportsIdleTriggersAndUnknownRuns() {
        Recorder r = new Recorder();
        StreamingProgress b0 = batch().rows(10).progress("q", "r1", null, 0, 5000);
        StreamingProgress b1 = batch().rows(20).progress("q", "r1", "late-name", 1, 6000);
        // a progress before any start event (the listener came late, the log was cut): the run is created from it
        r.onEvent(new SparkEvent.StreamingQueryProgress(b0));
        r.onEvent(new SparkEvent.StreamingQueryProgress(b1));
        r.onEvent(new SparkEvent.StreamingQueryProgress(b1));
        r.onEvent(new SparkEvent.StreamingQueryProgress(b0));
        r.onEvent(new SparkEvent.StreamingQueryIdle("q", "r1", 9000));
        r.onEvent(new SparkEvent.StreamingQueryTerminated("q", "r1", "java.lang.IllegalStateException: boom",
                "STREAM_FAILED"));
        r.onEvent(new SparkEvent.StreamingQueryTerminated("q", "r1", null, null));
        StreamingQuerySummary q = r.snapshot().streamingQueries().get(0);
        assertEquals(2, q.totals().batches(), "repeated lines and an older batch id change nothing");
        assertEquals(30, q.totals().inputRows());
        assertEquals(1, q.totals().idleTriggers());
        assertEquals(9000, q.lastProgressTime());
        assertEquals(-1, q.startTime());
        assertEquals("late-name", q.name());
        assertEquals(StreamingQuerySummary.Status.FAILED, q.status(), "the first terminated event stays");
        assertEquals("java.lang.IllegalStateException: boom", q.exception());
        assertEquals("STREAM_FAILED", q.errorClass());
        assertEquals(9000, q.endTime());
    }

    @Test
    void onlyTheNewestTerminatedRunsStayRunningOnesAlways() {
        StreamingRun app = StreamingRun.app().limits(new StreamingLimits(100, 2)).running();
        app.query("long", "forever").runId("long-run").batches(3, i -> batch()).keepsRunning();
        for (int i = 0; i < 5; i++) {
            app.query("q", "restarted").runId("run-" + i).batches(2, j -> batch());
        }
        AppSnapshot s = app.build();
        assertEquals(List.of("long-run", "run-3", "run-4"),
                s.streamingQueries().stream().map(StreamingQuerySummary::runId).toList());
        // a trigger looked up after its run left does not bring the run back
        Recorder r = new Recorder(RecorderOptions.DEFAULTS, new StreamingLimits(100, 0));
        r.onEvent(new SparkEvent.StreamingQueryStarted("q", "gone", null, 1000));
        r.onEvent(new SparkEvent.StreamingQueryTerminated("q", "gone", null, null));
        r.onEvent(new SparkEvent.StreamingQueryTrigger("q", "gone", "ProcessingTime", 100));
        assertTrue(r.snapshot().streamingQueries().isEmpty());
    }

    @Test
    void unchangedQueriesGiveTheSameBatchListSnapshotAfterSnapshot() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StreamingQueryProgress(batch().progress("q", "r", null, 0, 5000)));
        List<StreamingBatch> first = r.snapshot().streamingQueries().get(0).recentBatches();
        r.onEvent(new SparkEvent.StreamingQueryIdle("q", "r", 9000));
        assertSame(first, r.snapshot().streamingQueries().get(0).recentBatches());
        r.onEvent(new SparkEvent.StreamingQueryProgress(batch().progress("q", "r", null, 1, 9500)));
        assertEquals(2, r.snapshot().streamingQueries().get(0).recentBatches().size());
    }

    @Test
    void theChangedSnapshotCarriesOnlyRunsWithNewsSinceTheLastWrite() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.StreamingQueryProgress(batch().progress("q1", "r1", null, 0, 5000)));
        r.onEvent(new SparkEvent.StreamingQueryProgress(batch().progress("q2", "r2", null, 0, 5100)));
        Recorder.Snapshots first = r.snapshots(false);
        assertEquals(List.of("r1", "r2"), runIds(first.changed()));
        r.written(first.changed().eventCount());
        r.onEvent(new SparkEvent.StreamingQueryProgress(batch().progress("q2", "r2", null, 1, 9000)));
        Recorder.Snapshots second = r.snapshots(false);
        assertTrue(second.changed().partial());
        assertEquals(List.of("r2"), runIds(second.changed()), "r1 did not change since the write");
        assertEquals(List.of("r1", "r2"), runIds(second.retained()), "the retained picture still holds both");
        r.written(second.changed().eventCount());
        r.onEvent(new SparkEvent.StreamingQueryTrigger("q1", "r1", "ProcessingTime", 1000));
        assertEquals(List.of("r1"), runIds(r.snapshots(false).changed()), "a learnt trigger changes the run");
    }

    private static List<String> runIds(AppSnapshot s) {
        return s.streamingQueries().stream().map(StreamingQuerySummary::runId).toList();
    }

    @Test
    void sourceDescriptionsAreSharedAcrossBatchesAndRedacted() {
        Recorder r = new Recorder();
        for (int i = 0; i < 3; i++) {
            StreamingProgress.Source src = new StreamingProgress.Source(
                    new String("FileStreamSource[s3a://AKIAABCDEFGHIJKLMNOP:secretKey123@bucket/in]"), null, "1", null,
                    10, 1, 2, Map.of());
            r.onEvent(new SparkEvent.StreamingQueryProgress(new StreamingProgress("q", "r", "n", 1000 + i * 100, i,
                    50, Map.of("addBatch", 40L), Map.of(), List.of(), List.of(src), null)));
        }
        r.onEvent(new SparkEvent.StreamingQueryTerminated("q", "r",
                "java.sql.SQLException: login failed for jdbc:postgresql://app:hunter2@db/x", null));
        StreamingQuerySummary q = r.snapshot().streamingQueries().get(0);
        List<StreamingBatch> b = q.recentBatches();
        assertFalse(b.get(2).sources().get(0).description().contains("secretKey123"),
                b.get(2).sources().get(0).description());
        assertFalse(q.exception().contains("hunter2"), q.exception());
        assertNull(q.sinkDescription());
    }

    @Test
    void limitsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new StreamingLimits(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new StreamingLimits(1, -1));
        assertEquals(2L * 1000 * StreamingLimits.BYTES_PER_BATCH, new StreamingLimits(1000, 1).batchBytesBound(1));
    }
}
