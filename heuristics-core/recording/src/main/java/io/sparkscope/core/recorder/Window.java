package io.sparkscope.core.recorder;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The recent completed entities of one kind (jobs, stages, SQL executions, removed executors) a recorder keeps in the driver, like the
 * History Server's {@code spark.ui.retainedJobs}: the newest {@code limit} that ended well and, apart, the newest
 * {@code limit} that failed (failures are what a user looks for, so a flood of good ones never pushes them out).
 * Older ones leave, oldest first, once they are written; they live on in the database and in the recorder's running
 * totals.
 *
 * <p>While the database is away nothing is written, so entities wait: up to another {@code limit} of each, after
 * which the oldest leave unwritten (counted in {@link #leftUnwritten()}) so that memory stays bounded by the setting
 * even through a long outage. A new entity kind joins by keeping a window of its own and calling {@link #evict}.
 */
final class Window<E extends LiveEntity> {
    /** No window: everything stays (offline analysis of a log, the default). */
    static final int UNLIMITED = Integer.MAX_VALUE;

    private final int limit;
    private final ArrayDeque<E> succeeded = new ArrayDeque<>();
    private final ArrayDeque<E> failed = new ArrayDeque<>();
    private long leftUnwritten;

    Window(int limit) {
        this.limit = limit;
    }

    boolean unlimited() {
        return limit == UNLIMITED;
    }

    /** The entity ended (once per entity). */
    void ended(E entity, boolean isFailure) {
        if (!unlimited()) {
            (isFailure ? failed : succeeded).addLast(entity);
        }
    }

    /** The entity is no longer ended (an executor that registered again after its removal): it stays, out of here. */
    void revived(E entity) {
        if (!unlimited() && !succeeded.remove(entity)) {
            failed.remove(entity);
        }
    }

    /**
     * Whether half the slack between the limit and twice the limit is used: time to write what waits, before the
     * oldest would have to leave unwritten. Half, so that a reader asking after each event writes once per half a
     * limit of ended entities, not once per entity.
     */
    boolean over() {
        int writeAt = limit + limit / 2;
        return succeeded.size() > writeAt || failed.size() > writeAt;
    }

    /**
     * Lets the oldest entities past the limit leave: those written ({@code writtenUpTo}) and {@code ready} (e.g. a
     * stage with no task still running); past twice the limit, the oldest leave whatever their state.
     */
    void evict(long writtenUpTo, Predicate<E> ready, Consumer<E> leave) {
        evict(succeeded, writtenUpTo, ready, leave);
        evict(failed, writtenUpTo, ready, leave);
    }

    private void evict(ArrayDeque<E> q, long writtenUpTo, Predicate<E> ready, Consumer<E> leave) {
        while (q.size() > limit) {
            E oldest = q.peekFirst();
            boolean clean = oldest.writtenBy(writtenUpTo) && ready.test(oldest);
            if (!clean && q.size() <= 2L * limit) {
                return; // wait for the write: newer ones were written after it, so they wait too
            }
            q.pollFirst();
            if (!clean) {
                leftUnwritten++;
            }
            leave.accept(oldest);
        }
    }

    /** Entities held (ended ones only). */
    int size() {
        return succeeded.size() + failed.size();
    }

    /** Entities that had to leave before they were written (a long database outage). */
    long leftUnwritten() {
        return leftUnwritten;
    }
}
