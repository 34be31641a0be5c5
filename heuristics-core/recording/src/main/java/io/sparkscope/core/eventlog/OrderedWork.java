package io.sparkscope.core.eventlog;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Work done on a few threads and taken back in the order it was handed in, on the one thread that hands it in: the
 * event-log reader parses batches of lines on several threads while its own thread settles and delivers them one
 * after the other, so the recorder sees the log's order and never a second thread.
 *
 * <p>Bounded: at most {@code maxPending} pieces, and at most {@code maxWeight} of their weight (the bytes of their
 * lines), are handed out and not yet taken back; handing in more first takes back the oldest. So memory stays a
 * few batches whatever the log's size. The threads are started on the first piece handed out, so a log that fits
 * in one batch starts none ({@link #finish} runs it here), and {@link #close} stops them.
 *
 * <p>A piece that throws surfaces where its result is taken back: an {@link Error} (the heap ran out) as itself,
 * anything else as an {@link IllegalStateException} naming it, with it as the cause.
 *
 * @param <T> what one piece gives
 */
final class OrderedWork<T> implements AutoCloseable {
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final int threads;
    private final int maxPending;
    private final long maxWeight;
    private final ArrayDeque<Pending<T>> pending = new ArrayDeque<>();
    private long weight;
    private ExecutorService pool;
    /** The pool's threads, so that {@link #close} can wait until each has ended. */
    private final List<Thread> started = new CopyOnWriteArrayList<>();

    private record Pending<T>(Future<T> result, long weight, Consumer<T> then) {
    }

    OrderedWork(int threads, int maxPending, long maxWeight) {
        this.threads = Math.max(1, threads);
        this.maxPending = Math.max(1, maxPending);
        this.maxWeight = Math.max(1, maxWeight);
    }

    /**
     * Hands {@code work} to a thread; {@code then} gets its result here, in order, from a later call (taking back
     * older pieces first while too many are out).
     */
    void submit(Callable<T> work, long pieceWeight, Consumer<T> then) {
        while (!pending.isEmpty() && (pending.size() >= maxPending || weight + pieceWeight > maxWeight)) {
            takeOldest();
        }
        if (pool == null) {
            pool = Executors.newFixedThreadPool(threads, daemonThreads("sparkscope-decode-" + POOLS.incrementAndGet(),
                    started));
        }
        pending.add(new Pending<>(pool.submit(work), pieceWeight, then));
        weight += pieceWeight;
    }

    /** Takes back everything handed out, in order. */
    void drain() {
        while (!pending.isEmpty()) {
            takeOldest();
        }
    }

    /**
     * The last piece for now: run here when nothing is out (a short log starts no thread), else handed out; then
     * everything is taken back.
     */
    void finish(Callable<T> work, long pieceWeight, Consumer<T> then) {
        if (pending.isEmpty()) {
            T result;
            try {
                result = work.call();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
            }
            then.accept(result);
            return;
        }
        submit(work, pieceWeight, then);
        drain();
    }

    private void takeOldest() {
        Pending<T> oldest = pending.poll();
        weight -= oldest.weight();
        T result;
        try {
            result = oldest.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the event decoding threads", e);
        } catch (CancellationException e) {
            throw new IllegalStateException("event decoding was cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("event decoding failed on a decoding thread: "
                    + cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        }
        oldest.then().accept(result);
    }

    /**
     * Drops what was not taken back and stops the threads, waiting for them: after a failure, and after every
     * read, so no decoding thread outlives its read (a watcher reads many logs for days).
     */
    @Override
    public void close() {
        for (Pending<T> p : pending) {
            p.result().cancel(true);
        }
        pending.clear();
        weight = 0;
        if (pool != null) {
            pool.shutdownNow();
            boolean interrupted = false;
            while (true) {
                try {
                    if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            // The pool counts as terminated once its workers have left their loop, a moment before their threads
            // end: wait for the threads themselves, so none is alive when close returns.
            for (Thread t : started) {
                while (t.isAlive()) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            started.clear();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            pool = null;
        }
    }

    private static ThreadFactory daemonThreads(String prefix, List<Thread> started) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            started.add(t);
            return t;
        };
    }
}
