package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap a streaming query holds in the recorder: {@link StreamingLimits#BYTES_PER_BATCH} per kept batch (measured
 * here for a batch with one stateful operator and one source, every value a fresh object as the reader and the
 * listener make them), and flat however many batches the query ran once its window is full.
 */
class StreamingWindowMemoryTest {

    @Test
    void heapPerKeptBatchIsAsStatedAndFlatPastTheWindow() {
        int window = 2_000;
        // A first small run, not measured: it makes the process-wide caches a snapshot passes through (the redactor
        // per redaction setting, which is emptied when earlier tests filled it) settle before anything is measured,
        // else their release during the first measurement makes it look a megabyte smaller.
        retained(window, 100);
        long small = retained(window, 20_000);
        long smallLong = retained(window, 200_000);
        long large = retained(20_000, 20_000);
        double perBatch = (double) (large - small) / (20_000 - window);
        System.out.printf("streaming window: %d kept of 20 000 batches %.2f MB, of 200 000 %.2f MB; 20 000 kept %.2f MB;"
                + " %.0f bytes per kept batch%n", window, small / 1e6, smallLong / 1e6, large / 1e6, perBatch);
        assertTrue(perBatch <= StreamingLimits.BYTES_PER_BATCH,
                perBatch + " bytes per kept batch, more than the stated " + StreamingLimits.BYTES_PER_BATCH);
        assertTrue(perBatch >= StreamingLimits.BYTES_PER_BATCH / 4.0, "the stated figure is near what is measured: "
                + perBatch);
        assertTrue(Math.abs(smallLong - small) < 1_000_000,
                "ten times the batches, same window: " + small + " vs " + smallLong + " bytes");
        assertTrue(smallLong < new StreamingLimits(window, 0).batchBytesBound(1) + 1_000_000,
                smallLong + " bytes, over the stated bound");
    }

    private static long retained(int window, int batches) {
        long before = used();
        Recorder r = new Recorder(RecorderOptions.DEFAULTS, new StreamingLimits(window, 10));
        r.onEvent(new SparkEvent.StreamingQueryStarted("q", "r", "clicks", 1000));
        for (int i = 0; i < batches; i++) {
            r.onEvent(new SparkEvent.StreamingQueryProgress(progress(i)));
        }
        AppSnapshot s = r.snapshot();
        long after = used();
        assertEquals(Math.min(window, batches), s.streamingQueries().get(0).recentBatches().size());
        return after - before + (r.hashCode() == 0 && s.hashCode() == 0 ? 1 : 0);
    }

    /**
     * A typical batch: seven phases, a watermark, one stateful operator with three custom metrics, one source. Texts
     * that are values are fresh objects; field names are shared, as Jackson's and Spark's are.
     */
    private static StreamingProgress progress(int i) {
        Map<String, Long> durations = new LinkedHashMap<>();
        for (String phase : new String[]{"triggerExecution", "queryPlanning", "getBatch", "commitOffsets",
                "latestOffset", "addBatch", "walCommit"}) {
            durations.put(phase, 100L + i % 1000); // field names are shared (Jackson canonicalises them)
        }
        Map<String, Long> eventTime = new LinkedHashMap<>();
        eventTime.put("watermark", 1_700_000_000_000L + i * 1000L);
        eventTime.put("max", 1_700_000_010_000L + i * 1000L);
        Map<String, Long> custom = new LinkedHashMap<>();
        custom.put("stateOnCurrentVersionSizeBytes", 5000L + i);
        custom.put("loadedMapCacheHitCount", (long) i);
        custom.put("loadedMapCacheMissCount", 0L);
        StreamingProgress.StateOperator op = new StreamingProgress.StateOperator(new String("stateStoreSave"),
                1000 + i, 100, 90, 20, 5, 10, 64_000 + i, 0, 8, 8, custom);
        StreamingProgress.Source src = new StreamingProgress.Source(
                new String("RateStreamV2[rowsPerSecond=50, rampUpTimeSeconds=0, numPartitions=default"),
                String.valueOf(i * 50L), String.valueOf((i + 1) * 50L), String.valueOf((i + 1) * 50L), 50,
                49.5 + i % 3, 120.25 + i % 7, Map.of());
        return new StreamingProgress(new String("q"), new String("r"), new String("clicks"),
                1_700_000_000_000L + i * 1000L, i, 400 + i % 100, durations, eventTime, List.of(op), List.of(src),
                new StreamingProgress.Sink(new String("MemorySink"), 50));
    }

    private static long used() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
