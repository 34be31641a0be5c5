package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Every run of one application name over time (the newest {@code limit}), oldest first, from the name index. */
public final class HistoryQuery {
    private final DataSource dataSource;

    public HistoryQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public record Run(String appId, String attemptId, long startTime, long durationMs, long totalTaskTimeMs,
                      long memoryBytesSpilled, long diskBytesSpilled, boolean complete, String worstSeverity,
                      int numFindings) {
        public String pathKey() {
            return attemptId == null ? appId : appId + "/" + attemptId;
        }
    }

    public List<Run> runs(String name, int limit) throws SQLException {
        List<Run> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT app_id, attempt_id, start_time, duration_ms,"
                     + " total_task_time_ms, memory_bytes_spilled, disk_bytes_spilled, complete, worst_severity,"
                     + " num_findings FROM application WHERE name = ? ORDER BY start_time DESC, app_pk DESC LIMIT ?")) {
            ps.setString(1, name);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String attempt = rs.getString("attempt_id");
                    out.add(new Run(rs.getString("app_id"), attempt.isEmpty() ? null : attempt,
                            rs.getLong("start_time"), rs.getLong("duration_ms"), rs.getLong("total_task_time_ms"),
                            rs.getLong("memory_bytes_spilled"), rs.getLong("disk_bytes_spilled"),
                            rs.getBoolean("complete"), rs.getString("worst_severity"), rs.getInt("num_findings")));
                }
            }
        }
        Collections.reverse(out);
        return out;
    }

    /** Whether the database answers (for /healthz). */
    public static boolean reachable(DataSource ds) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT 1");
             ResultSet rs = ps.executeQuery()) {
            return rs.next();
        } catch (SQLException e) {
            return false;
        }
    }
}
