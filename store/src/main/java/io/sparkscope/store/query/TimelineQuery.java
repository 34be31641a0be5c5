package io.sparkscope.store.query;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.ReadTransaction;
import io.sparkscope.store.TaskMetricArray;

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
        return ReadTransaction.run(dataSource, c -> loadIn(c, appId, attemptId, stageId, stageAttemptId));
    }

    private Result loadIn(Connection c, String appId, String attemptId, int stageId, int stageAttemptId)
            throws SQLException {
        AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
        if (app == null) {
            return new Result(Outcome.NO_APPLICATION, null);
        }
        long pk = app.pk();
        String attempt = app.attemptId();
        String name = app.name();
        StageHead stage;
        try (PreparedStatement ps = c.prepareStatement("SELECT name, status, num_tasks, num_complete_tasks,"
                + " num_failed_tasks, num_killed_tasks, submission_time, completion_time, task_detail"
                + StageNameColumns.COLUMNS + " FROM stage_attempt s" + StageNameColumns.JOIN
                + " WHERE s.app_pk = ? AND s.stage_id = ? AND s.attempt_id = ?")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, stageAttemptId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Result(Outcome.NO_STAGE, null);
                }
                stage = new StageHead(StageNameColumns.readable(rs), rs.getString("status"), rs.getInt("num_tasks"),
                        rs.getInt("num_complete_tasks"), rs.getInt("num_failed_tasks"), rs.getInt("num_killed_tasks"),
                        rs.getLong("submission_time"), rs.getLong("completion_time"), rs.getString("task_detail"));
            }
        }
        List<StageTimelineData.ExecutorRow> executors = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT executor_id, host, total_cores, add_time, remove_time"
                + " FROM executor WHERE app_pk = ? ORDER BY ord")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    executors.add(new StageTimelineData.ExecutorRow(rs.getString("executor_id"), rs.getString("host"),
                            rs.getInt("total_cores"), rs.getLong("add_time"), rs.getLong("remove_time")));
                }
            }
        }
        Map<String, String> conf = slotSettings(c, pk);
        List<TaskRecord> tasks = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT task_id, task_index, attempt, partition_id,"
                + " executor_id, host, locality, speculative, launch_time, finish_time, getting_result_time, status,"
                + " end_reason, metrics IS NULL AS no_metrics,"
                + " " + TaskMetricArray.sql("", TaskMetric.EXECUTOR_DESERIALIZE_TIME) + " AS deserialize_ms,"
                + " " + TaskMetricArray.sql("", TaskMetric.EXECUTOR_RUN_TIME) + " AS run_ms,"
                + " " + TaskMetricArray.sql("", TaskMetric.RESULT_SERIALIZATION_TIME) + " AS result_serialization_ms,"
                + " " + TaskMetricArray.sql("", TaskMetric.JVM_GC_TIME) + " AS gc_ms"
                + " FROM task WHERE app_pk = ? AND stage_id = ? AND stage_attempt_id = ? ORDER BY ord")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            ps.setInt(3, stageAttemptId);
            ps.setFetchSize(5000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TaskMetrics m = rs.getBoolean("no_metrics") ? null : TaskMetrics.builder()
                            .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, rs.getLong("deserialize_ms"))
                            .set(TaskMetric.EXECUTOR_RUN_TIME, rs.getLong("run_ms"))
                            .set(TaskMetric.RESULT_SERIALIZATION_TIME, rs.getLong("result_serialization_ms"))
                            .set(TaskMetric.JVM_GC_TIME, rs.getLong("gc_ms")).build();
                    // error_message is left out: the timeline shows status and reason, not stack traces.
                    tasks.add(TaskRecord.builder().taskId(rs.getLong("task_id")).index(rs.getInt("task_index"))
                            .attempt(rs.getInt("attempt")).partitionId(rs.getInt("partition_id"))
                            .executorId(rs.getString("executor_id")).host(rs.getString("host"))
                            .locality(rs.getString("locality")).speculative(rs.getBoolean("speculative"))
                            .launchTime(rs.getLong("launch_time")).finishTime(rs.getLong("finish_time"))
                            .gettingResultTime(rs.getLong("getting_result_time")).status(rs.getString("status"))
                            .endReason(rs.getString("end_reason")).metrics(m).build());
                }
            }
        }
        return new Result(Outcome.FOUND, new StageTimelineData(appId, attempt, name, stageId, stageAttemptId,
                stage.name(), stage.status(), stage.numTasks(), stage.numCompleteTasks(), stage.numFailedTasks(),
                stage.numKilledTasks(), stage.submissionTime(), stage.completionTime(), stage.taskDetail(), tasks,
                executors, conf));
    }

    /** The application's {@link #SLOT_KEYS} that are set: what decides its executors' task slots. */
    static Map<String, String> slotSettings(Connection c, long pk) throws SQLException {
        Map<String, String> conf = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT key, value FROM configuration"
                + " WHERE app_pk = ? AND scope = 'spark' AND key = ANY(?)")) {
            ps.setLong(1, pk);
            ps.setArray(2, c.createArrayOf("text", SLOT_KEYS.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString("value") != null) {
                        conf.put(rs.getString("key"), rs.getString("value"));
                    }
                }
            }
        }
        return conf;
    }

    /** The stage row's part of {@link StageTimelineData}. */
    private record StageHead(String name, String status, int numTasks, int numCompleteTasks, int numFailedTasks,
                             int numKilledTasks, long submissionTime, long completionTime, String taskDetail) {
    }
}
