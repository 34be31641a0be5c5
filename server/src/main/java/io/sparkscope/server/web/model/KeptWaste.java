package io.sparkscope.server.web.model;

import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.WasteQuery;

import java.sql.SQLException;

/**
 * The dashboard's waste of the week, kept for a short while (see {@link WebData#waste(io.sparkscope.core.analysis
 * .efficiency.Prices, DashboardQuery.Dashboard)} for why). One result is kept, the newest: the dashboard asks for one
 * window at one set of prices. Requests that arrive while it is being computed wait for that computation instead of
 * starting their own, so sixteen clients opening the dashboard at once cost PostgreSQL one ranking.
 */
final class KeptWaste {
    /** How long a result is shown for the same key: the time a new application's figures may take to appear. */
    static final long KEPT_NANOS = 30_000_000_000L;

    /**
     * What the result depends on: the ranking's weights, the window's start (to the minute), and the counts the
     * dashboard shows beside it, which change when an application is stored, removed or judged again.
     */
    record Key(double coreWeight, double gbWeight, long fromMinute, long applications,
               DashboardQuery.Health lastWeek, long newestPk) {
    }

    interface Query {
        WasteQuery.Result run() throws SQLException;
    }

    private final long keptNanos;
    private Key key;
    private WasteQuery.Result result;
    private long computedAt;

    KeptWaste() {
        this(KEPT_NANOS);
    }

    KeptWaste(long keptNanos) {
        this.keptNanos = keptNanos;
    }

    synchronized WasteQuery.Result get(Key wanted, Query query) throws SQLException {
        long now = System.nanoTime();
        if (result != null && wanted.equals(key) && now - computedAt < keptNanos) {
            return result;
        }
        WasteQuery.Result fresh = query.run();
        key = wanted;
        result = fresh;
        computedAt = now;
        return fresh;
    }
}
