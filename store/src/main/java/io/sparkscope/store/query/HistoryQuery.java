package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.store.FindingRows;

import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs of one job over time, and the recurring jobs to pick from. A job is the application's job key (the
 * {@code job_key} column: name, user, program and master kind, or {@code spark.sparkscope.jobKey}); interactive
 * sessions have none and appear in no history.
 */
public final class HistoryQuery {
    /** Durations of a job's newest COMPLETE runs read for its trend (the job summary of V27 keeps as many). */
    public static final int TREND_RUNS = 10;

    private final DataSource dataSource;

    public HistoryQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * One run as the history page shows it.
     *
     * @param efficiency what its executors held against what they used; null when not computed
     */
    public record Run(String appId, String attemptId, String name, String sparkUser, long startTime, long durationMs,
                      long totalTaskTimeMs, long inputBytes, long memoryBytesSpilled, long diskBytesSpilled,
                      boolean complete, String worstSeverity, int numFindings, AppEfficiency efficiency) {
        public String pathKey() {
            return attemptId == null ? appId : appId + "/" + attemptId;
        }
    }

    /**
     * A job with several stored runs.
     *
     * @param recentDurationsMs wall times of its newest COMPLETE runs (at most {@link #TREND_RUNS}), newest first
     */
    public record Job(String jobKey, String name, String sparkUser, long runs, long firstStart, long lastStart,
                      List<Long> recentDurationsMs) {
        public Job {
            recentDurationsMs = List.copyOf(recentDurationsMs);
        }
    }

    private static final String RUN_COLUMNS = "app_id, attempt_id, name, spark_user, start_time, duration_ms,"
            + " total_task_time_ms, input_bytes, memory_bytes_spilled, disk_bytes_spilled, complete, worst_severity,"
            + " num_findings, " + AppEfficiency.COLUMNS;

    /** The newest {@code limit} runs of one job, oldest first (from the job-key index). */
    public List<Run> runs(String jobKey, int limit) throws SQLException {
        List<Run> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT " + RUN_COLUMNS + " FROM application"
                     + " WHERE job_key = ? ORDER BY start_time DESC, app_pk DESC LIMIT ?")) {
            ps.setString(1, jobKey);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(run(rs));
                }
            }
        }
        Collections.reverse(out);
        return out;
    }

    /**
     * The stored findings of the newest {@code limit} runs of one job, by {@link Run#pathKey} (runs without findings
     * left out), each list in stored order: two statements however many runs.
     */
    public Map<String, List<Finding>> findings(String jobKey, int limit) throws SQLException {
        return findings(jobKey, limit, false);
    }

    /**
     * As {@link #findings(String, int)}, only the findings that advise a setting: what following advice across runs
     * needs (an application page asks for this on every view; most findings advise no setting).
     */
    public Map<String, List<Finding>> advisingFindings(String jobKey, int limit) throws SQLException {
        return findings(jobKey, limit, true);
    }

    private Map<String, List<Finding>> findings(String jobKey, int limit, boolean advisingOnly) throws SQLException {
        Map<Long, String> keys = new HashMap<>();
        Map<String, List<Finding>> out = new HashMap<>();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, app_id, attempt_id FROM application"
                    + " WHERE job_key = ? AND num_findings > 0 ORDER BY start_time DESC, app_pk DESC LIMIT ?")) {
                ps.setString(1, jobKey);
                ps.setInt(2, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String attempt = rs.getString(3);
                        keys.put(rs.getLong(1), attempt.isEmpty() ? rs.getString(2) : rs.getString(2) + "/" + attempt);
                    }
                }
            }
            FindingRows.byApp(c, keys.keySet(), advisingOnly).forEach((pk, f) -> out.put(keys.get(pk), f));
        }
        return out;
    }

    /**
     * The Spark settings {@code keys} of the newest {@code limit} runs of one job, by {@link Run#pathKey}; a run that
     * sets none of them maps to nothing (so: unset).
     */
    public Map<String, Map<String, String>> settings(String jobKey, int limit, Collection<String> keys)
            throws SQLException {
        Map<String, Map<String, String>> out = new HashMap<>();
        if (keys.isEmpty()) {
            return out;
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT a.app_id, a.attempt_id, k.key, k.value FROM"
                     + " (SELECT app_pk, app_id, attempt_id FROM application WHERE job_key = ?"
                     + " ORDER BY start_time DESC, app_pk DESC LIMIT ?) a"
                     + " JOIN configuration k ON k.app_pk = a.app_pk AND k.scope = 'spark' AND k.key = ANY (?)")) {
            ps.setString(1, jobKey);
            ps.setInt(2, limit);
            ps.setArray(3, c.createArrayOf("text", keys.toArray(new String[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String attempt = rs.getString(2);
                    String path = attempt.isEmpty() ? rs.getString(1) : rs.getString(1) + "/" + attempt;
                    out.computeIfAbsent(path, k -> new HashMap<>()).put(rs.getString(3), rs.getString(4));
                }
            }
        }
        return out;
    }

    /**
     * Jobs with at least {@code minRuns} stored runs, the most recently run first; {@code name}, when given, counts
     * only the runs of exactly that name (a configured job key can group runs of several names). Without a name the
     * list is read from the jobs' summary rows (V27, kept by every write), not from their runs.
     */
    public List<Job> jobs(String name, int minRuns, int limit) throws SQLException {
        List<Job> out = new ArrayList<>();
        String sql = name == null
                ? "SELECT job_key, runs, first_start, last_start, name, spark_user, recent_durations_ms AS recent"
                        + " FROM job_summary WHERE runs >= ? ORDER BY last_start DESC, job_key LIMIT ?"
                : "SELECT job_key, count(*) AS runs, min(start_time) AS first_start, max(start_time) AS last_start,"
                        + " (array_agg(name ORDER BY start_time DESC, app_pk DESC))[1] AS name,"
                        + " (array_agg(spark_user ORDER BY start_time DESC, app_pk DESC))[1] AS spark_user,"
                        + " (array_agg(duration_ms ORDER BY start_time DESC, app_pk DESC) FILTER (WHERE complete))[1:"
                        + TREND_RUNS + "] AS recent"
                        + " FROM application WHERE job_key IS NOT NULL AND name = ?"
                        + " GROUP BY job_key HAVING count(*) >= ? ORDER BY max(start_time) DESC, job_key LIMIT ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (name != null) {
                ps.setString(i++, name);
            }
            ps.setInt(i++, minRuns);
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<Long> recent = new ArrayList<>();
                    Array a = rs.getArray("recent");
                    if (a != null) {
                        for (Object o : (Object[]) a.getArray()) {
                            if (o != null) {
                                recent.add(((Number) o).longValue());
                            }
                        }
                    }
                    out.add(new Job(rs.getString("job_key"), rs.getString("name"), rs.getString("spark_user"),
                            rs.getLong("runs"), rs.getLong("first_start"), rs.getLong("last_start"), recent));
                }
            }
        }
        return out;
    }

    /** The job key of every job with runs of this exact name, most recently run first (interactive runs have none). */
    public List<String> jobKeysOfName(String name) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             // A name's runs can number thousands but its jobs a few: the (name, job_key, start_time) index (V29)
             // gives the first key of the name, then the next key after each one, then each job's newest start,
             // one index look-up apiece, instead of grouping every run.
             PreparedStatement ps = c.prepareStatement("WITH RECURSIVE keys(job_key) AS ("
                     + " SELECT min(job_key) FROM application WHERE name = ?"
                     + " UNION ALL SELECT (SELECT min(job_key) FROM application WHERE name = ? AND job_key > k.job_key)"
                     + " FROM keys k WHERE k.job_key IS NOT NULL)"
                     + " SELECT k.job_key FROM keys k WHERE k.job_key IS NOT NULL ORDER BY (SELECT max(start_time)"
                     + " FROM application a WHERE a.name = ? AND a.job_key = k.job_key) DESC, k.job_key")) {
            ps.setString(1, name);
            ps.setString(2, name);
            ps.setString(3, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** How many stored runs of this exact name belong to no job (interactive sessions). */
    public long runsWithoutJob(String name) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM application WHERE name = ?"
                     + " AND job_key IS NULL")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Run run(ResultSet rs) throws SQLException {
        String attempt = rs.getString("attempt_id");
        return new Run(rs.getString("app_id"), attempt.isEmpty() ? null : attempt, rs.getString("name"),
                rs.getString("spark_user"), rs.getLong("start_time"), rs.getLong("duration_ms"),
                rs.getLong("total_task_time_ms"), rs.getLong("input_bytes"), rs.getLong("memory_bytes_spilled"),
                rs.getLong("disk_bytes_spilled"), rs.getBoolean("complete"), rs.getString("worst_severity"),
                rs.getInt("num_findings"), AppEfficiency.read(rs));
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
