package io.sparkscope.store.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Finds the stored application a page names. */
public final class AppRefs {
    private AppRefs() {
    }

    /**
     * The application found: its key, its ids as stored (attempt null when Spark gave none), its name and times.
     *
     * @param endTime epoch ms, -1 while running
     */
    /** @param complete whether the application was seen ending (else it is running, or went silent) */
    public record Resolved(long pk, String appId, String attemptId, String name, long startTime, long endTime,
                           long lastEventTime, boolean complete) {
        /** Running by the search page's rule: not seen ending and events still arriving at {@code now}. */
        public boolean running(long now) {
            return AppFilter.statusOf(complete, lastEventTime, now) == AppFilter.Status.RUNNING;
        }
    }

    /**
     * How a reference without an attempt picks its row: the attempt-less row (Spark gave none), else the newest
     * attempt, as Spark's History Server does for /applications/{id}. Every query resolving a reference orders by it.
     *
     * @param alias the application table's alias with its dot ("a."), or ""
     */
    static String newestFirst(String alias) {
        return "(" + alias + "attempt_id = '') DESC, " + alias + "start_time DESC";
    }

    /**
     * As the application page: an exact attempt, or (attempt null) the attempt-less row, else the newest attempt.
     *
     * @return null when not stored
     */
    static Resolved resolve(Connection c, String appId, String attemptId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, app_id, attempt_id, name, start_time, end_time,"
                + " last_event_time, complete FROM application"
                + " WHERE app_id = ? AND (CAST(? AS text) IS NULL OR attempt_id = ?)"
                + " ORDER BY " + newestFirst("") + " LIMIT 1")) {
            ps.setString(1, appId);
            ps.setString(2, attemptId);
            ps.setString(3, attemptId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                String attempt = rs.getString("attempt_id");
                return new Resolved(rs.getLong("app_pk"), rs.getString("app_id"), attempt.isEmpty() ? null : attempt,
                        rs.getString("name"), rs.getLong("start_time"), rs.getLong("end_time"),
                        rs.getLong("last_event_time"), rs.getBoolean("complete"));
            }
        }
    }
}
