package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorder thread naps between drains instead of waking for every event. These pipelines nap up to a minute, so
 * whatever happens in time here happened because something woke the thread: a queue passing its wake level, the
 * application's end, a shutdown-hook flush request.
 */
class RecordingPipelineWakeupTest {
    private static final long T0 = 1_764_600_000_000L;
    private static final long LONG_NAP_MS = 60_000;

    @Test
    void burstsFarLargerThanTheQueueLoseNothing() throws Exception {
        AtomicReference<AppSnapshot> last = new AtomicReference<>();
        // 1 000 places, woken at 250: a nap of a minute would overflow it many times over.
        RecordingPipeline p = pipeline(Map.of("spark.sparkscope.queue.capacity", "1000",
                "spark.sparkscope.flush.intervalMs", "3600000"), last);
        p.start();
        p.offer(new SparkEvent.ApplicationStart("wake", "app-wake-burst", null, T0, "alice"));
        int offered = 1;
        for (int burst = 0; burst < 40; burst++) {
            for (int i = 0; i < 600; i++) {
                p.offer(new SparkEvent.Unknown("Burst"));
                offered++;
            }
            Thread.sleep(20);
        }
        p.offer(new SparkEvent.ApplicationEnd(T0 + 1_000));
        offered++;
        assertTrue(p.awaitFinished(30_000), "final snapshot published");
        assertEquals(0, p.droppedEvents(), "events dropped");
        assertNotNull(last.get());
        assertEquals(offered, last.get().eventCount(), "every event recorded");
        assertEquals(Map.of("Burst", 24_000L), last.get().unknownEventTypes());
    }

    @Test
    void theApplicationsEndIsFoldedAtOnceNotAfterANap() throws Exception {
        AtomicReference<AppSnapshot> last = new AtomicReference<>();
        RecordingPipeline p = pipeline(Map.of("spark.sparkscope.flush.intervalMs", "3600000"), last);
        p.start();
        p.offer(new SparkEvent.ApplicationStart("wake", "app-wake-end", null, T0, "alice"));
        for (int i = 0; i < 10; i++) {
            p.offer(new SparkEvent.Unknown("Few"));
        }
        Thread.sleep(200); // the recorder has drained these and is napping
        long start = System.nanoTime();
        p.offer(new SparkEvent.ApplicationEnd(T0 + 1_000));
        assertTrue(p.awaitFinished(30_000), "final snapshot published");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < 10_000, "the end waited " + ms + " ms");
        assertTrue(last.get().complete());
        assertEquals(12, last.get().eventCount());
    }

    @Test
    void aShutdownFlushRequestWakesTheRecorder() throws Exception {
        AtomicReference<AppSnapshot> last = new AtomicReference<>();
        RecordingPipeline p = pipeline(Map.of("spark.sparkscope.flush.intervalMs", "3600000"), last);
        p.start();
        p.offer(new SparkEvent.ApplicationStart("wake", "app-wake-hook", null, T0, "alice"));
        p.offer(new SparkEvent.Unknown("Few"));
        Thread.sleep(200);
        long start = System.nanoTime();
        p.requestFinalFlush();
        assertTrue(p.awaitFinished(30_000), "final snapshot published");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < 10_000, "the flush request waited " + ms + " ms");
        assertEquals(2, last.get().eventCount());
        assertEquals(Map.of("Few", 1L), last.get().unknownEventTypes());
    }

    @Test
    void eventsBehindTheEndInOneDrainAreRecordedAsLateEvents() throws Exception {
        AtomicReference<AppSnapshot> last = new AtomicReference<>();
        ListenerConfig cfg = ListenerConfig.from(Map.of("spark.sparkscope.flush.intervalMs", "3600000"), w -> { });
        RecordingPipeline p = new RecordingPipeline(cfg, null, s -> List.of(), (s, f) -> last.set(s), null,
                LONG_NAP_MS);
        // Queued before the recorder thread runs, so its first drain takes the end and what follows it together.
        p.offer(new SparkEvent.ApplicationStart("wake", "app-wake-late", null, T0, "alice"));
        p.offer(new SparkEvent.ApplicationEnd(T0 + 1_000));
        p.offer(new SparkEvent.Unknown("Late"));
        p.start();
        assertTrue(p.awaitFinished(30_000), "final snapshot published");
        assertTrue(p.awaitDone(30_000), "late events handled");
        assertEquals(Map.of("Late", 1L), p.lastSnapshot().unknownEventTypes(), "the late event is in the last snapshot");
        assertEquals(3, p.lastSnapshot().eventCount());
    }

    private static RecordingPipeline pipeline(Map<String, String> conf, AtomicReference<AppSnapshot> last) {
        ListenerConfig cfg = ListenerConfig.from(conf, w -> { });
        return new RecordingPipeline(cfg, null, s -> List.of(), (s, f) -> last.set(s), null, LONG_NAP_MS);
    }
}
