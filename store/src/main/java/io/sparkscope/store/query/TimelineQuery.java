package io.sparkscope.store.query;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads one stage attempt for its task timeline: five small statements in one read-only REPEATABLE READ transaction
 * (application, stage row, executors, three settings, the stage's task rows by primary-key prefix). The task
 * metrics the timeline needs are read out of the jsonb in SQL, so no task's full metric map is parsed.
 */
public final class TimelineQuery {
    /** The settings that decide an executor's task slots. */
    static final List<String> SLOT_KEYS = List.of("spark.master", "spark.executor.cores", "spark.task.cpus");

    private final DataSource dataSource;

    public TimelineQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public enum Outcome { FOUND, NO_APPLICATION, NO_STAGE }

    /** {@code data} is null unless {@code outcome} is FOUND. */
    public record Result(Outcome outcome, StageTimelineData data) {
    }

    /**
     * @param attemptId null: the attempt-less application, else its newest attempt (as the application page)
     */
    public Result load(String appId, String attemptId, int stageId, int stageAttemptId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Result r = loadIn(c, appId, attemptId, stageId, stageAttemptId);
                c.commit();
                return r;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private Result loadIn(Connection c, String appId, String attemptId, int stageId, int stageAttemptId)
            throws SQLException {
        long pk;
        String attempt;
        String name;
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, attempt_id, name FROM application"
                + " WHERE app_id = ? AND (CAST(? AS text) IS NULL OR attempt_id = ?)"
                + " ORDER BY (attempt_id = '') DESC, start_time DESC LIMIT 1")) {
            ps.setString(1, appId);
            ps.setString(2, attemptId);
            ps.setString(3, attemptId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Result(Outcome.NO_APPLICATION, null);
                }
                pk = rs.getLong(1);
                attempt = rs.getString(2).isEmpty() ? null : rs.getString(2);
                name = rs.getString(3);
            }
        }
        Object[] stage;
        try (PreparedStatement ps = c.prepareStatement("SELECT name, status, num_tasks, num_complete_tasks,"
                + " num_failed_tasks, num_killed_tasks, submission_time, completion_time, task_detail"
                + " FROM stage_attempt WHERE app_pk = ? AND stage_id = ? AND attempt_id = ?")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, stageAttemptId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Result(Outcome.NO_STAGE, null);
                }
                stage = new Object[]{rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5),
                        rs.getInt(6), rs.getLong(7), rs.getLong(8), rs.getString(9)};
            }
        }
        List<StageTimelineData.ExecutorRow> executors = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT executor_id, host, total_cores, add_time, remove_time"
                + " FROM executor WHERE app_pk = ? ORDER BY ord")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    executors.add(new StageTimelineData.ExecutorRow(rs.getString(1), rs.getString(2), rs.getInt(3),
                            rs.getLong(4), rs.getLong(5)));
                }
            }
        }
        Map<String, String> conf = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT key, value FROM configuration"
                + " WHERE app_pk = ? AND scope = 'spark' AND key = ANY(?)")) {
            ps.setLong(1, pk);
            ps.setArray(2, c.createArrayOf("text", SLOT_KEYS.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(2) != null) {
                        conf.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
        }
        List<TaskRecord> tasks = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT task_id, task_index, attempt, partition_id,"
                + " executor_id, host, locality, speculative, launch_time, finish_time, getting_result_time, status,"
                + " end_reason, metrics IS NULL,"
                + " COALESCE((metrics->>'executorDeserializeTime')::bigint, 0),"
                + " COALESCE((metrics->>'executorRunTime')::bigint, 0),"
                + " COALESCE((metrics->>'resultSerializationTime')::bigint, 0),"
                + " COALESCE((metrics->>'jvmGcTime')::bigint, 0)"
                + " FROM task WHERE app_pk = ? AND stage_id = ? AND stage_attempt_id = ? ORDER BY ord")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, stageAttemptId);
            ps.setFetchSize(5000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TaskMetrics m = rs.getBoolean(14) ? null : TaskMetrics.builder()
                            .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, rs.getLong(15))
                            .set(TaskMetric.EXECUTOR_RUN_TIME, rs.getLong(16))
                            .set(TaskMetric.RESULT_SERIALIZATION_TIME, rs.getLong(17))
                            .set(TaskMetric.JVM_GC_TIME, rs.getLong(18)).build();
                    // error_message is left out: the timeline shows status and reason, not stack traces.
                    tasks.add(new TaskRecord(rs.getLong(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getBoolean(8), rs.getLong(9), rs.getLong(10),
                            rs.getLong(11), rs.getString(12), rs.getString(13), null, m));
                }
            }
        }
        return new Result(Outcome.FOUND, new StageTimelineData(appId, attempt, name, stageId, stageAttemptId,
                (String) stage[0], (String) stage[1], (int) stage[2], (int) stage[3], (int) stage[4], (int) stage[5],
                (long) stage[6], (long) stage[7], (String) stage[8], tasks, executors, conf));
    }
}
