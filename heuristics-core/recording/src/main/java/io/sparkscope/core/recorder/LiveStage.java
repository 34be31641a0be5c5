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
import io.sparkscope.core.model.TaskTimes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Mutable state of one stage attempt while events arrive; {@link #summary} freezes it. */
final class LiveStage extends LiveEntity {
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
    /**
     * The jobs its task ends count in, as Spark's {@code LiveStage.jobs}: the jobs whose start named it, replaced at
     * its submission by the running jobs that include its stage id.
     */
    final List<LiveJob> countingJobs = new ArrayList<>(1);

    /** Task attempts started and not yet ended. */
    int activeTasks;
    /** Spark's counts of task ends, once per task attempt (and its Resubmitted end, as in Spark's LiveStage). */
    int completeTasks;
    int failedTasks;
    int killedTasks;
    /** Task ids that ended (the first end of each). */
    int distinctEndedTasks;
    int speculativeTasks;
    /** Repeated ends of an ended task id that are not its one Resubmitted end: counted nowhere else. */
    int duplicateTaskEnds;
    int tasksWithUnknownTimes;
    long firstTaskLaunchedTime = -1;
    long lastTaskFinishedTime = -1;
    final long[] totals = new long[TaskMetric.count()];
    final Map<String, Integer> endReasons = new TreeMap<>();

    /*
     * Spark's AppStatusListener tracks a task while it runs and forgets it at its first end (liveTasks.remove), and
     * forgets a stage once it has completed and has no running task left (liveStages.remove); whatever arrives
     * later for either no longer changes it. These sets do the same per stage attempt. Memory follows the number
     * of distinct values (SparseBits), about a bit per task while the stage is open; closing frees them.
     */
    private SparseBits startedTaskIds = new SparseBits();
    private SparseBits endedTaskIds = new SparseBits();
    private SparseBits completedIndices = new SparseBits();
    /** Task ids whose Resubmitted end was counted (a handful per lost executor); made at the first one. */
    private SparseBits resubmittedTaskIds;
    /** The distinct completed indices, kept once the sets are freed. */
    private long completedIndexCount;
    /** Completed (or failed, or skipped) with no task running: later task events are ignored, as Spark does. */
    boolean closed;
    /** Set at the first StageCompleted: a repeated one must not enter the retention queues twice. */
    boolean completedOnce;

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
    private final int runningTasksKept;
    /**
     * Tasks started and not ended, in start order, at most the per-stage cap of kept tasks: Spark's task list shows
     * them RUNNING. The first end of each takes it out. While only one runs it is held alone ({@code soleRunning}):
     * most stages of a long application are small, and a map for each would be made and dropped for nothing. Both
     * are dropped at close.
     */
    private LinkedHashMap<Long, TaskInfo> running;
    private TaskInfo soleRunning;
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
        this.runningTasksKept = options.tasksPerStage();
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
        numTasks = Math.max(0, info.numTasks());
        values.expectRows(numTasks);
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
        if (closed || endedTaskIds.contains(info.taskId()) || !startedTaskIds.add(info.taskId())) {
            // A start of a forgotten stage changes nothing in Spark either; a repeated start (a duplicated line) is
            // not a second running task (Spark would count it and show a task running forever).
            return;
        }
        activeTasks++;
        keepRunning(info);
        if (info.launchTime() > 0 && (firstTaskLaunchedTime < 0 || info.launchTime() < firstTaskLaunchedTime)) {
            firstTaskLaunchedTime = info.launchTime();
        }
        changed();
    }

    /** What a task end did to the stage attempt's counts. */
    enum EndCount {
        /** Counted: the task id's first end, or its one Resubmitted end. */
        COUNTED,
        /** A repeated line of an end already counted: nothing changes but the duplicate count. */
        DUPLICATE,
        /** The attempt had closed: nothing changes, and whether the end is a repeat is no longer known. */
        CLOSED
    }

    /**
     * Spark's rules for a task end (AppStatusListener.onTaskEnd), counted once per task attempt: the first end of a
     * task id counts in the completed, failed or killed count (a success marks its index completed) and adds the
     * task's metrics, its quantile values and its kept record. Spark's one second end of a task id, the Resubmitted
     * end of a finished task whose executor was lost, counts as a failed one as in Spark and changes nothing else
     * (the task stays as its first end left it). Any other repeat is a repeated line (a damaged log, a listener
     * replay): Spark would count it again, so that a stage showed more completed tasks than it has; here it only
     * counts as a duplicate. A task end of a stage attempt that already closed changes nothing.
     *
     * <p>A task end without a start (a lost line, a listener attached late) is taken as the task's first end; Spark
     * would count it but drop its metrics.
     */
    EndCount taskEnded(TaskEndReason reason, TaskInfo info, TaskMetrics metrics) {
        if (closed) {
            return EndCount.CLOSED;
        }
        boolean first = endedTaskIds.add(info.taskId());
        if (!first && !(StageSummary.RESUBMITTED.equals(reason.kind()) && firstResubmission(info.taskId()))) {
            duplicateTaskEnds++;
            changed();
            return EndCount.DUPLICATE;
        }
        if (reason.isSuccess()) {
            completeTasks++;
            completedIndices.add(info.index());
        } else if (reason.isKilled()) {
            killedTasks++; // Spark's LiveStage: killed and commit-denied are "killed", every other non-success "failed"
        } else {
            failedTasks++;
        }
        if (!reason.isSuccess()) {
            endReasons.merge(reason.kind(), 1, Integer::sum);
        }
        if (first) {
            firstEnd(reason, info, metrics);
        }
        closeIfDone();
        changed();
        return EndCount.COUNTED;
    }

    private boolean firstResubmission(long taskId) {
        if (resubmittedTaskIds == null) {
            resubmittedTaskIds = new SparseBits();
        }
        return resubmittedTaskIds.add(taskId);
    }

    private void firstEnd(TaskEndReason reason, TaskInfo info, TaskMetrics metrics) {
        distinctEndedTasks++;
        if (soleRunning != null && soleRunning.taskId() == info.taskId()) {
            soleRunning = null;
        } else if (running != null) {
            running.remove(info.taskId());
        }
        if (startedTaskIds.contains(info.taskId())) {
            activeTasks = Math.max(0, activeTasks - 1);
        }
        if (info.speculative()) {
            speculativeTasks++;
        }
        long duration = DistributionMetric.duration(info);
        if (duration == TaskTimes.UNKNOWN) {
            tasksWithUnknownTimes++;
        } else {
            if (firstTaskLaunchedTime < 0 || info.launchTime() < firstTaskLaunchedTime) {
                firstTaskLaunchedTime = info.launchTime();
            }
            if (info.finishTime() > lastTaskFinishedTime) {
                lastTaskFinishedTime = info.finishTime();
            }
        }
        if (metrics != null) {
            StageTotals.accumulate(totals, metrics);
            // Unknown derived times are left out of the sums (TaskTimes), not added as -1 or as a huge span.
            durationSum = StageTotals.add(durationSum, Math.max(0, duration));
            schedulerDelaySum = StageTotals.add(schedulerDelaySum, Math.max(0, DistributionMetric.schedulerDelay(info, metrics)));
            gettingResultSum = StageTotals.add(gettingResultSum, Math.max(0, DistributionMetric.gettingResultTime(info)));
            // Population of Spark's task summary: successful tasks (per TaskInfo) that carry metrics.
            if (info.successful()) {
                if (values.released()) {
                    lateTasksOutsideQuantiles++;
                } else {
                    values.add(info, metrics);
                }
            }
        }
        keep(reason, info, metrics, Math.max(0, duration));
    }

    private void keep(TaskEndReason reason, TaskInfo info, TaskMetrics metrics, long durationMs) {
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
        kept.add(durationMs, () -> record(reason, info, metrics));
    }

    private static TaskRecord record(TaskEndReason reason, TaskInfo info, TaskMetrics metrics) {
        String status = reason.isSuccess() && !info.failed() && !info.killed() ? "SUCCESS" : reason.isKilled() ? "KILLED" : "FAILED";
        return TaskRecord.builder().taskId(info.taskId()).index(info.index()).attempt(info.attempt())
                .partitionId(info.partitionId()).executorId(info.executorId()).host(info.host())
                .locality(info.locality()).speculative(info.speculative()).launchTime(info.launchTime())
                .finishTime(info.finishTime()).gettingResultTime(info.gettingResultTime()).status(status)
                .endReason(reason.kind()).errorMessage(reason.isSuccess() ? null : reason.description())
                .metrics(metrics).errorDetail(reason.isSuccess() ? null : reason.stackTrace()).build();
    }

    void completed(StageInfo info) {
        update(info);
        status = info.failureReason() != null ? StageStatus.FAILED : StageStatus.COMPLETE;
        closeIfDone();
        changed();
    }

    /** Marks a stage its job never ran as skipped; it closes, as in Spark. */
    void skipped() {
        status = StageStatus.SKIPPED;
        closeIfDone();
        changed();
    }

    private void closeIfDone() {
        if (!closed && activeTasks == 0
                && (status == StageStatus.COMPLETE || status == StageStatus.FAILED || status == StageStatus.SKIPPED)) {
            closed = true;
            running = null;
            soleRunning = null;
            completedIndexCount = completedIndices.size();
            startedTaskIds = null;
            endedTaskIds = null;
            completedIndices = null;
            resubmittedTaskIds = null;
        }
    }

    private int completedIndexCount() {
        return (int) Math.min(Integer.MAX_VALUE, closed ? completedIndexCount : completedIndices.size());
    }

    /** Memory held by the task-id and index sets, roughly (0 once closed). */
    long trackingBytes() {
        return closed ? 0 : startedTaskIds.approxBytes() + endedTaskIds.approxBytes() + completedIndices.approxBytes()
                + (resubmittedTaskIds == null ? 0 : resubmittedTaskIds.approxBytes());
    }

    /** Drops the task values of a completed stage, keeping its distribution. */
    void releaseValues(double[] quantiles) {
        if (!values.released()) {
            frozenDistributions = values.distributionsAndRelease(quantiles);
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
            return counted(dist).build();
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
        cachedSummary = counted(dist).keptTasks(detail).runningTasks(runningTasks()).build();
        return cachedSummary;
    }

    /** Everything of this stage attempt but its task lists: what both summaries share. */
    private StageSummary.Builder counted(TaskDistributions dist) {
        return StageSummary.builder().stageId(stageId).attemptId(attemptId).name(name).details(details)
                .status(status).numTasks(numTasks).numActiveTasks(activeTasks).numCompleteTasks(completeTasks)
                .numFailedTasks(failedTasks).numKilledTasks(killedTasks).numCompletedIndices(completedIndexCount())
                .submissionTime(submissionTime).completionTime(completionTime)
                .firstTaskLaunchedTime(firstTaskLaunchedTime).lastTaskFinishedTime(lastTaskFinishedTime)
                .failureReason(failureReason).parentIds(parentIds).jobIds(List.copyOf(jobIds))
                .totals(StageTotals.of(totals)).taskSummary(dist).endReasons(new LinkedHashMap<>(endReasons))
                .taskDetail(kept.detail())
                .taskTimes(new TaskTimeSums(durationSum, schedulerDelaySum, gettingResultSum))
                .numDistinctEndedTasks(distinctEndedTasks).numSpeculativeTasks(speculativeTasks)
                .numDuplicateTaskEnds(duplicateTaskEnds).numTasksWithUnknownTimes(tasksWithUnknownTimes);
    }

    private void keepRunning(TaskInfo info) {
        if (running == null) {
            if (soleRunning == null) {
                soleRunning = runningTasksKept > 0 ? info : null;
                return;
            }
            running = new LinkedHashMap<>();
            running.put(soleRunning.taskId(), soleRunning);
            soleRunning = null;
        }
        if (running.size() < runningTasksKept) {
            running.put(info.taskId(), info);
        }
    }

    private List<TaskRecord> runningTasks() {
        if (soleRunning != null) {
            return List.of(runningRecord(soleRunning));
        }
        if (running == null || running.isEmpty()) {
            return List.of();
        }
        List<TaskRecord> out = new ArrayList<>(running.size());
        for (TaskInfo info : running.values()) {
            out.add(runningRecord(info));
        }
        return out;
    }

    private static TaskRecord runningRecord(TaskInfo info) {
        return TaskRecord.builder().taskId(info.taskId()).index(info.index()).attempt(info.attempt())
                .partitionId(info.partitionId()).executorId(info.executorId()).host(info.host())
                .locality(info.locality()).speculative(info.speculative()).launchTime(info.launchTime())
                .gettingResultTime(info.gettingResultTime()).status("RUNNING").build();
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
