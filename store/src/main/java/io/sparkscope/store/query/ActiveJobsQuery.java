package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The most active jobs (most runs started in a recent window) and the figures of each one's newest COMPLETE run, for
 * a metrics scrape. One statement: the window is read through the start-time index and each job's newest run through
 * the job-key index, so its cost follows the runs in the window, never the size of the whole database.
 */
public final class ActiveJobsQuery {
    private final DataSource dataSource;

    public ActiveJobsQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * One job and its newest COMPLETE run.
     *
     * @param runs            runs of the job started in the window
     * @param lastRunName     that run's application name
     * @param durationMs      its wall time
     * @param coreHoursWasted its idle executor core-hours; null when its efficiency was never computed
     * @param highFindings    its findings of severity HIGH
     */
    public record ActiveJob(String jobKey, long runs, String lastRunAppId, String lastRunName, long durationMs,
                            Double coreHoursWasted, int highFindings) {
    }

    /**
     * At most {@code limit} jobs with a run started at or after {@code since} (epoch ms), the most runs first (then
     * the most recently run, then by key, so the choice is stable); jobs without a COMPLETE run are left out.
     */
    public List<ActiveJob> mostActive(long since, int limit) throws SQLException {
        String sql = "WITH active AS ("
                + " SELECT job_key, count(*) AS runs, max(start_time) AS last_start FROM application"
                + " WHERE start_time >= ? AND job_key IS NOT NULL GROUP BY job_key"
                + " ORDER BY count(*) DESC, max(start_time) DESC, job_key LIMIT ?)"
                + " SELECT a.job_key, a.runs, l.app_id, l.name, l.duration_ms, l.core_hours_wasted,"
                + " (SELECT count(*) FROM finding f WHERE f.app_pk = l.app_pk AND f.severity = 'HIGH') AS high"
                + " FROM active a CROSS JOIN LATERAL ("
                + " SELECT x.app_pk, x.app_id, x.name, x.duration_ms, x.core_hours_wasted FROM application x"
                + " WHERE x.job_key = a.job_key AND x.complete ORDER BY x.start_time DESC, x.app_pk DESC LIMIT 1) l"
                + " ORDER BY a.runs DESC, a.last_start DESC, a.job_key";
        List<ActiveJob> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, since);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    double wasted = rs.getDouble(6);
                    Double w = rs.wasNull() ? null : wasted;
                    out.add(new ActiveJob(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getLong(5), w, rs.getInt(7)));
                }
            }
        }
        return out;
    }
}
