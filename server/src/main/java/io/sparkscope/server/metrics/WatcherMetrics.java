package io.sparkscope.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sparkscope.ingest.watch.LogWatcher;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The watcher of {@code serve --watch}, one scan at a time. Its lag is how long ago the last scan that worked ended:
 * it grows while the directory or the database cannot be read, which is what an alert should see.
 */
public final class WatcherMetrics implements Consumer<LogWatcher.Scan> {
    private final Timer scans;
    private final Counter failedScans;
    private final Counter failedLogs;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong lastGoodScanEnd;
    private final LongSupplier clock;

    WatcherMetrics(MeterRegistry registry) {
        this(registry, System::currentTimeMillis);
    }

    WatcherMetrics(MeterRegistry registry, LongSupplier clock) {
        this.clock = clock;
        // Until the first scan ends, lag counts from the start: a watcher that never manages a scan still shows.
        this.lastGoodScanEnd = new AtomicLong(clock.getAsLong());
        scans = Timer.builder("sparkscope.watcher.scans").description("Watcher scans of the event-log directory")
                .register(registry);
        failedScans = Counter.builder("sparkscope.watcher.scan.failures")
                .description("Watcher scans that could not list the directory or use the database").register(registry);
        failedLogs = Counter.builder("sparkscope.watcher.log.failures")
                .description("Event logs a watcher scan could not read or store").register(registry);
        Gauge.builder("sparkscope.watcher.lag", this, m -> (m.clock.getAsLong() - m.lastGoodScanEnd.get()) / 1000.0)
                .baseUnit("seconds").description("Seconds since the last watcher scan that worked ended")
                .register(registry);
        Gauge.builder("sparkscope.watcher.running.logs", running, AtomicInteger::get)
                .description("Event logs of running applications the watcher follows").register(registry);
    }

    @Override
    public void accept(LogWatcher.Scan scan) {
        scans.record((long) (scan.seconds() * 1e9), TimeUnit.NANOSECONDS);
        failedLogs.increment(scan.failed());
        if (scan.error() != null) {
            failedScans.increment();
            return;
        }
        running.set(scan.running());
        lastGoodScanEnd.set(clock.getAsLong());
    }
}
