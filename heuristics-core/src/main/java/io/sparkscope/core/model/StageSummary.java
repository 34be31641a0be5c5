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
        TaskTimeSums taskTimes) {

    public StageSummary {
        parentIds = List.copyOf(parentIds);
        jobIds = List.copyOf(jobIds);
        keptTasks = List.copyOf(keptTasks);
        endReasons = Map.copyOf(endReasons);
        if (taskDetail == null) {
            taskDetail = keptTasks.size() < (long) numCompleteTasks + numFailedTasks + numKilledTasks
                    ? TaskDetail.SLOWEST : TaskDetail.ALL;
        }
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

    /** Task-end events of this attempt (successful, failed and killed): what {@code keptTasks} was chosen from. */
    public long endedTasks() {
        return (long) numCompleteTasks + numFailedTasks + numKilledTasks;
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
