package io.sparkscope.server.web.model;

import com.google.common.base.Throwables;
import com.google.common.base.Ticker;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;

/**
 * Answers the pages compute again and again, kept a short while and for a bounded number of keys (a Guava cache:
 * the least recently used go first). Clients asking for the same key together wait for one computation instead of
 * each starting its own, so sixteen clients opening the same page at once cost PostgreSQL one read.
 *
 * <p>The key must say everything the answer depends on that can change: what is kept is shown as it is for up to the
 * time kept, so that time is how long a change the key does not capture may take to appear.
 */
public final class Kept<K, V> {
    /** How long an answer is kept: what a team's screen left open may show of a change its key does not capture. */
    public static final Duration TIME = Duration.ofSeconds(30);

    /** The answer for a key: a read of the database, mostly. */
    public interface Query<V> {
        V run() throws SQLException;
    }

    private final Cache<K, V> cache;

    private Kept(Cache<K, V> cache) {
        this.cache = cache;
    }

    /** Keys compared with {@code equals}; at most {@code maxKeys}, each for {@code time}. */
    public static <K, V> Kept<K, V> byValue(int maxKeys, Duration time) {
        return byValue(maxKeys, time, Ticker.systemTicker());
    }

    /** As {@link #byValue(int, Duration)}, on a clock of the caller's (tests move it instead of sleeping). */
    static <K, V> Kept<K, V> byValue(int maxKeys, Duration time, Ticker clock) {
        return new Kept<>(CacheBuilder.newBuilder().maximumSize(maxKeys).expireAfterWrite(time).ticker(clock).build());
    }

    /**
     * Keys compared by identity, held weakly: for an answer derived from another kept answer (the key), which is
     * gone with it. Comparing a large key by value would cost about what deriving the answer again does.
     */
    public static <K, V> Kept<K, V> byIdentity(int maxKeys, Duration time) {
        return new Kept<>(CacheBuilder.newBuilder().weakKeys().maximumSize(maxKeys).expireAfterWrite(time).build());
    }

    /** The kept answer for {@code key}, else {@code query}'s (kept from now on; a failed query keeps nothing). */
    public V get(K key, Query<V> query) throws SQLException {
        try {
            return cache.get(key, query::run);
        } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
            // the query's own exception, as it threw it
            Throwables.throwIfInstanceOf(e.getCause(), SQLException.class);
            Throwables.throwIfUnchecked(e.getCause());
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Answers kept now (expired ones may still count until the cache next cleans up; tests call it after that). */
    long size() {
        cache.cleanUp();
        return cache.size();
    }
}
