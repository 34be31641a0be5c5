package io.sparkscope.listener;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.Spool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Background delivery of snapshots to the store. Latest wins: a snapshot holds everything that changed since the
 * last successful write (the recorder acknowledges nothing until {@link #onWritten} says so), so when the database is
 * slow the newest one replaces any not yet written and nothing is lost. When the database is away the snapshot's
 * spool copy goes to the {@link Spool} and delivery is retried with exponential backoff; spooled snapshots of earlier
 * applications are delivered once the database answers again.
 */
final class SnapshotDelivery implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotDelivery.class);

    private final SnapshotStore store;
    private final Spool spool;
    /** Findings for snapshots that come back from the spool (computed again: thresholds may have changed). */
    private final Function<AppSnapshot, List<Finding>> diagnose;
    private final long maxBackoffMs;
    private final Object lock = new Object();
    private AppSnapshot pending;
    /** What goes to the spool for {@code pending} when the database is away (see {@link #submit}). */
    private AppSnapshot pendingSpoolCopy;
    private volatile Consumer<AppSnapshot> onWritten = s -> { };
    private List<Finding> pendingFindings = List.of();
    private boolean pendingFinal;
    private boolean finalHandled;
    private volatile boolean stopped;
    /** After the application ended: finish once everything is written, then release the pool. */
    private volatile boolean stopWhenIdle;
    /** True while a snapshot taken from {@code pending} is being written or spooled. */
    private boolean busy;
    private final AtomicBoolean outageLogged = new AtomicBoolean();
    private final AtomicBoolean spoolFullLogged = new AtomicBoolean();
    private final AtomicBoolean finalLossLogged = new AtomicBoolean();
    private final AtomicBoolean rejectionLogged = new AtomicBoolean();
    private final AtomicLong droppedBytes = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    /** Why the final snapshot is not in the database, in words for the driver log; null once it was written. */
    private volatile String finalNotStored;
    private final Thread thread;

    SnapshotDelivery(SnapshotStore store, Spool spool, Function<AppSnapshot, List<Finding>> diagnose,
                     long maxBackoffMs) {
        this.maxBackoffMs = maxBackoffMs;
        this.store = store;
        this.spool = spool;
        this.diagnose = diagnose;
        this.thread = new Thread(this, "sparkscope-writer");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Called on the writer's thread with each snapshot the store took (written, unchanged or already newer). */
    void onWritten(Consumer<AppSnapshot> hook) {
        this.onWritten = hook;
    }

    /** Never blocks: replaces whatever snapshot is waiting. */
    void submit(AppSnapshot snapshot, List<Finding> findings, boolean isFinal) {
        submit(snapshot, snapshot, findings, isFinal);
    }

    /**
     * @param spoolCopy what the spool keeps should the database be away: a snapshot of the changes alone could not be
     *                  diagnosed on its own when delivered later, so the listener spools its retained snapshot, which
     *                  holds every entity not yet written (and the run's totals)
     */
    void submit(AppSnapshot snapshot, AppSnapshot spoolCopy, List<Finding> findings, boolean isFinal) {
        synchronized (lock) {
            pending = snapshot;
            pendingSpoolCopy = spoolCopy;
            pendingFindings = findings;
            pendingFinal |= isFinal;
            lock.notifyAll();
        }
    }

    /** Waits until the final snapshot was written or spooled; false on timeout. */
    boolean awaitFinal(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (lock) {
            while (!finalHandled) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                lock.wait(left);
            }
            return true;
        }
    }

    /**
     * Waits until nothing is pending or being written, or the last attempt failed (then the data is in the spool);
     * false on timeout.
     */
    boolean awaitIdle(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (lock) {
            while (busy || (pending != null && !outageLogged.get())) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                lock.wait(left);
            }
            return true;
        }
    }

    long writes() {
        return writes.get();
    }

    /**
     * Why the final snapshot is not in the database, as one clause ("the database could not be reached (…); …"), or
     * null when it was written. Meaningful once {@link #awaitFinal} returned true.
     */
    String finalNotStored() {
        return finalNotStored;
    }

    /**
     * The application has ended: once the last snapshot is written, the thread ends and the store's connections are
     * closed, so a long-lived JVM running many SparkContexts keeps nothing. While the database is away it keeps
     * retrying (the data also sits in the spool).
     */
    void stopWhenIdle() {
        stopWhenIdle = true;
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /**
     * Stops the writer and waits (ten seconds at most) for its thread to end, so nothing is written to the database
     * or the spool after this returns: a test that deletes the spool directory next must not race a last retry.
     */
    void stop() {
        stopped = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        // Not interrupted: the notify above ends a backoff wait, a connection attempt gives up within the pool's
        // timeout, and an interrupt would make the pool's own shutdown complain.
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        long backoff = 500;
        boolean lastFailed = false;
        deliverSpooled();
        while (!stopped) {
            AppSnapshot snapshot;
            AppSnapshot spoolCopy;
            List<Finding> findings;
            boolean isFinal;
            synchronized (lock) {
                try {
                    if (pending == null) {
                        lock.wait(lastFailed ? backoff : 1_000);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (pending == null) {
                    if (stopWhenIdle && !lastFailed) {
                        break;
                    }
                    continue;
                }
                snapshot = pending;
                spoolCopy = pendingSpoolCopy;
                findings = pendingFindings;
                isFinal = pendingFinal;
                pending = null;
                pendingSpoolCopy = null;
                pendingFinal = false;
                busy = true;
            }
            if (lastFailed && !isFinal) {
                // Back off before retrying, but not past the application's end: a final snapshot submitted meanwhile
                // must reach the spool at once (spark.stop() waits for it), and a newer snapshot replaces this one.
                synchronized (lock) {
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
                    while (!pendingFinal && !stopped) {
                        long left = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
                        if (left <= 0) {
                            break;
                        }
                        try {
                            lock.wait(left);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                    if (pending != null) {
                        snapshot = pending;
                        spoolCopy = pendingSpoolCopy;
                        findings = pendingFindings;
                        isFinal = pendingFinal;
                        pending = null;
                        pendingSpoolCopy = null;
                        pendingFinal = false;
                    }
                }
            }
            if (lastFailed && isFinal) {
                // The database was away at the last try: secure the final state in the spool first, so the driver
                // stops at once; the write below (and the retries after it) go on in the background.
                finalNotStored = "the database could not be reached" + spooledIn(spoolFinal(spoolCopy));
                markFinalHandled();
            }
            try {
                store.write(snapshot, findings);
                writes.incrementAndGet();
                acknowledge(snapshot);
                // Remove this attempt's spooled copy first: it is older than what was just written.
                spool.remove(snapshot);
                if (lastFailed) {
                    LOG.info("Sparkscope: database reachable again; recording resumed");
                    deliverSpooled();
                }
                lastFailed = false;
                backoff = 500;
                outageLogged.set(false);
                if (isFinal) {
                    finalNotStored = null;
                    markFinalHandled();
                }
            } catch (SnapshotRejectedException e) {
                // The database is there but will not take this snapshot: no outage, nothing to wait for. Keep it in
                // the spool (an import --spool can deliver it once the cause is fixed) and go on recording; the next
                // snapshot is tried as usual.
                if (rejectionLogged.compareAndSet(false, true)) {
                    LOG.warn("Sparkscope: the database refused the snapshot of {} ({}); keeping it in {} and "
                            + "recording on", snapshot.appId(), e.getMessage(), spool.dir());
                }
                long dropped = spoolQuietly(spoolCopy);
                lastFailed = false;
                backoff = 500;
                outageLogged.set(false);
                if (isFinal) {
                    finalNotStored = "the database refused it (" + e.getMessage() + ")" + spooledIn(dropped);
                    markFinalHandled();
                }
            } catch (Throwable t) {
                lastFailed = true;
                backoff = Math.min(maxBackoffMs, backoff * 2);
                if (outageLogged.compareAndSet(false, true)) {
                    LOG.warn("Sparkscope: cannot write to the database ({}); keeping snapshots in {} and retrying",
                            oneLine(t), spool.dir());
                }
                if (isFinal) {
                    finalNotStored = "the database could not be reached (" + oneLine(t) + ")"
                            + spooledIn(spoolFinal(spoolCopy));
                } else {
                    spoolQuietly(spoolCopy);
                }
                synchronized (lock) {
                    if (pending == null) {
                        // retry this one unless a newer snapshot arrived meanwhile (it holds this one's changes too)
                        pending = snapshot;
                        pendingSpoolCopy = spoolCopy;
                        pendingFindings = findings;
                        pendingFinal |= isFinal;
                    }
                }
                if (isFinal) {
                    // The data is safe in the spool; the driver must not wait on an absent database.
                    markFinalHandled();
                }
            }
            synchronized (lock) {
                busy = false;
                lock.notifyAll();
            }
        }
        store.close();
    }

    private void acknowledge(AppSnapshot written) {
        try {
            onWritten.accept(written);
        } catch (RuntimeException e) {
            LOG.debug("Sparkscope: after-write acknowledgement failed", e);
        }
    }

    private void markFinalHandled() {
        synchronized (lock) {
            finalHandled = true;
            lock.notifyAll();
        }
    }

    /** @return the bytes that did not fit (0: spooled), or -1 when the spool could not be written at all */
    private long spoolQuietly(AppSnapshot snapshot) {
        try {
            long dropped = spool.save(snapshot);
            if (dropped > 0) {
                droppedBytes.addAndGet(dropped);
                if (spoolFullLogged.compareAndSet(false, true)) {
                    LOG.warn("Sparkscope: spool {} is full (spark.sparkscope.spool.maxBytes); dropped a snapshot "
                            + "of {} bytes; it will be written once the database is back", spool.dir(), dropped);
                }
            }
            return dropped;
        } catch (Throwable t) {
            if (spoolFullLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: cannot write the spool {} ({})", spool.dir(), oneLine(t));
            }
            return -1;
        }
    }

    /**
     * Spools the final snapshot while the database is away. Should it not fit, the application's end says what is
     * lost: the first spool warning came while the application ran and promised a later write, which a driver that
     * exits now will never make.
     */
    private long spoolFinal(AppSnapshot snapshot) {
        long dropped = spoolQuietly(snapshot);
        if (dropped != 0 && finalLossLogged.compareAndSet(false, true)) {
            LOG.warn("Sparkscope: application end: the database is away and the final snapshot of {} {}; its last "
                    + "state ({} job(s), {} stage attempt(s), {} event(s), and that it ended) is lost if the driver "
                    + "exits before the database answers again; the database keeps what was written before the "
                    + "outage, as a running application", snapshot.appId(),
                    dropped > 0 ? "(" + dropped + " bytes) did not fit in spool " + spool.dir()
                            + " (spark.sparkscope.spool.maxBytes = " + spool.maxBytes() + " bytes)"
                            : "could not be written to spool " + spool.dir(),
                    snapshot.jobs().size(), snapshot.stages().size(), snapshot.eventCount());
        }
        return dropped;
    }

    /** Where the snapshot that was not written waits, for the driver-log report (see {@link #spoolQuietly}). */
    private String spooledIn(long dropped) {
        return dropped == 0
                ? "; it waits in " + spool.dir() + " (sparkscope import --spool " + spool.dir() + " delivers it)"
                : "; the spool " + spool.dir() + " could not hold it either";
    }

    /**
     * Delivers snapshots spooled by earlier runs; stops at the first outage. A file the database refuses stays in the
     * spool and the next one is tried.
     */
    private void deliverSpooled() {
        try {
            for (Path file : spool.files()) {
                AppSnapshot s = spool.load(file);
                try {
                    store.write(s, diagnose.apply(s));
                } catch (SnapshotRejectedException e) {
                    if (rejectionLogged.compareAndSet(false, true)) {
                        LOG.warn("Sparkscope: the database refused the spooled snapshot {} ({}); left in the spool",
                                file, e.getMessage());
                    }
                    continue;
                }
                java.nio.file.Files.deleteIfExists(file);
                LOG.info("Sparkscope: delivered spooled snapshot of {}", s.appId());
            }
        } catch (Throwable t) {
            // the database is still away, or a spool file is unreadable: try again later
        }
    }


    static String oneLine(Throwable t) {
        String m = t.getMessage();
        String s = t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
