package io.sparkscope.core.recorder;

import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;

/** Mutable state of one stage attempt while events arrive; {@link #summary} freezes it. */
final class LiveStage {
    /** Keeps the heap's root the fastest kept task, so a slower newcomer replaces it. */
    private static final Comparator<TaskRecord> BY_DURATION =
            Comparator.comparingLong(TaskRecord::durationMs).thenComparingLong(t -> -t.taskId());

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

    private final int tasksPerStage;
    private final int failedTasksPerStage;
    private final PriorityQueue<TaskRecord> slowest;
    private final List<TaskRecord> failed = new ArrayList<>();
    int failedTasksNotKept;

    /** The last summary built, reused until the stage changes. */
    private StageSummary cachedSummary;

    LiveStage(int stageId, int attemptId, RecorderOptions options) {
        this.stageId = stageId;
        this.attemptId = attemptId;
        this.tasksPerStage = options.tasksPerStage();
        this.failedTasksPerStage = options.failedTasksPerStage();
        this.slowest = new PriorityQueue<>(Math.max(1, Math.min(tasksPerStage, 1024)), BY_DURATION);
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
        if (tasksPerStage == 0) {
            return;
        }
        long duration = info.duration();
        if (slowest.size() < tasksPerStage) {
            slowest.add(record(reason, info, metrics));
        } else if (duration > slowest.peek().durationMs()) {
            // Only build the record when it will be kept: this runs once per task.
            slowest.poll();
            slowest.add(record(reason, info, metrics));
        }
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

    StageSummary summary(double[] quantiles) {
        if (cachedSummary != null) {
            return cachedSummary;
        }
        TaskDistributions dist = values.released() ? frozenDistributions : values.distributions(quantiles);
        List<TaskRecord> kept = new ArrayList<>(slowest.size() + failed.size());
        List<TaskRecord> slow = new ArrayList<>(slowest);
        slow.sort(BY_DURATION.reversed());
        kept.addAll(slow);
        kept.addAll(failed);
        Map<String, Integer> reasons = new LinkedHashMap<>(endReasons);
        cachedSummary = new StageSummary(stageId, attemptId, name, details, status, numTasks, activeTasks,
                completeTasks, failedTasks, killedTasks, completedIndices.cardinality(), submissionTime,
                completionTime, firstTaskLaunchedTime, lastTaskFinishedTime, failureReason, parentIds,
                List.copyOf(jobIds), StageTotals.of(totals), dist, kept, reasons);
        return cachedSummary;
    }

    int valueRows() {
        return values.released() ? 0 : values.rows();
    }
}
