package io.sparkscope.core.model;

import java.util.List;
import java.util.Map;

/**
 * One stage attempt: Spark's REST {@code StageData} counts and totals, its task-metric distribution and the tasks
 * kept for detail.
 *
 * @param submissionTime        epoch ms, or -1 when never submitted (skipped)
 * @param completionTime        epoch ms, or -1 while running
 * @param firstTaskLaunchedTime earliest task launch, or -1 without tasks
 * @param lastTaskFinishedTime  latest task finish, or -1 without finished tasks
 * @param totals                sums over all task-end events, failed and killed tasks included (as Spark)
 * @param taskSummary           quantiles over successful tasks with metrics (as Spark), null when there are none
 * @param keptTasks             tasks kept in detail, slowest first, then the failed ones: every ended task up to the
 *                              recorder's per-stage cap, past it a selection that {@code taskDetail} names
 * @param endReasons            task end reasons other than Success, with their counts (e.g. ExceptionFailure → 3)
 * @param jobIds                jobs this stage belongs to
 * @param taskDetail            which of the ended tasks {@code keptTasks} holds besides the failed ones; null is read
 *                              as {@link TaskDetail#ALL} when every ended task is kept, else {@link TaskDetail#SLOWEST}
 *                              (what recorders before the cap kept: snapshots spooled or stored by them)
 * @param taskTimes             sums of the derived task times, null when unknown (stored by an older version)
 * @param numDistinctEndedTasks task attempts (distinct task ids) that ended. Spark's three counts above count
 *                              task-end <em>events</em>, and one task id can end twice: Spark reports a finished
 *                              shuffle-map task a second time, as "Resubmitted", when the executor holding its output
 *                              is lost (see {@link #numResubmittedTasks()}), and a damaged log can repeat a line
 *                              ({@code numDuplicateTaskEnds}). Those repeats are counted as Spark counts them but add
 *                              no task here, no metrics and no kept record. Built without it (older snapshots and
 *                              rows): the end events less the Resubmitted ones
 * @param numSpeculativeTasks   ended task attempts that Spark launched as speculative copies of a slow task (a copy
 *                              has its own task id and the same index). Built without it: those in
 *                              {@code keptTasks}
 * @param numDuplicateTaskEnds  task-end events repeating an already ended task id other than Resubmitted ones (a
 *                              duplicated line): in Spark's counts, in nothing else. Built without it: 0
 * @param numTasksWithUnknownTimes ended task attempts whose launch or finish time was unset or impossible
 *                              ({@link TaskTimes}): left out of the duration sums and the duration, scheduler-delay and
 *                              getting-result quantiles. Built without it: those in {@code keptTasks}
 * @param runningTasks          task attempts started and not ended (status RUNNING, no metrics), as Spark's task list
 *                              shows them; at most the recorder's per-stage cap of kept tasks. Apart from
 *                              {@code keptTasks}, which holds ended tasks only
 */
public record StageSummary(
        int stageId,
        int attemptId,
        String name,
        String details,
        StageStatus status,
        int numTasks,
        int numActiveTasks,
        int numCompleteTasks,
        int numFailedTasks,
        int numKilledTasks,
        int numCompletedIndices,
        long submissionTime,
        long completionTime,
        long firstTaskLaunchedTime,
        long lastTaskFinishedTime,
        String failureReason,
        List<Integer> parentIds,
        List<Integer> jobIds,
        StageTotals totals,
        TaskDistributions taskSummary,
        List<TaskRecord> keptTasks,
        Map<String, Integer> endReasons,
        TaskDetail taskDetail,
        TaskTimeSums taskTimes,
        int numDistinctEndedTasks,
        int numSpeculativeTasks,
        int numDuplicateTaskEnds,
        int numTasksWithUnknownTimes,
        List<TaskRecord> runningTasks) {

    /** Spark's end reason of a task reported again because its finished output was lost with its executor. */
    public static final String RESUBMITTED = "Resubmitted";

    public StageSummary {
        parentIds = List.copyOf(parentIds);
        jobIds = List.copyOf(jobIds);
        keptTasks = List.copyOf(keptTasks);
        runningTasks = runningTasks == null ? List.of() : List.copyOf(runningTasks);
        endReasons = Map.copyOf(endReasons);
        long endEvents = (long) numCompleteTasks + numFailedTasks + numKilledTasks;
        // 0 with task ends is what a snapshot written before this count existed deserializes to: unknown.
        if (numDistinctEndedTasks < 0 || (numDistinctEndedTasks == 0 && endEvents > 0)) {
            long resubmitted = endReasons.getOrDefault(RESUBMITTED, 0);
            numDistinctEndedTasks = (int) Math.min(Integer.MAX_VALUE,
                    Math.max(endEvents > 0 ? 1 : 0, endEvents - resubmitted - Math.max(0, numDuplicateTaskEnds)));
        }
        if (taskDetail == null) {
            taskDetail = keptTasks.size() < numDistinctEndedTasks ? TaskDetail.SLOWEST : TaskDetail.ALL;
        }
    }

    private static int countKept(List<TaskRecord> tasks, java.util.function.Predicate<TaskRecord> which) {
        int n = 0;
        for (TaskRecord t : tasks) {
            if (which.test(t)) {
                n++;
            }
        }
        return n;
    }

    /** Task attempts of this stage attempt that ended (each task id once): what {@code keptTasks} was chosen from. */
    public long endedTasks() {
        return numDistinctEndedTasks;
    }

    /**
     * Task-end events as Spark counts them: successful + failed + killed. More than {@link #endedTasks()} when a task
     * id ended twice (Resubmitted, or a repeated line).
     */
    public long taskEndEvents() {
        return (long) numCompleteTasks + numFailedTasks + numKilledTasks;
    }

    /**
     * Task-end events with Spark's reason "Resubmitted": a task that had finished was reported again because the
     * executor holding its shuffle output was lost, so the partition had to run again (under a new task id). Spark
     * counts these in {@code numFailedTasks}.
     */
    public int numResubmittedTasks() {
        return endReasons.getOrDefault(RESUBMITTED, 0);
    }

    /**
     * Failed task-end events other than Resubmitted ones: attempts that really failed while running. A repeated line
     * ({@code numDuplicateTaskEnds}) counts again, as in Spark, but never beyond the attempts that ended.
     */
    public int numFailedAttempts() {
        return (int) Math.min(numDistinctEndedTasks, Math.max(0, numFailedTasks - numResubmittedTasks()));
    }

    /** The same stage with these tasks still running. */
    public StageSummary withRunningTasks(List<TaskRecord> running) {
        return toBuilder().runningTasks(running).build();
    }

    /** The tasks Spark's task list shows: the kept ended ones, then those still running. */
    public List<TaskRecord> listedTasks() {
        if (runningTasks.isEmpty()) {
            return keptTasks;
        }
        List<TaskRecord> all = new java.util.ArrayList<>(keptTasks.size() + runningTasks.size());
        all.addAll(keptTasks);
        all.addAll(runningTasks);
        return all;
    }

    /** Whether some ended tasks are not in {@code keptTasks}. */
    public boolean tasksSampled() {
        return keptTasks.size() < endedTasks();
    }

    /** completion − submission, as Spark's UI shows it; 0 when either is unknown. */
    public long durationMs() {
        return submissionTime > 0 && completionTime > 0 ? Math.max(0, completionTime - submissionTime) : 0;
    }

    public String key() {
        return stageId + "." + attemptId;
    }

    public enum StageStatus { PENDING, ACTIVE, COMPLETE, FAILED, SKIPPED }

    /** Which successful and killed tasks a stage attempt kept in detail (failed ones are kept besides, up to a limit). */
    public enum TaskDetail {
        /** Every one (the attempt stayed within the recorder's per-stage cap). */
        ALL,
        /** Past the cap: the slowest half of the cap, and a uniform random sample of the others for the other half. */
        SAMPLED,
        /** Only the slowest (the application exceeded the recorder's task-detail budget, or an older recorder). */
        SLOWEST
    }

    /**
     * A builder with every value at its default (empty lists and maps, 0, -1 for times and counts that read -1 as
     * unknown, null where the record allows it), so a caller sets only what it knows and a value added later
     * changes no caller.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's values, to build a copy with a few of them changed. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.stageId = stageId;
        b.attemptId = attemptId;
        b.name = name;
        b.details = details;
        b.status = status;
        b.numTasks = numTasks;
        b.numActiveTasks = numActiveTasks;
        b.numCompleteTasks = numCompleteTasks;
        b.numFailedTasks = numFailedTasks;
        b.numKilledTasks = numKilledTasks;
        b.numCompletedIndices = numCompletedIndices;
        b.submissionTime = submissionTime;
        b.completionTime = completionTime;
        b.firstTaskLaunchedTime = firstTaskLaunchedTime;
        b.lastTaskFinishedTime = lastTaskFinishedTime;
        b.failureReason = failureReason;
        b.parentIds = parentIds;
        b.jobIds = jobIds;
        b.totals = totals;
        b.taskSummary = taskSummary;
        b.keptTasks = keptTasks;
        b.endReasons = endReasons;
        b.taskDetail = taskDetail;
        b.taskTimes = taskTimes;
        b.numDistinctEndedTasks = numDistinctEndedTasks;
        b.numSpeculativeTasks = numSpeculativeTasks;
        b.numDuplicateTaskEnds = numDuplicateTaskEnds;
        b.numTasksWithUnknownTimes = numTasksWithUnknownTimes;
        b.runningTasks = runningTasks;
        return b;
    }

    /** Builds a {@link StageSummary}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private int stageId;
        private int attemptId;
        private String name;
        private String details;
        private StageStatus status;
        private int numTasks;
        private int numActiveTasks;
        private int numCompleteTasks;
        private int numFailedTasks;
        private int numKilledTasks;
        private int numCompletedIndices;
        private long submissionTime = -1;
        private long completionTime = -1;
        private long firstTaskLaunchedTime = -1;
        private long lastTaskFinishedTime = -1;
        private String failureReason;
        private List<Integer> parentIds = List.of();
        private List<Integer> jobIds = List.of();
        private StageTotals totals = StageTotals.zero();
        private TaskDistributions taskSummary;
        private List<TaskRecord> keptTasks = List.of();
        private Map<String, Integer> endReasons = Map.of();
        private TaskDetail taskDetail;
        private TaskTimeSums taskTimes;
        private int numDistinctEndedTasks = -1;
        private Integer numSpeculativeTasks; // null: counted from keptTasks in build()
        private int numDuplicateTaskEnds;
        private Integer numTasksWithUnknownTimes; // null: counted from keptTasks in build()
        private List<TaskRecord> runningTasks = List.of();

        private Builder() {
        }

        public Builder stageId(int stageId) {
            this.stageId = stageId;
            return this;
        }

        public Builder attemptId(int attemptId) {
            this.attemptId = attemptId;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder details(String details) {
            this.details = details;
            return this;
        }

        public Builder status(StageStatus status) {
            this.status = status;
            return this;
        }

        public Builder numTasks(int numTasks) {
            this.numTasks = numTasks;
            return this;
        }

        public Builder numActiveTasks(int numActiveTasks) {
            this.numActiveTasks = numActiveTasks;
            return this;
        }

        public Builder numCompleteTasks(int numCompleteTasks) {
            this.numCompleteTasks = numCompleteTasks;
            return this;
        }

        public Builder numFailedTasks(int numFailedTasks) {
            this.numFailedTasks = numFailedTasks;
            return this;
        }

        public Builder numKilledTasks(int numKilledTasks) {
            this.numKilledTasks = numKilledTasks;
            return this;
        }

        public Builder numCompletedIndices(int numCompletedIndices) {
            this.numCompletedIndices = numCompletedIndices;
            return this;
        }

        public Builder submissionTime(long submissionTime) {
            this.submissionTime = submissionTime;
            return this;
        }

        public Builder completionTime(long completionTime) {
            this.completionTime = completionTime;
            return this;
        }

        public Builder firstTaskLaunchedTime(long firstTaskLaunchedTime) {
            this.firstTaskLaunchedTime = firstTaskLaunchedTime;
            return this;
        }

        public Builder lastTaskFinishedTime(long lastTaskFinishedTime) {
            this.lastTaskFinishedTime = lastTaskFinishedTime;
            return this;
        }

        public Builder failureReason(String failureReason) {
            this.failureReason = failureReason;
            return this;
        }

        public Builder parentIds(List<Integer> parentIds) {
            this.parentIds = parentIds;
            return this;
        }

        public Builder jobIds(List<Integer> jobIds) {
            this.jobIds = jobIds;
            return this;
        }

        public Builder totals(StageTotals totals) {
            this.totals = totals;
            return this;
        }

        public Builder taskSummary(TaskDistributions taskSummary) {
            this.taskSummary = taskSummary;
            return this;
        }

        public Builder keptTasks(List<TaskRecord> keptTasks) {
            this.keptTasks = keptTasks;
            return this;
        }

        public Builder endReasons(Map<String, Integer> endReasons) {
            this.endReasons = endReasons;
            return this;
        }

        public Builder taskDetail(TaskDetail taskDetail) {
            this.taskDetail = taskDetail;
            return this;
        }

        public Builder taskTimes(TaskTimeSums taskTimes) {
            this.taskTimes = taskTimes;
            return this;
        }

        public Builder numDistinctEndedTasks(int numDistinctEndedTasks) {
            this.numDistinctEndedTasks = numDistinctEndedTasks;
            return this;
        }

        public Builder numSpeculativeTasks(int numSpeculativeTasks) {
            this.numSpeculativeTasks = numSpeculativeTasks;
            return this;
        }

        public Builder numDuplicateTaskEnds(int numDuplicateTaskEnds) {
            this.numDuplicateTaskEnds = numDuplicateTaskEnds;
            return this;
        }

        public Builder numTasksWithUnknownTimes(int numTasksWithUnknownTimes) {
            this.numTasksWithUnknownTimes = numTasksWithUnknownTimes;
            return this;
        }

        public Builder runningTasks(List<TaskRecord> runningTasks) {
            this.runningTasks = runningTasks;
            return this;
        }

        /**
         * Leaves the task-attempt counts to {@link #build()}, which derives them from Spark's counts and the kept tasks
         * as for a source that records none (the defaults): for a copy whose kept tasks were replaced.
         */
        public Builder deriveTaskCounts() {
            numDistinctEndedTasks = -1;
            numSpeculativeTasks = null;
            numDuplicateTaskEnds = 0;
            numTasksWithUnknownTimes = null;
            return this;
        }

        public StageSummary build() {
            // Left unset (a source that does not count them): what the kept tasks alone give.
            int speculative = numSpeculativeTasks != null ? numSpeculativeTasks
                    : countKept(keptTasks, TaskRecord::speculative);
            int unknownTimes = numTasksWithUnknownTimes != null ? numTasksWithUnknownTimes
                    : countKept(keptTasks, t -> t.finishTime() > 0 && !t.timesKnown());
            return new StageSummary(stageId, attemptId, name, details, status, numTasks, numActiveTasks,
                    numCompleteTasks, numFailedTasks, numKilledTasks, numCompletedIndices, submissionTime,
                    completionTime, firstTaskLaunchedTime, lastTaskFinishedTime, failureReason, parentIds, jobIds,
                    totals, taskSummary, keptTasks, endReasons, taskDetail, taskTimes, numDistinctEndedTasks,
                    speculative, numDuplicateTaskEnds, unknownTimes, runningTasks);
        }
    }
}
