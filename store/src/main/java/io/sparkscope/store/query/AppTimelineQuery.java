package io.sparkscope.store.query;

import io.sparkscope.store.ReadTransaction;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an application's timeline draws: its executors' lifetimes with their cores and remove reasons, its jobs and
 * its stage attempts with their times, and the settings that give a local driver's cores. No task is read. At most
 * {@link #MAX_ROWS} of each are read, in the order they started; {@code more*} says how many more there were.
 */
public final class AppTimelineQuery {
    /** Executors, jobs or stage attempts read at most (a page of a few hundred kB drawn). */
    public static final int MAX_ROWS = 2_000;

    private final DataSource dataSource;

    public AppTimelineQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @param addTime    epoch ms, ≤ 0 when unknown
     * @param removeTime epoch ms, ≤ 0 while alive
     * @param cores      as Spark reported them, 0 when it did not
     */
    public record Executor(String executorId, String host, int cores, long addTime, long removeTime,
                           String removeReason) {
    }

    /** A job or stage attempt as a bar: {@code end} ≤ 0 while running; {@code id} "3" for a job, "3.0" a stage. */
    public record Span(String id, String name, String status, long start, long end, int tasks, int failedTasks) {
    }

    /** @param sparkConf only {@code spark.master}, {@code spark.executor.cores}, {@code spark.task.cpus} */
    public record Data(AppRefs.Resolved app, List<Executor> executors, long moreExecutors, List<Span> jobs,
                       long moreJobs, List<Span> stages, long moreStages, Map<String, String> sparkConf) {
    }

    /** Empty when the application is not stored. */
    public Optional<Data> load(String appId, String attemptId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            long pk = app.pk();
            List<Executor> executors = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT executor_id, host, total_cores, add_time,"
                    + " remove_time, remove_reason FROM executor WHERE app_pk = ? ORDER BY ord LIMIT ?")) {
                ps.setLong(1, pk);
                ps.setInt(2, MAX_ROWS);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        executors.add(new Executor(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4),
                                rs.getLong(5), rs.getString(6)));
                    }
                }
            }
            List<Span> jobs = spans(c, "SELECT CAST(job_id AS text) AS id, COALESCE(description, name) AS name,"
                    + " status, submission_time, completion_time, num_tasks, num_failed_tasks FROM job"
                    + " WHERE app_pk = ? ORDER BY submission_time, job_id LIMIT ?", pk, false);
            List<Span> stages = spans(c, "SELECT stage_id || '.' || attempt_id AS id, name, status, submission_time,"
                    + " completion_time, num_tasks, num_failed_tasks" + StageNameColumns.COLUMNS
                    + " FROM stage_attempt s" + StageNameColumns.JOIN
                    + " WHERE s.app_pk = ? ORDER BY s.submission_time, s.stage_id, s.attempt_id LIMIT ?", pk, true);
            Map<String, String> conf = TimelineQuery.slotSettings(c, pk);
            return Optional.of(new Data(app, executors, more(c, "executor", pk, executors.size()), jobs,
                    more(c, "job", pk, jobs.size()), stages, more(c, "stage_attempt", pk, stages.size()), conf));
        });
    }

    private static List<Span> spans(Connection c, String sql, long pk, boolean stageNames) throws SQLException {
        List<Span> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, pk);
            ps.setInt(2, MAX_ROWS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Span(rs.getString("id"), stageNames ? StageNameColumns.readable(rs)
                            : rs.getString("name"), rs.getString("status"), rs.getLong("submission_time"),
                            rs.getLong("completion_time"), rs.getInt("num_tasks"), rs.getInt("num_failed_tasks")));
                }
            }
        }
        return out;
    }

    /** Rows of {@code table} past the {@code read} ones (counted only when the cap was reached). */
    private static long more(Connection c, String table, long pk, int read) throws SQLException {
        if (read < MAX_ROWS) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE app_pk = ?")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Math.max(0, rs.getLong(1) - read);
            }
        }
    }
}
