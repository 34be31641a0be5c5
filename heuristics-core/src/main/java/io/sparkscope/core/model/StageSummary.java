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
 * @param keptTasks             the slowest tasks (by duration, up to the recorder's limit) plus every failed one
 * @param endReasons            task end reasons other than Success, with their counts (e.g. ExceptionFailure → 3)
 * @param jobIds                jobs this stage belongs to
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
        Map<String, Integer> endReasons) {

    public StageSummary {
        parentIds = List.copyOf(parentIds);
        jobIds = List.copyOf(jobIds);
        keptTasks = List.copyOf(keptTasks);
        endReasons = Map.copyOf(endReasons);
    }

    /** completion − submission, as Spark's UI shows it; 0 when either is unknown. */
    public long durationMs() {
        return submissionTime > 0 && completionTime > 0 ? Math.max(0, completionTime - submissionTime) : 0;
    }

    public String key() {
        return stageId + "." + attemptId;
    }

    public enum StageStatus { PENDING, ACTIVE, COMPLETE, FAILED, SKIPPED }
}
