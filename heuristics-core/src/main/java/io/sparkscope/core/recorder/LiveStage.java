package io.sparkscope.core.recorder;

import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimeSums;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Mutable state of one stage attempt while events arrive; {@link #summary} freezes it. */
final class LiveStage {
    final int stageId;
    final int attemptId;
    String name = "";
    String details = "";
    StageStatus status = StageStatus.PENDING;
    int numTasks;
    long submissionTime = -1;
    long completionTime = -1;
    String failureReason;
    List<Integer> parentIds = List.of();
    final TreeSet<Integer> jobIds = new TreeSet<>();

    int activeTasks;
    int completeTasks;
    int failedTasks;
    int killedTasks;
    final BitSet completedIndices = new BitSet();
    long firstTaskLaunchedTime = -1;
    long lastTaskFinishedTime = -1;
    final long[] totals = new long[TaskMetric.count()];
    final Map<String, Integer> endReasons = new TreeMap<>();

    final TaskValueRows values;
    /** Distribution frozen when the values were released (completed and evicted). */
    TaskDistributions frozenDistributions;
    /** Successful tasks that ended after the values were released: counted in totals, not in the quantiles. */
    long lateTasksOutsideQuantiles;

    /** Σ duration, scheduler delay, getting-result time of task ends with metrics ({@link TaskTimeSums}). */
    private long durationSum;
    private long schedulerDelaySum;
    private long gettingResultSum;

    private final int failedTasksPerStage;
    private final KeptTasks kept;
    private final List<TaskRecord> failed = new ArrayList<>();
    int failedTasksNotKept;
    /** Set once the stage's kept tasks count against the application's task-detail budget. */
    boolean countedInDetailBudget;

    /** The last summary built, reused until the stage changes. */
    private StageSummary cachedSummary;

    LiveStage(int stageId, int attemptId, RecorderOptions options) {
        this.stageId = stageId;
        this.attemptId = attemptId;
        this.failedTasksPerStage = options.failedTasksPerStage();
        this.kept = new KeptTasks(options.tasksPerStage(), (((long) stageId << 32) ^ attemptId) ^ 0x9E3779B97F4A7C15L);
        this.values = new TaskValueRows(options.exactTaskLimit(), ((long) stageId << 32) ^ attemptId);
    }

    void update(StageInfo info) {
        if (info.name() != null) {
            name = info.name();
        }
        if (info.details() != null) {
            details = info.details();
        }
        numTasks = info.numTasks();
        if (info.submissionTime() > 0) {
            submissionTime = info.submissionTime();
        }
        if (info.completionTime() > 0) {
            completionTime = info.completionTime();
        }
        if (info.failureReason() != null) {
            failureReason = info.failureReason();
        }
        if (!info.parentIds().isEmpty()) {
            parentIds = info.parentIds();
        }
        changed();
    }

    void taskStarted(TaskInfo info) {
        activeTasks++;
        if (info.launchTime() > 0 && (firstTaskLaunchedTime < 0 || info.launchTime() < firstTaskLaunchedTime)) {
            firstTaskLaunchedTime = info.launchTime();
        }
        changed();
    }

    void taskEnded(TaskEndReason reason, TaskInfo info, TaskMetrics metrics) {
        activeTasks = Math.max(0, activeTasks - 1);
        if (info.launchTime() > 0 && (firstTaskLaunchedTime < 0 || info.launchTime() < firstTaskLaunchedTime)) {
            firstTaskLaunchedTime = info.launchTime();
        }
        if (info.finishTime() > lastTaskFinishedTime) {
            lastTaskFinishedTime = info.finishTime();
        }
        // Spark's LiveStage counts: killed and commit-denied are "killed", every other non-success "failed".
        if (reason.isSuccess()) {
            completeTasks++;
            completedIndices.set(info.index());
        } else if (reason.isKilled()) {
            killedTasks++;
        } else {
            failedTasks++;
        }
        if (!reason.isSuccess()) {
            endReasons.merge(reason.kind(), 1, Integer::sum);
        }
        if (metrics != null) {
            StageTotals.accumulate(totals, metrics);
            durationSum += info.duration();
            schedulerDelaySum += DistributionMetric.schedulerDelay(info, metrics);
            gettingResultSum += DistributionMetric.gettingResultTime(info);
            // Population of Spark's task summary: successful tasks (per TaskInfo) that carry metrics.
            if (info.successful()) {
                if (values.released()) {
                    lateTasksOutsideQuantiles++;
                } else {
                    values.add(info, metrics);
                }
            }
        }
        keep(reason, info, metrics);
        changed();
    }

    private void keep(TaskEndReason reason, TaskInfo info, TaskMetrics metrics) {
        boolean failure = reason.isFailure();
        if (failure) {
            if (failed.size() < failedTasksPerStage) {
                failed.add(record(reason, info, metrics));
            } else {
                failedTasksNotKept++;
            }
            return;
        }
        // The record is only built when it is kept: past the cap most tasks are not.
        kept.add(info.duration(), () -> record(reason, info, metrics));
    }

    private static TaskRecord record(TaskEndReason reason, TaskInfo info, TaskMetrics metrics) {
        String status = reason.isSuccess() && info.successful() ? "SUCCESS" : reason.isKilled() ? "KILLED" : "FAILED";
        return new TaskRecord(info.taskId(), info.index(), info.attempt(), info.partitionId(), info.executorId(),
                info.host(), info.locality(), info.speculative(), info.launchTime(), info.finishTime(),
                info.gettingResultTime(), status, reason.kind(), reason.isSuccess() ? null : reason.description(),
                metrics);
    }

    void completed(StageInfo info) {
        update(info);
        status = info.failureReason() != null ? StageStatus.FAILED : StageStatus.COMPLETE;
        changed();
    }

    /** Drops the task values of a completed stage, keeping its distribution. */
    void releaseValues(double[] quantiles) {
        if (!values.released()) {
            frozenDistributions = values.distributions(quantiles);
            values.release();
            changed();
        }
    }

    private void changed() {
        cachedSummary = null;
    }

    /**
     * @param taskDetail false: a running stage goes out without its kept tasks (not even built); its counts,
     *                   totals and quantiles are unaffected. Other stages are always complete.
     */
    StageSummary summary(double[] quantiles, boolean taskDetail) {
        if (!taskDetail && status == StageStatus.ACTIVE) {
            TaskDistributions dist = values.released() ? frozenDistributions : values.distributions(quantiles);
            return new StageSummary(stageId, attemptId, name, details, status, numTasks, activeTasks,
                    completeTasks, failedTasks, killedTasks, completedIndices.cardinality(), submissionTime,
                    completionTime, firstTaskLaunchedTime, lastTaskFinishedTime, failureReason, parentIds,
                    List.copyOf(jobIds), StageTotals.of(totals), dist, List.of(), new LinkedHashMap<>(endReasons),
                    kept.detail(), new TaskTimeSums(durationSum, schedulerDelaySum, gettingResultSum));
        }
        return summary(quantiles);
    }

    StageSummary summary(double[] quantiles) {
        if (cachedSummary != null) {
            return cachedSummary;
        }
        TaskDistributions dist = values.released() ? frozenDistributions : values.distributions(quantiles);
        List<TaskRecord> detail = kept.sorted();
        detail.addAll(failed);
        Map<String, Integer> reasons = new LinkedHashMap<>(endReasons);
        cachedSummary = new StageSummary(stageId, attemptId, name, details, status, numTasks, activeTasks,
                completeTasks, failedTasks, killedTasks, completedIndices.cardinality(), submissionTime,
                completionTime, firstTaskLaunchedTime, lastTaskFinishedTime, failureReason, parentIds,
                List.copyOf(jobIds), StageTotals.of(totals), dist, detail, reasons, kept.detail(),
                new TaskTimeSums(durationSum, schedulerDelaySum, gettingResultSum));
        return cachedSummary;
    }

    /** Successful and killed tasks held in detail (failed ones not counted). */
    int keptTasks() {
        return kept.size();
    }

    /** Reduces the detail to the {@code keep} slowest tasks (the application's detail budget is spent). */
    void thinTasks(int keep) {
        int before = kept.size();
        kept.thinTo(keep);
        if (kept.size() != before) {
            changed();
        }
    }

    int valueRows() {
        return values.released() ? 0 : values.rows();
    }
}
