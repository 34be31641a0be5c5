package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * One Spark driver's recording path without Spark, for the many-writers benchmark: the listener's own recorder
 * thread, writer thread, spool and database store (a pool of two connections, as each driver has), fed converted
 * events directly instead of from Spark's listener bus. It lives in the listener's package because that path is
 * package-private: the listener's public face is only the SparkListener. The one addition is a clock around each
 * database write, which the benchmark reads as flush latency.
 */
public final class SimulatedDriver {
    private final RecordingPipeline pipeline;

    /**
     * @param conf     the listener's settings, as {@code spark.sparkscope.*} entries; an invalid one is an error here
     * @param written  called with the nanoseconds of each write the database took (on the writer thread)
     * @param failed   called with the nanoseconds of each write that failed or was refused
     */
    public SimulatedDriver(Map<String, String> conf, LongConsumer written, LongConsumer failed) {
        ListenerConfig cfg = ListenerConfig.from(conf, w -> {
            throw new IllegalArgumentException(w);
        });
        Function<AppSnapshot, List<Finding>> diagnose = Wiring.diagnoser(cfg);
        SnapshotStore store = new JdbcSnapshotStore(cfg);
        SnapshotStore timed = new SnapshotStore() {
            @Override
            public void write(AppSnapshot snapshot, List<Finding> findings) throws Exception {
                long t0 = System.nanoTime();
                try {
                    store.write(snapshot, findings);
                } catch (Exception e) {
                    failed.accept(System.nanoTime() - t0);
                    throw e;
                }
                written.accept(System.nanoTime() - t0);
            }

            @Override
            public void close() {
                store.close();
            }
        };
        SnapshotDelivery delivery = new SnapshotDelivery(timed, Wiring.spool(cfg), diagnose,
                cfg.retryMaxBackoffMs());
        this.pipeline = new RecordingPipeline(cfg, delivery, diagnose, (s, f) -> { });
    }

    public void start() {
        pipeline.start();
    }

    /** As Spark's bus thread hands an event to the listener: never blocks. */
    public void offer(SparkEvent event) {
        pipeline.offer(event);
    }

    /** Waits for the final snapshot (after an ApplicationEnd) to be written or spooled; false on timeout. */
    public boolean awaitFinished(long timeoutMs) throws InterruptedException {
        return pipeline.awaitFinished(timeoutMs);
    }

    public void stop() {
        pipeline.stop();
    }

    /** The last snapshot handed to the writer (after the end: the final one). */
    public AppSnapshot lastSnapshot() {
        return pipeline.lastSnapshot();
    }

    /** Why the final snapshot is not in the database, or null when it is. */
    public String notStored() {
        return pipeline.notStored();
    }

    public long droppedEvents() {
        return pipeline.droppedEvents();
    }
}
