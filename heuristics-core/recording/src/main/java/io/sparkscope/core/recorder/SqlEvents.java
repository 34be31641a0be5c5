package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.DriverAccumUpdates;
import io.sparkscope.core.event.SparkEvent.JobStart;
import io.sparkscope.core.event.SparkEvent.SqlAdaptivePlanUpdate;
import io.sparkscope.core.event.SparkEvent.SqlExecutionEnd;
import io.sparkscope.core.event.SparkEvent.SqlExecutionStart;
import io.sparkscope.core.event.SparkEvent.TaskEnd;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskInfo;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The application's SQL executions and how events change them: their start, plan updates and end, and the SQL metric
 * values that reach them from the driver, from a completed stage's accumulables and from each task end of a stage one
 * of them tracks. {@link StageEvents} tells it when a job, stage or task of an execution moves.
 */
final class SqlEvents {
    private final EventFolding live;
    final Map<Long, LiveSqlExecution> sqlExecutions = new TreeMap<>();
    /**
     * Stage id → the running SQL execution that aggregates its tasks' SQL metric updates (the one whose job listed
     * it last, as in Spark). Entries go when the execution ends.
     */
    private final Map<Integer, LiveSqlExecution> sqlStageOwner = new HashMap<>();
    /** SQL execution by the accumulator ids its plan declares, so a stage's metrics find theirs at once. */
    final Map<Long, LiveSqlExecution> sqlByMetricId = new HashMap<>();

    SqlEvents(EventFolding live) {
        this.live = live;
    }

    /** The SQL execution, created when new, marked changed; null when it left the window (it ended long ago). */
    private LiveSqlExecution sql(long id) {
        LiveSqlExecution sql = sqlExecutions.get(id);
        if (sql == null) {
            if (live.window.sqlExecutionGone(id)) {
                return null;
            }
            sql = new LiveSqlExecution(id);
            sqlExecutions.put(id, sql);
        }
        sql.changedAt(live.eventCount);
        return sql;
    }

    private void plan(LiveSqlExecution sql, String description, SparkEvent.PlanNode root) {
        sql.plan(description, root);
        if (root != null) {
            for (Long id : sql.metricIds) {
                sqlByMetricId.put(id, sql);
            }
        }
    }

    void onSqlStart(SqlExecutionStart e) {
        live.seen(e.time());
        LiveSqlExecution sql = sql(e.executionId());
        if (sql == null) {
            return;
        }
        sql.description = e.description();
        sql.startTime = e.time();
        plan(sql, e.physicalPlanDescription(), e.plan());
    }

    /**
     * As Spark: the end of an execution never started (no SQLExecutionStart, no adaptive plan update) changes
     * nothing, and a repeated end keeps the first one's time and error.
     */
    void onSqlEnd(SqlExecutionEnd e) {
        live.seen(e.time());
        LiveSqlExecution sql = sqlExecutions.get(e.executionId());
        if (sql == null || sql.ended) {
            return;
        }
        sql.endTime = e.time();
        sql.errorMessage = e.errorMessage();
        for (Integer stageId : sql.trackedStages()) {
            sqlStageOwner.remove(stageId, sql);
        }
        sql.end();
        sql.ended = true;
        sql.changedAt(live.eventCount);
        live.window.sqlWindow.ended(sql, sql.errorMessage != null && !sql.errorMessage.isEmpty());
        live.window.evict();
    }

    void onSqlAdaptivePlanUpdate(SqlAdaptivePlanUpdate e) {
        LiveSqlExecution sql = sql(e.executionId());
        if (sql != null) {
            plan(sql, e.physicalPlanDescription(), e.plan());
        }
    }

    void onDriverAccumUpdates(DriverAccumUpdates e) {
        LiveSqlExecution sql = sqlExecutions.get(e.executionId());
        if (sql != null) {
            sql.changedAt(live.eventCount);
            for (SparkEvent.AccumUpdate u : e.updates()) {
                if (sql.metricIds.contains(u.accumulatorId())) {
                    sql.metricValues.put(u.accumulatorId(), u.value());
                    sql.driverUpdate(u.accumulatorId(), u.value());
                }
            }
        }
    }

    /**
     * A job of the execution started. As Spark's SQL listener: a job joins an execution its start announced, and
     * never makes one (a log without SQLExecutionStart events lists no SQL executions in Spark's UI).
     */
    void jobStarted(long executionId, JobStart e) {
        LiveSqlExecution sql = sqlExecutions.get(executionId);
        if (sql != null) {
            sql.changedAt(live.eventCount);
            sql.jobIds.add(e.jobId());
            for (int stageId : sql.jobStarted(e.stageIds(), e.stageInfos())) {
                sqlStageOwner.put(stageId, sql);
            }
        }
    }

    /** A stage attempt was submitted: the execution tracking the stage, if any, notes it. */
    void stageSubmitted(StageInfo info) {
        LiveSqlExecution sql = sqlStageOwner.get(info.stageId());
        if (sql != null && sql.stageSubmitted(info.stageId(), info.attemptId())) {
            sql.changedAt(live.eventCount);
        }
    }

    /** A task ended: its SQL metric updates count in the execution tracking its stage, if any. */
    void taskEnded(TaskEnd e) {
        if (!sqlStageOwner.isEmpty()) {
            LiveSqlExecution sql = sqlStageOwner.get(e.stageId());
            if (sql != null) {
                TaskInfo info = e.taskInfo();
                if (sql.taskEnded(e.stageId(), e.stageAttemptId(), info.taskId(), info.index(), info.successful(),
                        e.accumUpdates())) {
                    sql.changedAt(live.eventCount);
                }
            }
        }
    }

    /** A stage attempt completed: the SQL metric values among its accumulables reach their executions. */
    void stageCompleted(StageInfo info) {
        if (sqlByMetricId.isEmpty() || info.accumulables().isEmpty()) {
            return;
        }
        for (StageInfo.Accumulable acc : info.accumulables()) {
            LiveSqlExecution sql = sqlByMetricId.get(acc.id());
            if (sql != null) {
                sql.stageAccumulable(info.stageId(), acc.id());
                sql.changedAt(live.eventCount);
                Long value = parseLong(acc.value());
                if (value != null) {
                    sql.metricValues.put(acc.id(), value);
                }
            }
        }
    }

    private static Long parseLong(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
