package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.prediction.AdviceLedger;
import io.sparkscope.store.query.HistoryQuery;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The advice ledgers of the jobs whose application pages were opened lately, kept a short while. Every application
 * page follows the advice of its job's recent runs (which settings were changed as advised without helping), and
 * reading and following those runs' findings was 40 % of what a page cost. Every run of a job shares one ledger, and
 * it changes only when the job's recent runs do, so it is kept for the same runs: a new run, a run completed, or a
 * run judged again (its severity or number of findings changed) gives another key. Advice rewritten without changing
 * either shows within {@link #KEPT_NANOS}.
 */
final class KeptLedgers {
    static final long KEPT_NANOS = 30_000_000_000L;
    /** Jobs kept at most, the least recently asked for dropped first: 50 runs a job, a few MB in all. */
    static final int JOBS = 256;

    /** A job and the recent runs its ledger was read from, as the runs query returned them. */
    record Key(String jobKey, List<HistoryQuery.Run> runs) {
    }

    interface Query {
        List<AdviceLedger.Entry> run() throws SQLException;
    }

    private record Kept(List<AdviceLedger.Entry> ledger, long at) {
    }

    private final long keptNanos;
    private final Map<Key, Kept> kept = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Kept> eldest) {
            return size() > JOBS;
        }
    };

    KeptLedgers() {
        this(KEPT_NANOS);
    }

    KeptLedgers(long keptNanos) {
        this.keptNanos = keptNanos;
    }

    List<AdviceLedger.Entry> get(Key key, Query query) throws SQLException {
        synchronized (this) {
            Kept k = kept.get(key);
            if (k != null && System.nanoTime() - k.at() < keptNanos) {
                return k.ledger();
            }
        }
        // read outside the lock: pages of other jobs do not wait for this one
        long at = System.nanoTime();
        List<AdviceLedger.Entry> fresh = List.copyOf(query.run());
        synchronized (this) {
            kept.put(key, new Kept(fresh, at));
        }
        return fresh;
    }

    synchronized int size() {
        return kept.size();
    }
}
