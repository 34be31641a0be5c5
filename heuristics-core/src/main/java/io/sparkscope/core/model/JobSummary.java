package io.sparkscope.core.model;

import java.util.List;

/**
 * @param completionTime epoch ms, or -1 while running
 * @param failureReason  null unless failed
 * @param sqlExecutionId the SQL execution that ran this job, or -1
 */
public record JobSummary(
        int jobId,
        String name,
        String description,
        String jobGroup,
        long submissionTime,
        long completionTime,
        JobStatus status,
        String failureReason,
        List<Integer> stageIds,
        long sqlExecutionId,
        int numTasks,
        int numCompletedTasks,
        int numFailedTasks,
        int numKilledTasks,
        int numSkippedStages) {

    public JobSummary {
        stageIds = List.copyOf(stageIds);
    }

    public long durationMs() {
        return submissionTime > 0 && completionTime > 0 ? Math.max(0, completionTime - submissionTime) : 0;
    }

    public enum JobStatus { RUNNING, SUCCEEDED, FAILED, UNKNOWN }
}
