package io.sparkscope.store;

import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimeSums;

import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads back what {@link SnapshotWriter} wrote: {@link #read} rebuilds an {@link AppSnapshot} equal to the one
 * written (parity tests compare live and imported runs through the database), {@link #findings} the findings, and
 * {@link #apps} lists applications for the search page.
 *
 * <p>One query per table for a whole application (no N+1), all inside one read-only REPEATABLE READ transaction so a
 * concurrent writer can never show a half-old, half-new snapshot.
 */
public final class SnapshotReader {
    private final DataSource dataSource;

    public SnapshotReader(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Convenience for one-off reads. */
    public static Optional<AppSnapshot> read(DataSource dataSource, String appId, String attemptId) throws SQLException {
        return new SnapshotReader(dataSource).read(appId, attemptId);
    }

    /** @param attemptId null (or "") for an application without attempts */
    public Optional<AppSnapshot> read(String appId, String attemptId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return inSnapshot(c, () -> readIn(c, appId, attemptId));
        }
    }

    public List<StoredFinding> findings(String appId, String attemptId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT f.finding_id, f.heuristic, f.severity, f.title,"
                     + " f.message, f.recommendation, f.stage_ids, f.executor_ids, f.config_keys, f.details::text"
                     + " FROM finding f JOIN application a ON a.app_pk = f.app_pk"
                     + " WHERE a.app_id = ? AND a.attempt_id = ? ORDER BY f.ord")) {
            ps.setString(1, appId);
            ps.setString(2, ApplicationRow.attemptKey(attemptId));
            List<StoredFinding> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredFinding(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), strings(rs.getArray(7)), strings(rs.getArray(8)),
                            strings(rs.getArray(9)), rs.getString(10)));
                }
            }
            return out;
        }
    }

    private interface Body<T> {
        T run() throws SQLException;
    }

    private static <T> T inSnapshot(Connection c, Body<T> body) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        int isolation = c.getTransactionIsolation();
        boolean readOnly = c.isReadOnly();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        c.setReadOnly(true);
        try {
            T result = body.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setReadOnly(readOnly);
            c.setTransactionIsolation(isolation);
            c.setAutoCommit(autoCommit);
        }
    }

    private Optional<AppSnapshot> readIn(Connection c, String appId, String attemptId) throws SQLException {
        long pk;
        Object[] app;
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, attempt_id, name, spark_user, spark_version,"
                + " start_time, end_time, last_event_time, complete, driver_gc_time_ms, driver_max_memory,"
                + " event_count, unknown_event_types::text FROM application WHERE app_id = ? AND attempt_id = ?")) {
            ps.setString(1, appId);
            ps.setString(2, ApplicationRow.attemptKey(attemptId));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                pk = rs.getLong(1);
                String attempt = rs.getString(2);
                app = new Object[]{attempt.isEmpty() ? null : attempt, rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getBoolean(9),
                        rs.getLong(10), rs.getLong(11), rs.getLong(12), rs.getString(13)};
            }
        }
        Map<String, Long> unknown = Json.longMap((String) app[11]);
        return Optional.of(new AppSnapshot(appId, (String) app[0], (String) app[1], (String) app[2], (String) app[3],
                (long) app[4], (long) app[5], (long) app[6], (boolean) app[7], config(c, pk), executors(c, pk),
                jobs(c, pk), stages(c, pk), sqlExecutions(c, pk), (long) app[8], (long) app[9], (long) app[10],
                unknown));
    }

    private static AppConfig config(Connection c, long pk) throws SQLException {
        Map<String, Map<String, String>> scopes = new HashMap<>();
        for (String scope : List.of("spark", "jvm", "system", "hadoop")) {
            scopes.put(scope, new TreeMap<>());
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT scope, key, value FROM configuration WHERE app_pk = ?")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    scopes.get(rs.getString(1)).put(rs.getString(2), rs.getString(3));
                }
            }
        }
        return new AppConfig(scopes.get("spark"), scopes.get("jvm"), scopes.get("system"), scopes.get("hadoop"));
    }

    private static List<ExecutorSummary> executors(Connection c, long pk) throws SQLException {
        List<ExecutorSummary> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT executor_id, host, total_cores, add_time, remove_time,"
                + " remove_reason, max_memory, completed_tasks, failed_tasks, killed_tasks, total_duration_ms,"
                + " total_run_time_ms, total_cpu_time_ns, total_gc_time_ms, input_bytes, shuffle_read_bytes,"
                + " shuffle_write_bytes, memory_bytes_spilled, disk_bytes_spilled, peak_metrics::text"
                + " FROM executor WHERE app_pk = ? ORDER BY ord")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ExecutorSummary(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4),
                            rs.getLong(5), rs.getString(6), rs.getLong(7), rs.getInt(8), rs.getInt(9), rs.getInt(10),
                            rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getLong(14), rs.getLong(15),
                            rs.getLong(16), rs.getLong(17), rs.getLong(18), rs.getLong(19), Json.longMap(rs.getString(20))));
                }
            }
        }
        return out;
    }

    private static List<JobSummary> jobs(Connection c, long pk) throws SQLException {
        List<JobSummary> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, name, description, job_group, submission_time,"
                + " completion_time, status, failure_reason, stage_ids, sql_execution_id, num_tasks,"
                + " num_completed_tasks, num_failed_tasks, num_killed_tasks, num_skipped_stages"
                + " FROM job WHERE app_pk = ? ORDER BY ord, job_id")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new JobSummary(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getLong(5), rs.getLong(6), JobSummary.JobStatus.valueOf(rs.getString(7)),
                            rs.getString(8), ints(rs.getArray(9)), rs.getLong(10), rs.getInt(11), rs.getInt(12),
                            rs.getInt(13), rs.getInt(14), rs.getInt(15)));
                }
            }
        }
        return out;
    }

    private record StageKey(int stageId, int attemptId) {
    }

    private static List<StageSummary> stages(Connection c, long pk) throws SQLException {
        Map<StageKey, Map<String, double[]>> stats = statistics(c, pk);
        Map<StageKey, List<TaskRecord>> tasks = tasks(c, pk);
        List<StageSummary> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT stage_id, attempt_id, name, details, status, num_tasks,"
                + " num_active_tasks, num_complete_tasks, num_failed_tasks, num_killed_tasks, num_completed_indices,"
                + " submission_time, completion_time, first_task_launched_time, last_task_finished_time,"
                + " failure_reason, parent_ids, job_ids, totals::text, end_reasons::text, summary_task_count,"
                + " summary_quantiles, task_detail, task_duration_ms, scheduler_delay_ms, getting_result_ms"
                + " FROM stage_attempt WHERE app_pk = ? ORDER BY ord, stage_id, attempt_id")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StageKey key = new StageKey(rs.getInt(1), rs.getInt(2));
                    long count = rs.getLong(21);
                    TaskDistributions dist = rs.wasNull() ? null
                            : distributions(count, doubles(rs.getArray(22)), stats.getOrDefault(key, Map.of()));
                    out.add(new StageSummary(key.stageId(), key.attemptId(), rs.getString(3), rs.getString(4),
                            StageSummary.StageStatus.valueOf(rs.getString(5)), rs.getInt(6), rs.getInt(7),
                            rs.getInt(8), rs.getInt(9), rs.getInt(10), rs.getInt(11), rs.getLong(12), rs.getLong(13),
                            rs.getLong(14), rs.getLong(15), rs.getString(16), ints(rs.getArray(17)),
                            ints(rs.getArray(18)), Json.stageTotals(rs.getString(19)), dist,
                            tasks.getOrDefault(key, List.of()), Json.intMap(rs.getString(20)),
                            taskDetail(rs.getString(23)), taskTimes(rs, 24)));
                }
            }
        }
        return out;
    }

    /** Null (a row written before V4) lets {@link StageSummary} derive it from the counts. */
    static StageSummary.TaskDetail taskDetail(String stored) {
        return stored == null ? null : StageSummary.TaskDetail.valueOf(stored);
    }

    /** The three V4 sums from column {@code i} on, or null when the row was written before V4. */
    static TaskTimeSums taskTimes(ResultSet rs, int i) throws SQLException {
        long duration = rs.getLong(i);
        if (rs.wasNull()) {
            return null;
        }
        return new TaskTimeSums(duration, rs.getLong(i + 1), rs.getLong(i + 2));
    }

    /** A metric missing from the row set (written by an older Sparkscope that did not know it) reads as zeros. */
    private static TaskDistributions distributions(long count, double[] quantiles, Map<String, double[]> byPath) {
        double[][] values = new double[DistributionMetric.count()][];
        for (DistributionMetric m : DistributionMetric.values()) {
            double[] v = byPath.get(m.path);
            values[m.ordinal()] = v != null && v.length == quantiles.length ? v : new double[quantiles.length];
        }
        return new TaskDistributions(count, quantiles, values);
    }

    private static Map<StageKey, Map<String, double[]>> statistics(Connection c, long pk) throws SQLException {
        Map<StageKey, Map<String, double[]>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT stage_id, stage_attempt_id, metric, vals FROM stage_statistics WHERE app_pk = ?")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(new StageKey(rs.getInt(1), rs.getInt(2)), k -> new HashMap<>())
                            .put(rs.getString(3), doubles(rs.getArray(4)));
                }
            }
        }
        return out;
    }

    private static Map<StageKey, List<TaskRecord>> tasks(Connection c, long pk) throws SQLException {
        Map<StageKey, List<TaskRecord>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT stage_id, stage_attempt_id, task_id, task_index,"
                + " attempt, partition_id, executor_id, host, locality, speculative, launch_time, finish_time,"
                + " getting_result_time, status, end_reason, error_message, metrics::text"
                + " FROM task WHERE app_pk = ? ORDER BY stage_id, stage_attempt_id, ord")) {
            ps.setLong(1, pk);
            ps.setFetchSize(5000); // stream big task sets instead of buffering them twice
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(new StageKey(rs.getInt(1), rs.getInt(2)), k -> new ArrayList<>())
                            .add(new TaskRecord(rs.getLong(3), rs.getInt(4), rs.getInt(5), rs.getInt(6),
                                    rs.getString(7), rs.getString(8), rs.getString(9), rs.getBoolean(10),
                                    rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getString(14),
                                    rs.getString(15), rs.getString(16), Json.taskMetrics(rs.getString(17))));
                }
            }
        }
        return out;
    }

    private static List<SqlExecutionSummary> sqlExecutions(Connection c, long pk) throws SQLException {
        List<SqlExecutionSummary> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT execution_id, description, start_time, end_time,"
                + " error_message, physical_plan_description, plan::text, job_ids, metric_values::text"
                + " FROM sql_execution WHERE app_pk = ? ORDER BY ord, execution_id")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SqlExecutionSummary(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                            rs.getString(5), rs.getString(6), Json.plan(rs.getString(7)), ints(rs.getArray(8)),
                            Json.idMap(rs.getString(9))));
                }
            }
        }
        return out;
    }

    static List<Integer> ints(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        Integer[] values = (Integer[]) a.getArray();
        return List.of(values);
    }

    static List<String> strings(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        return List.of((String[]) a.getArray());
    }

    static double[] doubles(Array a) throws SQLException {
        Double[] boxed = (Double[]) a.getArray();
        double[] out = new double[boxed.length];
        for (int i = 0; i < boxed.length; i++) {
            out[i] = boxed[i];
        }
        return out;
    }
}
