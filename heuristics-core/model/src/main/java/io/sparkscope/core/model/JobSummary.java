package io.sparkscope.core.model;

import java.util.List;
import java.util.Map;

/**
 * One job, with Spark's own counts (its REST {@code JobData}).
 *
 * @param completionTime      epoch ms, or -1 while running
 * @param failureReason       null unless failed
 * @param sqlExecutionId      the SQL execution that ran this job, or -1
 * @param numActiveTasks      tasks of its stages running now; -1 when not recorded (stored by an older Sparkscope),
 *                            as for the other counts below
 * @param numCompletedIndices distinct (stage, partition) pairs that succeeded, over all attempts of its stages
 * @param numSkippedTasks     tasks of the stages it did not have to run
 * @param numActiveStages     Spark's running-stage counter (submissions minus completions and skips)
 * @param numCompletedStages  distinct stage ids that completed
 * @param numFailedStages     stage attempts that failed
 * @param killedTasksSummary  killed tasks by reason
 * @param jobTags             the job's tags ({@code spark.job.tags}), sorted
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
        int numSkippedStages,
        int numActiveTasks,
        int numCompletedIndices,
        int numSkippedTasks,
        int numActiveStages,
        int numCompletedStages,
        int numFailedStages,
        Map<String, Integer> killedTasksSummary,
        List<String> jobTags) {

    /** A count the recorder did not keep (a job stored before Spark's job counts were). */
    public static final int NOT_RECORDED = -1;

    public JobSummary {
        stageIds = List.copyOf(stageIds);
        killedTasksSummary = killedTasksSummary == null ? Map.of() : Map.copyOf(killedTasksSummary);
        jobTags = jobTags == null ? List.of() : List.copyOf(jobTags);
    }

    /** Without Spark's further job counts: they read {@link #NOT_RECORDED}. */
    public JobSummary(int jobId, String name, String description, String jobGroup, long submissionTime,
                      long completionTime, JobStatus status, String failureReason, List<Integer> stageIds,
                      long sqlExecutionId, int numTasks, int numCompletedTasks, int numFailedTasks, int numKilledTasks,
                      int numSkippedStages) {
        this(jobId, name, description, jobGroup, submissionTime, completionTime, status, failureReason, stageIds,
                sqlExecutionId, numTasks, numCompletedTasks, numFailedTasks, numKilledTasks, numSkippedStages,
                NOT_RECORDED, NOT_RECORDED, NOT_RECORDED, NOT_RECORDED, NOT_RECORDED, NOT_RECORDED, Map.of(), List.of());
    }

    public long durationMs() {
        return submissionTime > 0 && completionTime > 0 ? Math.max(0, completionTime - submissionTime) : 0;
    }

    public enum JobStatus { RUNNING, SUCCEEDED, FAILED, UNKNOWN }
}
