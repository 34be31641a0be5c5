package io.sparkscope.store;

import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What {@code sparkscope fetch} remembers between runs (table {@code fetch_state}, migration V6): per History Server,
 * the newest application end time fetched, and which applications the database already holds complete, so a run
 * after a crash or a failure fetches only what is missing.
 */
public final class FetchState {
    private static final String READ_SQL = "SELECT newest_end_time FROM fetch_state WHERE history_server = ?";

    /**
     * Forward only: of two concurrent runs the one that got further wins, whatever order they commit in. A remembered
     * time in the future (an end time of the year 9999 that an earlier version kept) is replaced, or no later run
     * would ever list anything again.
     */
    private static final String ADVANCE_SQL = "INSERT INTO fetch_state AS f (history_server, newest_end_time)"
            + " VALUES (?, ?) ON CONFLICT (history_server) DO UPDATE"
            + " SET newest_end_time = EXCLUDED.newest_end_time, updated_at = now()"
            + " WHERE f.newest_end_time < EXCLUDED.newest_end_time"
            + " OR f.newest_end_time > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS bigint)";

    private static final String COMPLETE_SQL = "SELECT app_id, attempt_id FROM application"
            + " WHERE status = 'COMPLETE' AND app_id = ANY(?)";

    private FetchState() {
    }

    /** The newest end time (epoch ms) remembered for this History Server, empty before its first fetch. */
    public static OptionalLong newestEndTime(DataSource ds, String historyServer) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(READ_SQL)) {
            ps.setString(1, historyServer);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** Remembers {@code endTime} unless a newer one is already stored. */
    public static void advance(DataSource ds, String historyServer, long endTime) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(ADVANCE_SQL)) {
            ps.setString(1, historyServer);
            ps.setLong(2, endTime);
            ps.executeUpdate();
        }
    }

    /**
     * Of the given application attempts, those stored with status COMPLETE, as {@link #key} strings. One query
     * however many are asked about.
     */
    public static Set<String> storedComplete(DataSource ds, Collection<String> appIds) throws SQLException {
        Set<String> out = new HashSet<>();
        if (appIds.isEmpty()) {
            return out;
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(COMPLETE_SQL)) {
            Array ids = c.createArrayOf("text", new LinkedHashSet<>(appIds).toArray());
            ps.setArray(1, ids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + '\n' + rs.getString(2));
                }
            }
        }
        return out;
    }

    /** The key {@link #storedComplete} returns for an attempt (a null attempt id is stored as ''). */
    public static String key(String appId, String attemptId) {
        return appId + '\n' + ApplicationRow.attemptKey(attemptId);
    }
}
