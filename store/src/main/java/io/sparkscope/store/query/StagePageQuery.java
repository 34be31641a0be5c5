package io.sparkscope.store.query;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.FindingRows;
import io.sparkscope.store.ReadTransaction;
import io.sparkscope.store.TaskMetricArray;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One stage attempt as its own page shows it, in one read-only REPEATABLE READ transaction: every attempt of the
 * stage (with the stored quantiles), the stages it read from and those that read from it, the SQL operators it ran,
 * its jobs, the findings about it, its kept tasks summed per executor in the database, and its slowest kept tasks
 * (the first page of its task table sorted by duration, read as that table reads it).
 */
public final class StagePageQuery {
    /** Tasks the page shows itself, slowest first; the task table has the rest. */
    public static final int SLOWEST_TASKS = 20;

    private final DataSource dataSource;

    public StagePageQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A stage linked from the page: its newest stored attempt. */
    public record StageLink(int stageId, int attemptId, String name, String status) {
    }

    /** A job the stage ran for, and the SQL execution that job ran for (-1: none). */
    public record JobLink(int jobId, String status, long sqlExecutionId) {
    }

    /**
     * One executor's share of the stage's kept tasks.
     *
     * @param removeReason why the executor was removed, null while alive or when Spark gave none
     * @param spillBytes   memory and disk bytes spilled
     */
    public record ExecutorSums(String executorId, String host, int cores, String removeReason, int tasks,
                               int succeeded, int failed, int killed, long durationMs, long runTimeMs, long gcTimeMs,
                               long inputBytes, long outputBytes, long shuffleReadBytes, long shuffleWriteBytes,
                               long spillBytes) {
    }

    /**
     * @param stage      the attempt asked for
     * @param attempts   every stored attempt of the stage, the one asked for among them, in recorded order
     * @param keptTasks  task rows stored for the attempt (what {@code executors} sums)
     * @param findings   the application's findings that name this stage (any attempt)
     * @param slowest    at most {@link #SLOWEST_TASKS} kept tasks, longest duration first (ties: higher task id)
     * @param plan       the SQL plan operators around the stage, with their edges, for its drawing
     */
    public record Page(AppRefs.Resolved app, StageRow stage, List<StageRow> attempts, List<StageLink> parents,
                       List<StageLink> children, List<JobLink> jobs, List<SqlQuery.StageOperator> operators,
                       List<Finding> findings, List<ExecutorSums> executors, long keptTasks,
                       List<TaskRecord> slowest, StagePlan plan) {
    }

    /** The request for the page's slowest tasks: the task table's first page sorted by duration, descending. */
    public static TaskListQuery.Request slowestRequest(int stageId, int stageAttemptId) {
        return new TaskListQuery.Request(stageId, stageAttemptId, 0, SLOWEST_TASKS, TaskListQuery.Sort.DURATION, true,
                Set.of(), null);
    }

    public enum Outcome { FOUND, NO_APPLICATION, NO_STAGE, NO_ATTEMPT }

    /** {@code page} is null unless FOUND; {@code attempts} lists the stored attempts when NO_ATTEMPT. */
    public record Result(Outcome outcome, Page page, List<Integer> attempts) {
    }

    /** @param attemptId null: the attempt-less application, else its newest attempt (as the application page) */
    public Result load(String appId, String attemptId, int stageId, int stageAttemptId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> loadIn(c, appId, attemptId, stageId, stageAttemptId));
    }

    private static Result loadIn(Connection c, String appId, String attemptId, int stageId, int stageAttemptId)
            throws SQLException {
        AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
        if (app == null) {
            return new Result(Outcome.NO_APPLICATION, null, List.of());
        }
        List<StageRow> attempts = AppDetailQuery.attemptsOf(c, app.pk(), stageId);
        StageRow stage = attempts.stream().filter(s -> s.attemptId() == stageAttemptId).findFirst().orElse(null);
        if (stage == null) {
            return new Result(attempts.isEmpty() ? Outcome.NO_STAGE : Outcome.NO_ATTEMPT, null,
                    attempts.stream().map(StageRow::attemptId).toList());
        }
        String key = stageId + "." + stageAttemptId;
        String anyAttempt = stageId + ".";
        List<Finding> findings = new ArrayList<>();
        for (Finding f : FindingRows.byApp(c, List.of(app.pk())).getOrDefault(app.pk(), List.of())) {
            if (f.stageIds().stream().anyMatch(s -> s.equals(key) || s.startsWith(anyAttempt)
                    || s.equals(String.valueOf(stageId)))) {
                findings.add(f);
            }
        }
        return new Result(Outcome.FOUND, new Page(app, stage, attempts, parents(c, app.pk(), stageId, stageAttemptId),
                children(c, app.pk(), stageId), jobs(c, app.pk(), stage.jobIds()),
                SqlQuery.operatorsOfStage(c, app.pk(), stageId), findings,
                executors(c, app.pk(), stageId, stageAttemptId), kept(c, app.pk(), stageId, stageAttemptId),
                TaskListQuery.rows(c, app.pk(), slowestRequest(stageId, stageAttemptId), null),
                StagePlan.load(c, app.pk(), stageId)), List.of());
    }

    private static final String LINK_COLUMNS = "SELECT DISTINCT ON (s.stage_id) s.stage_id, s.attempt_id, s.name,"
            + " s.status" + StageNameColumns.COLUMNS + " FROM stage_attempt s" + StageNameColumns.JOIN;

    /** The stages this one read from (its parents), those stored: Spark skips a parent whose output it kept. */
    private static List<StageLink> parents(Connection c, long pk, int stageId, int attemptId) throws SQLException {
        return links(c, LINK_COLUMNS + " WHERE s.app_pk = ? AND s.stage_id = ANY((SELECT p.parent_ids FROM"
                + " stage_attempt p WHERE p.app_pk = ? AND p.stage_id = ? AND p.attempt_id = ?)::int[])"
                + " ORDER BY s.stage_id, s.attempt_id DESC", pk, pk, stageId, attemptId);
    }

    /** The stages that read this one's output. */
    private static List<StageLink> children(Connection c, long pk, int stageId) throws SQLException {
        return links(c, LINK_COLUMNS + " WHERE s.app_pk = ? AND ? = ANY(s.parent_ids)"
                + " ORDER BY s.stage_id, s.attempt_id DESC", pk, stageId);
    }

    private static List<StageLink> links(Connection c, String sql, Object... params) throws SQLException {
        List<StageLink> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StageLink(rs.getInt("stage_id"), rs.getInt("attempt_id"),
                            StageNameColumns.readable(rs), rs.getString("status")));
                }
            }
        }
        return out;
    }

    private static List<JobLink> jobs(Connection c, long pk, List<Integer> jobIds) throws SQLException {
        List<JobLink> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, status, sql_execution_id FROM job"
                + " WHERE app_pk = ? AND job_id = ANY(?) ORDER BY job_id")) {
            ps.setLong(1, pk);
            ps.setArray(2, c.createArrayOf("integer", jobIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new JobLink(rs.getInt(1), rs.getString(2), rs.getLong(3)));
                }
            }
        }
        return out;
    }

    private static String metric(TaskMetric metric) {
        return "COALESCE(sum(" + TaskMetricArray.sql("t.", metric) + "), 0)";
    }

    /**
     * The kept tasks summed per executor, in the order the executors appeared (tasks of an executor that is not
     * stored come last, by id).
     */
    private static List<ExecutorSums> executors(Connection c, long pk, int stageId, int attemptId)
            throws SQLException {
        List<ExecutorSums> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT t.executor_id, max(e.host) AS ehost, max(t.host) AS"
                + " thost, max(e.total_cores) AS cores, max(e.remove_reason) AS reason, count(*) AS tasks,"
                + " count(*) FILTER (WHERE t.status = 'SUCCESS') AS ok,"
                + " count(*) FILTER (WHERE t.status = 'FAILED') AS failed,"
                + " count(*) FILTER (WHERE t.status = 'KILLED') AS killed,"
                + " COALESCE(sum(GREATEST(t.duration_ms, 0)), 0) AS duration, " + metric(TaskMetric.EXECUTOR_RUN_TIME) + ", "
                + metric(TaskMetric.JVM_GC_TIME) + ", " + metric(TaskMetric.INPUT_BYTES) + ", "
                + metric(TaskMetric.OUTPUT_BYTES) + ", " + metric(TaskMetric.SHUFFLE_REMOTE_BYTES_READ) + " + "
                + metric(TaskMetric.SHUFFLE_LOCAL_BYTES_READ) + ", " + metric(TaskMetric.SHUFFLE_BYTES_WRITTEN) + ", "
                + metric(TaskMetric.MEMORY_BYTES_SPILLED) + " + " + metric(TaskMetric.DISK_BYTES_SPILLED)
                + " FROM task t LEFT JOIN executor e ON e.app_pk = t.app_pk AND e.executor_id = t.executor_id"
                + " WHERE t.app_pk = ? AND t.stage_id = ? AND t.stage_attempt_id = ?"
                + " GROUP BY t.executor_id ORDER BY min(e.ord) NULLS LAST, t.executor_id")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, attemptId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String host = rs.getString("ehost") != null ? rs.getString("ehost") : rs.getString("thost");
                    out.add(new ExecutorSums(rs.getString(1), host, rs.getInt("cores"), rs.getString("reason"),
                            rs.getInt("tasks"), rs.getInt("ok"), rs.getInt("failed"), rs.getInt("killed"),
                            rs.getLong("duration"), rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getLong(14),
                            rs.getLong(15), rs.getLong(16), rs.getLong(17)));
                }
            }
        }
        return out;
    }

    private static long kept(Connection c, long pk, int stageId, int attemptId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM task WHERE app_pk = ? AND stage_id = ?"
                + " AND stage_attempt_id = ?")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, attemptId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
