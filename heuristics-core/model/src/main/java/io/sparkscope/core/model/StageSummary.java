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

    /** As the canonical constructor, without tasks still running (a stage without any, or a source that lists none). */
    public StageSummary(int stageId, int attemptId, String name, String details, StageStatus status, int numTasks,
                        int numActiveTasks, int numCompleteTasks, int numFailedTasks, int numKilledTasks,
                        int numCompletedIndices, long submissionTime, long completionTime, long firstTaskLaunchedTime,
                        long lastTaskFinishedTime, String failureReason, List<Integer> parentIds, List<Integer> jobIds,
                        StageTotals totals, TaskDistributions taskSummary, List<TaskRecord> keptTasks,
                        Map<String, Integer> endReasons, TaskDetail taskDetail, TaskTimeSums taskTimes,
                        int numDistinctEndedTasks, int numSpeculativeTasks, int numDuplicateTaskEnds,
                        int numTasksWithUnknownTimes) {
        this(stageId, attemptId, name, details, status, numTasks, numActiveTasks, numCompleteTasks, numFailedTasks,
                numKilledTasks, numCompletedIndices, submissionTime, completionTime, firstTaskLaunchedTime,
                lastTaskFinishedTime, failureReason, parentIds, jobIds, totals, taskSummary, keptTasks, endReasons,
                taskDetail, taskTimes, numDistinctEndedTasks, numSpeculativeTasks, numDuplicateTaskEnds,
                numTasksWithUnknownTimes, List.of());
    }

    /** As the canonical constructor, for stages built without the attempt counts (older callers and stored rows). */
    public StageSummary(int stageId, int attemptId, String name, String details, StageStatus status, int numTasks,
                        int numActiveTasks, int numCompleteTasks, int numFailedTasks, int numKilledTasks,
                        int numCompletedIndices, long submissionTime, long completionTime, long firstTaskLaunchedTime,
                        long lastTaskFinishedTime, String failureReason, List<Integer> parentIds, List<Integer> jobIds,
                        StageTotals totals, TaskDistributions taskSummary, List<TaskRecord> keptTasks,
                        Map<String, Integer> endReasons, TaskDetail taskDetail, TaskTimeSums taskTimes) {
        this(stageId, attemptId, name, details, status, numTasks, numActiveTasks, numCompleteTasks, numFailedTasks,
                numKilledTasks, numCompletedIndices, submissionTime, completionTime, firstTaskLaunchedTime,
                lastTaskFinishedTime, failureReason, parentIds, jobIds, totals, taskSummary, keptTasks, endReasons,
                taskDetail, taskTimes, -1, countKept(keptTasks, TaskRecord::speculative), 0,
                countKept(keptTasks, t -> t.finishTime() > 0 && !t.timesKnown()));
    }

    /** As the canonical constructor, for stages built without task-detail information (tests, older callers). */
    public StageSummary(int stageId, int attemptId, String name, String details, StageStatus status, int numTasks,
                        int numActiveTasks, int numCompleteTasks, int numFailedTasks, int numKilledTasks,
                        int numCompletedIndices, long submissionTime, long completionTime, long firstTaskLaunchedTime,
                        long lastTaskFinishedTime, String failureReason, List<Integer> parentIds, List<Integer> jobIds,
                        StageTotals totals, TaskDistributions taskSummary, List<TaskRecord> keptTasks,
                        Map<String, Integer> endReasons) {
        this(stageId, attemptId, name, details, status, numTasks, numActiveTasks, numCompleteTasks, numFailedTasks,
                numKilledTasks, numCompletedIndices, submissionTime, completionTime, firstTaskLaunchedTime,
                lastTaskFinishedTime, failureReason, parentIds, jobIds, totals, taskSummary, keptTasks, endReasons,
                null, null);
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
        return new StageSummary(stageId, attemptId, name, details, status, numTasks, numActiveTasks, numCompleteTasks,
                numFailedTasks, numKilledTasks, numCompletedIndices, submissionTime, completionTime,
                firstTaskLaunchedTime, lastTaskFinishedTime, failureReason, parentIds, jobIds, totals, taskSummary,
                keptTasks, endReasons, taskDetail, taskTimes, numDistinctEndedTasks, numSpeculativeTasks,
                numDuplicateTaskEnds, numTasksWithUnknownTimes, running);
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
}
