package io.sparkscope.core.recorder;

import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.JobSummary.JobStatus;

import java.util.List;

/** Mutable state of one job while events arrive. */
final class LiveJob extends LiveEntity {
    final int jobId;
    String name = "";
    String description;
    String jobGroup;
    long submissionTime = -1;
    long completionTime = -1;
    JobStatus status = JobStatus.RUNNING;
    /** Set by its first JobEnd: a repeated one changes nothing (Spark forgets a job at its end). */
    boolean ended;
    String failureReason;
    List<Integer> stageIds = List.of();
    long sqlExecutionId = -1;
    /** Tasks of the stages that still had to run when the job started (Spark's job numTasks). */
    int numTasks;
    /**
     * Task counts (completed, failed, killed) and skipped stages of this job's stages that already left the
     * recorder's window: the job's own counts must still include them.
     */
    final int[] countsOfStagesGone = new int[4];

    LiveJob(int jobId) {
        this.jobId = jobId;
    }

    /** The last summary built, reused while neither the job nor its stages' counts changed (asked at every snapshot). */
    private JobSummary cached;
    private long cachedAt = -1;

    JobSummary summary(int completed, int failed, int killed, int skippedStages) {
        JobSummary c = cached;
        if (c != null && cachedAt == lastChange && c.numCompletedTasks() == completed && c.numFailedTasks() == failed
                && c.numKilledTasks() == killed && c.numSkippedStages() == skippedStages) {
            return c;
        }
        cached = new JobSummary(jobId, name, description, jobGroup, submissionTime, completionTime, status,
                failureReason, stageIds, sqlExecutionId, numTasks, completed, failed, killed, skippedStages);
        cachedAt = lastChange;
        return cached;
    }
}
