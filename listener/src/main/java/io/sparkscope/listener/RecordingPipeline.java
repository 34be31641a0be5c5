package io.sparkscope.listener;

import io.sparkscope.core.analysis.WindowedDiagnosis;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.notify.WebhookNotifier;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Spark's bus thread only {@link #offer}s converted events into a bounded queue; one recorder thread folds them
 * into the {@link Recorder}, and every {@code flush.intervalMs} (and at application end) hands a snapshot to the
 * {@link SnapshotDelivery} thread, which writes it. Neither thread ever blocks the bus.
 *
 * <p>What is handed over is what changed since the last successful write ({@link Recorder#snapshots}), so a flush
 * costs what changed, not what the application did so far; once written, completed jobs, stages and SQL executions
 * past the {@code retained.*} windows leave the driver. The heuristics and the driver-log report read the retained
 * snapshot, whose run totals cover the whole run, plus the findings kept of stages that left
 * ({@link WindowedDiagnosis}).
 */
final class RecordingPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(RecordingPipeline.class);
    /** How long after ApplicationEnd late events are still recorded. */
    static final long LATE_EVENT_GRACE_MS = 3_000;
    /** ... but only while they keep coming: this long without an event ends the wait. */
    static final long LATE_EVENT_QUIET_MS = 300;
    /**
     * Longest nap of the recorder thread between drains of the queue. Waking it for every event (a tiny job posts
     * about ten) cost a futex wake and context switches each, on both the bus thread and ours; instead the first
     * event into an empty queue wakes it, and it naps this long so that the events behind it gather and are folded
     * in one batch. Events wait at most this long before they are recorded, far less than the flush interval that
     * decides when anyone sees them.
     */
    static final long NAP_MS = 25;
    /** Most events a drain takes at once; a full drain goes on at once without a nap (a burst is being worked off). */
    static final int DRAIN_BATCH = 4096;

    private final ListenerConfig config;
    private final BlockingQueue<SparkEvent> queue;
    private final Recorder recorder;
    private final SnapshotDelivery delivery;
    private final WindowedDiagnosis diagnosis;
    private final BiConsumer<AppSnapshot, List<Finding>> onFinal;
    private final WebhookNotifier notifier;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicBoolean dropLogged = new AtomicBoolean();
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    /**
     * Events queued and not yet taken by the recorder thread. The thread offering the event that brings it to
     * {@link #wakeLevel} wakes the napping recorder, so a burst is worked off long before the queue could overflow.
     */
    private final AtomicInteger pending = new AtomicInteger();
    private final int wakeLevel;
    private final long napMs;
    /** Set with the application's end: the recorder thread folds it without napping first. */
    private volatile boolean urgent;
    private final Thread thread;
    private volatile AppSnapshot lastSnapshot;
    private volatile List<Finding> lastFindings = List.of();
    private volatile AppSnapshot lastChanged;
    /** When the findings of a periodic snapshot were last computed (0: never). */
    private long lastDiagnosisMs;
    /** Set by the JVM shutdown hook when the application never posted its end. */
    private volatile boolean flushRequested;
    /** Whether the final snapshot was written or spooled before the driver-log report (false: still under way). */
    private volatile boolean finalHandled;

    /**
     * @param delivery null when no database is configured (the report is still logged)
     * @param diagnose runs the heuristics on a snapshot (once per published snapshot)
     * @param onFinal  called on the recorder thread with the final snapshot and findings (the driver-log report)
     */
    RecordingPipeline(ListenerConfig config, SnapshotDelivery delivery, Function<AppSnapshot, List<Finding>> diagnose,
                      BiConsumer<AppSnapshot, List<Finding>> onFinal) {
        this(config, delivery, diagnose, onFinal, null);
    }

    /** @param notifier the webhook, or null; {@link #awaitDone} also waits (within its timeout) for its POSTs */
    RecordingPipeline(ListenerConfig config, SnapshotDelivery delivery, Function<AppSnapshot, List<Finding>> diagnose,
                      BiConsumer<AppSnapshot, List<Finding>> onFinal, WebhookNotifier notifier) {
        this(config, delivery, diagnose, onFinal, notifier, NAP_MS);
    }

    /** @param napMs the recorder thread's longest nap between drains (tests lengthen it to see what wakes it) */
    RecordingPipeline(ListenerConfig config, SnapshotDelivery delivery, Function<AppSnapshot, List<Finding>> diagnose,
                      BiConsumer<AppSnapshot, List<Finding>> onFinal, WebhookNotifier notifier, long napMs) {
        this.napMs = napMs;
        this.notifier = notifier;
        this.config = config;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        // A quarter of the queue: room for three more quarters to arrive while the woken thread gets going.
        this.wakeLevel = Math.max(1, Math.min(DRAIN_BATCH, config.queueCapacity() / 4));
        this.recorder = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(config.tasksPerStage())
                .withRetainedDetailTasks(config.tasksRetained())
                .withWindow(config.retainedJobs(), config.retainedStages(), config.retainedSqlExecutions())
                .withDeadExecutorWindow(config.retainedDeadExecutors()),
                config.streamingLimits());
        this.diagnosis = new WindowedDiagnosis(diagnose);
        recorder.setEvictionListener(diagnosis);
        this.delivery = delivery;
        if (delivery != null) {
            // Acknowledged on the writer's thread: what that snapshot held is stored and may leave the driver.
            delivery.onWritten(s -> recorder.written(s.eventCount()));
        }
        this.onFinal = onFinal;
        this.thread = new Thread(this::run, "sparkscope-recorder");
        thread.setDaemon(true);
    }

    void start() {
        if (delivery != null) {
            delivery.start();
        }
        thread.start();
    }

    /** Called on Spark's bus thread: constant time, never blocks, never throws. */
    void offer(SparkEvent event) {
        if (queue.offer(event)) {
            // Counted after the event is in the queue, so the woken thread finds it. The first event into an empty
            // queue wakes the idle recorder (which then naps a little to let more gather); the one reaching the
            // wake level cuts that nap short. The application's end is waited for by the bus thread
            // (onApplicationEnd), so it is folded at once rather than after a nap.
            int n = pending.incrementAndGet();
            if (event instanceof SparkEvent.ApplicationEnd) {
                urgent = true;
                LockSupport.unpark(thread);
            } else if (n == 1 || n == wakeLevel) {
                LockSupport.unpark(thread);
            }
        } else {
            long n = dropped.incrementAndGet();
            if (dropLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: recorder queue full ({} events); dropping events (first drop; "
                        + "{} raises the limit)", config.queueCapacity(), ListenerSettings.QUEUE_CAPACITY.key());
            }
            if (n % 100_000 == 0) {
                LOG.warn("Sparkscope: {} events dropped so far", n);
            }
        }
    }

    long droppedEvents() {
        return dropped.get();
    }

    /**
     * Why the application is not in the database, as one clause for the driver-log report, or null when its final
     * snapshot was written. Read by the report, after the final snapshot was handed over.
     */
    String notStored() {
        if (delivery == null) {
            return "no database is configured (" + ListenerSettings.JDBC_URL.key() + ")";
        }
        if (!finalHandled) {
            return "the database did not answer within " + config.flushTimeoutMs() + " ms ("
                    + ListenerSettings.FLUSH_TIMEOUT_MS.key() + "); the write goes on in the background";
        }
        return delivery.finalNotStored();
    }

    AppSnapshot lastSnapshot() {
        return lastSnapshot;
    }

    List<Finding> lastFindings() {
        return lastFindings;
    }

    /** Waits, at most {@code timeoutMs}, for the final snapshot to be folded, reported and written or spooled. */
    boolean awaitFinished(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        if (!finished.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            return false;
        }
        if (delivery == null) {
            return true;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        return delivery.awaitFinal(Math.max(0, left));
    }

    /** From the shutdown hook: publish what we have as final, even without ApplicationEnd. */
    void requestFinalFlush() {
        flushRequested = true;
        LockSupport.unpark(thread);
    }

    /** Stops recording and writing, and returns once neither thread can touch the database or the spool. */
    void stop() {
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (delivery != null) {
            delivery.stop();
        }
    }

    private void run() {
        List<SparkEvent> batch = new ArrayList<>(1024);
        long nextFlush = System.currentTimeMillis() + config.flushIntervalMs();
        boolean dirty = false;
        while (true) {
            try {
                if (flushRequested) {
                    for (SparkEvent e = take(); e != null; e = take()) {
                        apply(e);
                    }
                    finish();
                    return;
                }
                int n = drain(batch);
                for (int i = 0; i < n; i++) {
                    SparkEvent e = batch.get(i);
                    apply(e);
                    dirty = true;
                    if (e instanceof SparkEvent.ApplicationEnd) {
                        finish();
                        // Whatever followed the end in this batch came late, as the events still to come.
                        afterEnd(batch.subList(i + 1, n));
                        if (delivery != null) {
                            delivery.stopWhenIdle();
                        }
                        return;
                    }
                }
                batch.clear();
                long now = System.currentTimeMillis();
                if (dirty && now >= nextFlush) {
                    publish(false);
                    dirty = false;
                    now = System.currentTimeMillis();
                }
                if (now >= nextFlush) {
                    nextFlush = now + config.flushIntervalMs();
                }
                // A wake-up that came while this drain was under way may have found the count already past the wake
                // level (the drained events are subtracted only afterwards): go on at once then.
                if (n == DRAIN_BATCH || pending.get() >= wakeLevel) {
                    continue;
                }
                if (pending.get() == 0) {
                    // Idle: sleep until the next flush is due; the next event (or a flush request) wakes us.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.max(1, nextFlush - now)));
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    now = System.currentTimeMillis();
                }
                int waiting = pending.get();
                // Read after the idle sleep ended: the wake-ups of the first event and of the wake level may have
                // come together and ended it once, so a count already at the wake level means a drain at once.
                if (waiting > 0 && waiting < wakeLevel && !urgent && !flushRequested) {
                    // Events are waiting: let more of them arrive before the next drain, at most napMs and not past
                    // the next flush; the wake level, the application's end and a flush request cut it short.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.max(1, Math.min(napMs, nextFlush - now))));
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                }
            } catch (Throwable t) {
                // Keep recording: one bad event must not end the recording of the whole application.
                if (failureLogged.compareAndSet(false, true)) {
                    LOG.warn("Sparkscope: recorder error ({}); continuing", SnapshotDelivery.oneLine(t));
                }
                batch.clear();
            }
        }
    }

    /** Moves up to {@link #DRAIN_BATCH} queued events into {@code batch}; how many. */
    private int drain(List<SparkEvent> batch) {
        int n = queue.drainTo(batch, DRAIN_BATCH);
        if (n > 0) {
            pending.addAndGet(-n);
        }
        return n;
    }

    /** The next queued event, or null. */
    private SparkEvent take() {
        SparkEvent e = queue.poll();
        if (e != null) {
            pending.decrementAndGet();
        }
        return e;
    }

    /**
     * Spark may post events after ApplicationEnd: a failed job's JobEnd can follow the user's {@code stop()} (the
     * user's thread learns of the failure before the scheduler posts the end). For a short grace period, such
     * late events are still recorded and the final snapshot is written again.
     */
    private void afterEnd(List<SparkEvent> alreadyTaken) {
        boolean late = false;
        try {
            // The bus thread is held in onApplicationEnd until the final snapshot is written, so late events can only
            // reach us after that: start the grace period (and its quiet window) then, not at ApplicationEnd — a final
            // write longer than the quiet window used to end the wait before the late JobEnd could arrive.
            if (delivery != null) {
                delivery.awaitFinal(config.flushTimeoutMs());
            }
            for (SparkEvent e : alreadyTaken) {
                apply(e);
                late = true;
            }
            long deadline = System.currentTimeMillis() + LATE_EVENT_GRACE_MS;
            // Late events come right behind ApplicationEnd on Spark's bus: stop once the queue has been quiet a while.
            while (System.currentTimeMillis() < deadline) {
                SparkEvent e = queue.poll(Math.min(LATE_EVENT_QUIET_MS, Math.max(1,
                        deadline - System.currentTimeMillis())), TimeUnit.MILLISECONDS);
                if (e == null) {
                    break;
                }
                pending.decrementAndGet();
                apply(e);
                late = true;
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
        if (late) {
            publish(true);
        }
    }

    /**
     * At JVM exit after the application ended: waits, at most {@code timeoutMs}, until late events were recorded
     * and everything was written (or spooled), so a driver that exits right after {@code stop()} loses nothing.
     */
    boolean awaitDone(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        thread.join(Math.max(1, timeoutMs));
        boolean done = !thread.isAlive();
        if (delivery != null) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            done = done && delivery.awaitIdle(Math.max(0, left));
        }
        if (notifier != null) {
            // the webhook POSTs (with their retries) get what is left of the same timeout, never more
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            done = notifier.awaitIdle(Math.max(0, left)) && done;
        }
        return done;
    }

    private void apply(SparkEvent e) {
        try {
            recorder.onEvent(e);
        } catch (RuntimeException ex) {
            if (failureLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: could not record a {} event ({}); skipping it", e.getClass().getSimpleName(),
                        SnapshotDelivery.oneLine(ex));
            }
        }
    }

    private void publish(boolean isFinal) {
        // Periodic snapshots leave out running stages' task rows: they change with every task end, and rewriting up to
        // tasks.perStage (10 000) of them each flush measurably slowed the job on a small driver
        // (docs/benchmarks/listener-overhead.md). Statistics still go out each flush; the tasks once the stage
        // completes, and at the end.
        Recorder.Snapshots snapshots = recorder.snapshots(isFinal);
        AppSnapshot retained = snapshots.retained();
        if (retained.appId() == null) {
            // Nothing to key it by before ApplicationStart: such a snapshot could never be stored or replaced.
            return;
        }
        // Diagnosing runs every heuristic over the retained window (up to a thousand jobs, stages and SQL executions):
        // on a driver running many small jobs, doing it at every flush was a good part of the listener's CPU per job,
        // taken from the job itself on a small driver. A running application's findings may therefore lag by up to
        // diagnosis.intervalMs; the flushes in between write the last findings again (the store skips unchanged rows),
        // and the final snapshot is always diagnosed.
        long now = System.currentTimeMillis();
        List<Finding> findings;
        if (isFinal || lastDiagnosisMs == 0 || now - lastDiagnosisMs >= config.diagnosisIntervalMs()) {
            findings = diagnosis.diagnose(retained);
            lastDiagnosisMs = now;
        } else {
            findings = lastFindings;
        }
        lastSnapshot = retained;
        lastFindings = findings;
        lastChanged = snapshots.changed();
        if (delivery != null) {
            // The changed entities go to the database; should it be away, the spool gets the retained snapshot: it
            // holds everything not yet written (nothing leaves the driver unwritten) and can be diagnosed on its own.
            delivery.submit(snapshots.changed(), retained, findings, isFinal);
        } else {
            recorder.written(snapshots.changed().eventCount()); // nothing to write: entities may leave at once
        }
    }

    /** The last snapshot of changes handed to the writer (tests). */
    AppSnapshot lastChanged() {
        return lastChanged;
    }

    Recorder recorder() {
        return recorder;
    }

    private void finish() {
        try {
            publish(true);
            if (delivery != null) {
                // The report says whether the run is in the database (its link works) or why not: wait for the
                // final write, which the driver waits for anyway (spark.stop() is held until it is written or spooled).
                finalHandled = delivery.awaitFinal(config.flushTimeoutMs());
            }
            onFinal.accept(lastSnapshot, lastFindings);
        } catch (Throwable t) {
            LOG.warn("Sparkscope: could not finish the recording ({})", SnapshotDelivery.oneLine(t));
        } finally {
            finished.countDown();
        }
    }
}
