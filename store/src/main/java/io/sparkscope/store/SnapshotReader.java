package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
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
        return ReadTransaction.run(dataSource, c -> readIn(c, appId, attemptId));
    }

    public List<Finding> findings(String appId, String attemptId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT " + FindingRows.COLUMNS
                     + " FROM finding WHERE app_pk = (SELECT app_pk FROM application WHERE app_id = ? AND attempt_id = ?)"
                     + " ORDER BY ord")) {
            ps.setString(1, appId);
            ps.setString(2, ApplicationRow.attemptKey(attemptId));
            List<Finding> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(FindingRows.read(rs));
                }
            }
            return out;
        }
    }

    /** The snapshot as {@link #read}, on a connection the caller holds (and whose transaction it chose). */
    static Optional<AppSnapshot> readIn(Connection c, String appId, String attemptId) throws SQLException {
        long pk;
        String attempt, name, user, version, unknown;
        long start, end, lastEvent, driverGc, driverMemory, events;
        boolean complete;
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, attempt_id, name, spark_user, spark_version,"
                + " start_time, end_time, last_event_time, complete, driver_gc_time_ms, driver_max_memory,"
                + " event_count, unknown_event_types::text AS unknown_event_types"
                + " FROM application WHERE app_id = ? AND attempt_id = ?")) {
            ps.setString(1, appId);
            ps.setString(2, ApplicationRow.attemptKey(attemptId));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                pk = rs.getLong("app_pk");
                attempt = rs.getString("attempt_id");
                name = rs.getString("name");
                user = rs.getString("spark_user");
                version = rs.getString("spark_version");
                start = rs.getLong("start_time");
                end = rs.getLong("end_time");
                lastEvent = rs.getLong("last_event_time");
                complete = rs.getBoolean("complete");
                driverGc = rs.getLong("driver_gc_time_ms");
                driverMemory = rs.getLong("driver_max_memory");
                events = rs.getLong("event_count");
                unknown = rs.getString("unknown_event_types");
            }
        }
        return Optional.of(AppSnapshot.builder().appId(appId).attemptId(attempt.isEmpty() ? null : attempt)
                .appName(name).sparkUser(user).sparkVersion(version).startTime(start).endTime(end)
                .lastEventTime(lastEvent).complete(complete).config(config(c, pk)).executors(executors(c, pk))
                .jobs(jobs(c, pk)).stages(stages(c, pk, null)).sqlExecutions(sqlExecutions(c, pk))
                .driverGcTimeMs(driverGc).driverMaxMemory(driverMemory).eventCount(events)
                .unknownEventTypes(Json.longMap(unknown)).streamingQueries(StreamingRows.all(c, pk)).build());
    }

    private static AppConfig config(Connection c, long pk) throws SQLException {
        Map<String, Map<String, String>> scopes = new HashMap<>();
        for (String scope : List.of("spark", "jvm", "system", "hadoop")) {
            scopes.put(scope, new TreeMap<>());
        }
        try (PreparedStatement ps = select(c, Tables.CONFIGURATION, "")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    scopes.get(rs.getString("scope")).put(rs.getString("key"), rs.getString("value"));
                }
            }
        }
        return new AppConfig(scopes.get("spark"), scopes.get("jvm"), scopes.get("system"), scopes.get("hadoop"));
    }

    /** Every declared column of {@code table} for one application: the reader reads what the writer wrote. */
    private static PreparedStatement select(Connection c, Table<?> table, String orderBy) throws SQLException {
        return c.prepareStatement("SELECT " + table.selectList() + " FROM " + table.name + " WHERE app_pk = ?"
                + orderBy);
    }

    private static List<ExecutorSummary> executors(Connection c, long pk) throws SQLException {
        List<ExecutorSummary> out = new ArrayList<>();
        try (PreparedStatement ps = select(c, Tables.EXECUTOR, " ORDER BY ord")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(executor(rs));
                }
            }
        }
        return out;
    }

    private static List<JobSummary> jobs(Connection c, long pk) throws SQLException {
        List<JobSummary> out = new ArrayList<>();
        try (PreparedStatement ps = select(c, Tables.JOB, " ORDER BY ord, job_id")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(job(rs));
                }
            }
        }
        return out;
    }

    private record StageKey(int stageId, int attemptId) {
    }

    /**
     * The attempts of one stage id (null: every stage) with their quantiles and kept tasks, and the application's
     * configuration, without the rest of its snapshot: what one stage or environment request of the Spark-shaped
     * routes needs. Empty when the application is not stored.
     */
    public Optional<StagesAndConfig> stages(String appId, String attemptId, Integer stageId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT app_pk FROM application WHERE app_id = ? AND attempt_id = ?")) {
                ps.setString(1, appId);
                ps.setString(2, ApplicationRow.attemptKey(attemptId));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    long pk = rs.getLong(1);
                    return Optional.of(new StagesAndConfig(stageId != null && stageId < 0 ? List.of()
                            : stages(c, pk, stageId), config(c, pk)));
                }
            }
        });
    }

    /** See {@link #stages(String, String, Integer)}. */
    public record StagesAndConfig(List<StageSummary> stages, AppConfig config) {
    }

    /** " AND stage_id = ?" when one stage is wanted; its value is the statement's second parameter. */
    private static String oneStage(Integer stageId) {
        return stageId == null ? "" : " AND stage_id = ?";
    }

    private static void bind(PreparedStatement ps, long pk, Integer stageId) throws SQLException {
        ps.setLong(1, pk);
        if (stageId != null) {
            ps.setInt(2, stageId);
        }
    }

    private static List<StageSummary> stages(Connection c, long pk, Integer stageId) throws SQLException {
        Map<StageKey, Map<String, double[]>> stats = statistics(c, pk, stageId);
        Map<StageKey, List<TaskRecord>> tasks = tasks(c, pk, stageId);
        List<StageSummary> out = new ArrayList<>();
        try (PreparedStatement ps = select(c, Tables.STAGE,
                oneStage(stageId) + " ORDER BY ord, stage_id, attempt_id")) {
            bind(ps, pk, stageId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StageKey key = new StageKey(rs.getInt("stage_id"), rs.getInt("attempt_id"));
                    long count = rs.getLong("summary_task_count");
                    TaskDistributions dist = rs.wasNull() ? null : distributions(count,
                            doubles(rs.getArray("summary_quantiles")), stats.getOrDefault(key, Map.of()));
                    StageSummary.Builder stage = StageSummary.builder().stageId(key.stageId()).attemptId(key.attemptId())
                            .name(rs.getString("name")).details(rs.getString("details"))
                            .status(StageSummary.StageStatus.valueOf(rs.getString("status")))
                            .numTasks(rs.getInt("num_tasks")).numActiveTasks(rs.getInt("num_active_tasks"))
                            .numCompleteTasks(rs.getInt("num_complete_tasks"))
                            .numFailedTasks(rs.getInt("num_failed_tasks"))
                            .numKilledTasks(rs.getInt("num_killed_tasks"))
                            .numCompletedIndices(rs.getInt("num_completed_indices"))
                            .submissionTime(rs.getLong("submission_time"))
                            .completionTime(rs.getLong("completion_time"))
                            .firstTaskLaunchedTime(rs.getLong("first_task_launched_time"))
                            .lastTaskFinishedTime(rs.getLong("last_task_finished_time"))
                            .failureReason(rs.getString("failure_reason")).parentIds(ints(rs.getArray("parent_ids")))
                            .jobIds(ints(rs.getArray("job_ids"))).totals(Json.stageTotals(rs.getString("totals")))
                            .taskSummary(dist).keptTasks(ended(tasks.getOrDefault(key, List.of())))
                            .endReasons(Json.intMap(rs.getString("end_reasons")))
                            .taskDetail(taskDetail(rs.getString("task_detail"))).taskTimes(taskTimes(rs))
                            .runningTasks(running(tasks.getOrDefault(key, List.of())));
                    out.add(withCounts(stage, rs).build());
                }
            }
        }
        return out;
    }

    private static final String RUNNING = "RUNNING";

    /** The stored tasks that ended: the stage's kept tasks. */
    private static List<TaskRecord> ended(List<TaskRecord> stored) {
        return stored.stream().filter(t -> !RUNNING.equals(t.status())).toList();
    }

    /** The stored tasks still running when the snapshot was taken. */
    private static List<TaskRecord> running(List<TaskRecord> stored) {
        return stored.stream().filter(t -> RUNNING.equals(t.status())).toList();
    }

    /** Null (a row written before V4) lets {@link StageSummary} derive it from the counts. */
    static StageSummary.TaskDetail taskDetail(String stored) {
        return stored == null ? null : StageSummary.TaskDetail.valueOf(stored);
    }

    /**
     * The stage with its V8 counts as stored; a row written before V8 keeps what {@link StageSummary} derives from
     * Spark's counts and the kept tasks.
     */
    static StageSummary.Builder withCounts(StageSummary.Builder stage, ResultSet rs) throws SQLException {
        int distinct = rs.getInt("num_distinct_ended_tasks");
        if (rs.wasNull()) {
            return stage;
        }
        return stage.numDistinctEndedTasks(distinct).numSpeculativeTasks(rs.getInt("num_speculative_tasks"))
                .numDuplicateTaskEnds(rs.getInt("num_duplicate_task_ends"))
                .numTasksWithUnknownTimes(rs.getInt("num_tasks_with_unknown_times"));
    }

    /** The three V4 sums of the stage row, or null when the row was written before V4. */
    static TaskTimeSums taskTimes(ResultSet rs) throws SQLException {
        long duration = rs.getLong("task_duration_ms");
        if (rs.wasNull()) {
            return null;
        }
        return new TaskTimeSums(duration, rs.getLong("scheduler_delay_ms"), rs.getLong("getting_result_ms"));
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

    private static Map<StageKey, Map<String, double[]>> statistics(Connection c, long pk, Integer stageId)
            throws SQLException {
        Map<StageKey, Map<String, double[]>> out = new HashMap<>();
        try (PreparedStatement ps = select(c, Tables.STAGE_STATISTICS, oneStage(stageId))) {
            bind(ps, pk, stageId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(new StageKey(rs.getInt("stage_id"), rs.getInt("stage_attempt_id")),
                            k -> new HashMap<>()).put(rs.getString("metric"), doubles(rs.getArray("vals")));
                }
            }
        }
        return out;
    }

    private static Map<StageKey, List<TaskRecord>> tasks(Connection c, long pk, Integer stageId) throws SQLException {
        Map<StageKey, List<TaskRecord>> out = new HashMap<>();
        try (PreparedStatement ps = select(c, Tables.TASK,
                oneStage(stageId) + " ORDER BY stage_id, stage_attempt_id, ord")) {
            bind(ps, pk, stageId);
            ps.setFetchSize(5000); // stream big task sets instead of buffering them twice
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(new StageKey(rs.getInt("stage_id"), rs.getInt("stage_attempt_id")),
                                    k -> new ArrayList<>())
                            .add(task(rs));
                }
            }
        }
        return out;
    }

    /** One {@code executor} row (every declared column selected) as the model's executor; the web views read it too. */
    public static ExecutorSummary executor(ResultSet rs) throws SQLException {
        return ExecutorSummary.builder().executorId(rs.getString("executor_id")).host(rs.getString("host"))
                .totalCores(rs.getInt("total_cores")).addTime(rs.getLong("add_time"))
                .removeTime(rs.getLong("remove_time")).removeReason(rs.getString("remove_reason"))
                .maxMemory(rs.getLong("max_memory")).completedTasks(rs.getInt("completed_tasks"))
                .failedTasks(rs.getInt("failed_tasks")).killedTasks(rs.getInt("killed_tasks"))
                .totalDuration(rs.getLong("total_duration_ms")).totalRunTime(rs.getLong("total_run_time_ms"))
                .totalCpuTimeNs(rs.getLong("total_cpu_time_ns")).totalGcTime(rs.getLong("total_gc_time_ms"))
                .inputBytes(rs.getLong("input_bytes")).shuffleReadBytes(rs.getLong("shuffle_read_bytes"))
                .shuffleWriteBytes(rs.getLong("shuffle_write_bytes"))
                .memoryBytesSpilled(rs.getLong("memory_bytes_spilled"))
                .diskBytesSpilled(rs.getLong("disk_bytes_spilled"))
                .peakMetrics(Json.longMap(rs.getString("peak_metrics"))).hostPort(rs.getString("host_port"))
                .added(rs.getBoolean("added")).totalTasks(rs.getInt("total_tasks"))
                .activeTasks(rs.getInt("active_tasks")).maxOnHeapMemory(rs.getLong("max_on_heap_memory"))
                .maxOffHeapMemory(rs.getLong("max_off_heap_memory")).build();
    }

    /** One {@code job} row (every declared column selected) as the model's job; the web views read it too. */
    public static JobSummary job(ResultSet rs) throws SQLException {
        return JobSummary.builder().jobId(rs.getInt("job_id")).name(rs.getString("name"))
                .description(rs.getString("description")).jobGroup(rs.getString("job_group"))
                .submissionTime(rs.getLong("submission_time")).completionTime(rs.getLong("completion_time"))
                .status(JobSummary.JobStatus.valueOf(rs.getString("status")))
                .failureReason(rs.getString("failure_reason")).stageIds(ints(rs.getArray("stage_ids")))
                .sqlExecutionId(rs.getLong("sql_execution_id")).numTasks(rs.getInt("num_tasks"))
                .numCompletedTasks(rs.getInt("num_completed_tasks")).numFailedTasks(rs.getInt("num_failed_tasks"))
                .numKilledTasks(rs.getInt("num_killed_tasks")).numSkippedStages(rs.getInt("num_skipped_stages"))
                .numActiveTasks(rs.getInt("num_active_tasks")).numCompletedIndices(rs.getInt("num_completed_indices"))
                .numSkippedTasks(rs.getInt("num_skipped_tasks")).numActiveStages(rs.getInt("num_active_stages"))
                .numCompletedStages(rs.getInt("num_completed_stages")).numFailedStages(rs.getInt("num_failed_stages"))
                .killedTasksSummary(Json.intMap(rs.getString("killed_tasks_summary")))
                .jobTags(strings(rs.getArray("job_tags"))).build();
    }

    /** One {@code task} row (every declared column selected) as the model's kept task; the web views read it too. */
    public static TaskRecord task(ResultSet rs) throws SQLException {
        return TaskRecord.builder().taskId(rs.getLong("task_id")).index(rs.getInt("task_index"))
                .attempt(rs.getInt("attempt")).partitionId(rs.getInt("partition_id"))
                .executorId(rs.getString("executor_id")).host(rs.getString("host")).locality(rs.getString("locality"))
                .speculative(rs.getBoolean("speculative")).launchTime(rs.getLong("launch_time"))
                .finishTime(rs.getLong("finish_time")).gettingResultTime(rs.getLong("getting_result_time"))
                .status(rs.getString("status")).endReason(rs.getString("end_reason"))
                .errorMessage(rs.getString("error_message")).metrics(TaskMetricArray.read(rs, "metrics"))
                .errorDetail(rs.getString("error_detail")).build();
    }

    private static List<SqlExecutionSummary> sqlExecutions(Connection c, long pk) throws SQLException {
        return sqlExecutions(c, pk, null);
    }

    /**
     * The application's SQL executions in recorded order with their plans and per-task metric aggregates, or only
     * the one with {@code executionId} when that is not null; the SQL views read them this way too.
     */
    public static List<SqlExecutionSummary> sqlExecutions(Connection c, long pk, Long executionId)
            throws SQLException {
        Map<Long, Map<Long, SqlMetricAggregate>> aggregates = sqlMetricAggregates(c, pk, executionId);
        List<SqlExecutionSummary> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Tables.SQL_EXECUTION.selectList()
                + " FROM sql_execution WHERE app_pk = ? AND (CAST(? AS bigint) IS NULL OR execution_id = ?)"
                + " ORDER BY ord, execution_id")) {
            ps.setLong(1, pk);
            ps.setObject(2, executionId, java.sql.Types.BIGINT);
            ps.setObject(3, executionId, java.sql.Types.BIGINT);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong("execution_id");
                    out.add(SqlExecutionSummary.builder().executionId(id).description(rs.getString("description"))
                            .startTime(rs.getLong("start_time")).endTime(rs.getLong("end_time"))
                            .errorMessage(rs.getString("error_message"))
                            .physicalPlanDescription(rs.getString("physical_plan_description"))
                            .plan(Json.plan(rs.getString("plan"))).jobIds(ints(rs.getArray("job_ids")))
                            .metricValues(Json.idMap(rs.getString("metric_values")))
                            .metrics(aggregates.getOrDefault(id, Map.of())).stageIds(ints(rs.getArray("stage_ids")))
                            .build());
                }
            }
        }
        return out;
    }

    /** Execution id → accumulator id → aggregate, from the node metric rows that carry one. */
    private static Map<Long, Map<Long, SqlMetricAggregate>> sqlMetricAggregates(Connection c, long pk,
                                                                                 Long executionId)
            throws SQLException {
        Map<Long, Map<Long, SqlMetricAggregate>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Tables.SQL_NODE_METRIC.selectList()
                + " FROM sql_node_metric WHERE app_pk = ? AND (CAST(? AS bigint) IS NULL OR execution_id = ?)"
                + " AND total IS NOT NULL")) {
            ps.setLong(1, pk);
            ps.setObject(2, executionId, java.sql.Types.BIGINT);
            ps.setObject(3, executionId, java.sql.Types.BIGINT);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    SqlMetricAggregate a = sqlMetricAggregate(rs);
                    out.computeIfAbsent(rs.getLong("execution_id"), k -> new HashMap<>()).put(a.accumulatorId(), a);
                }
            }
        }
        return out;
    }

    /** One {@code sql_node_metric} row's aggregate (its total not null); the web views read it too. */
    public static SqlMetricAggregate sqlMetricAggregate(ResultSet rs) throws SQLException {
        return new SqlMetricAggregate(rs.getLong("accumulator_id"), rs.getString("metric_type"), rs.getLong("total"),
                rs.getLong("value_count"), rs.getLong("min_value"), rs.getLong("median_value"),
                rs.getLong("lower_median_value"), rs.getLong("max_value"), rs.getInt("max_stage_id"),
                rs.getInt("max_stage_attempt_id"), rs.getLong("max_task_id"), rs.getLong("reported_values"),
                rs.getBoolean("exact"), ints(rs.getArray("value_stage_ids")));
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
