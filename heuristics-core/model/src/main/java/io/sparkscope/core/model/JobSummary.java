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

    public long durationMs() {
        return submissionTime > 0 && completionTime > 0 ? Math.max(0, completionTime - submissionTime) : 0;
    }

    public enum JobStatus { RUNNING, SUCCEEDED, FAILED, UNKNOWN }

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
        b.jobId = jobId;
        b.name = name;
        b.description = description;
        b.jobGroup = jobGroup;
        b.submissionTime = submissionTime;
        b.completionTime = completionTime;
        b.status = status;
        b.failureReason = failureReason;
        b.stageIds = stageIds;
        b.sqlExecutionId = sqlExecutionId;
        b.numTasks = numTasks;
        b.numCompletedTasks = numCompletedTasks;
        b.numFailedTasks = numFailedTasks;
        b.numKilledTasks = numKilledTasks;
        b.numSkippedStages = numSkippedStages;
        b.numActiveTasks = numActiveTasks;
        b.numCompletedIndices = numCompletedIndices;
        b.numSkippedTasks = numSkippedTasks;
        b.numActiveStages = numActiveStages;
        b.numCompletedStages = numCompletedStages;
        b.numFailedStages = numFailedStages;
        b.killedTasksSummary = killedTasksSummary;
        b.jobTags = jobTags;
        return b;
    }

    /** Builds a {@link JobSummary}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private int jobId;
        private String name;
        private String description;
        private String jobGroup;
        private long submissionTime;
        private long completionTime = -1;
        private JobStatus status;
        private String failureReason;
        private List<Integer> stageIds = List.of();
        private long sqlExecutionId = -1;
        private int numTasks;
        private int numCompletedTasks;
        private int numFailedTasks;
        private int numKilledTasks;
        private int numSkippedStages;
        private int numActiveTasks = NOT_RECORDED;
        private int numCompletedIndices = NOT_RECORDED;
        private int numSkippedTasks = NOT_RECORDED;
        private int numActiveStages = NOT_RECORDED;
        private int numCompletedStages = NOT_RECORDED;
        private int numFailedStages = NOT_RECORDED;
        private Map<String, Integer> killedTasksSummary = Map.of();
        private List<String> jobTags = List.of();

        private Builder() {
        }

        public Builder jobId(int jobId) {
            this.jobId = jobId;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public Builder jobGroup(String jobGroup) {
            this.jobGroup = jobGroup;
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

        public Builder status(JobStatus status) {
            this.status = status;
            return this;
        }

        public Builder failureReason(String failureReason) {
            this.failureReason = failureReason;
            return this;
        }

        public Builder stageIds(List<Integer> stageIds) {
            this.stageIds = stageIds;
            return this;
        }

        public Builder sqlExecutionId(long sqlExecutionId) {
            this.sqlExecutionId = sqlExecutionId;
            return this;
        }

        public Builder numTasks(int numTasks) {
            this.numTasks = numTasks;
            return this;
        }

        public Builder numCompletedTasks(int numCompletedTasks) {
            this.numCompletedTasks = numCompletedTasks;
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

        public Builder numSkippedStages(int numSkippedStages) {
            this.numSkippedStages = numSkippedStages;
            return this;
        }

        public Builder numActiveTasks(int numActiveTasks) {
            this.numActiveTasks = numActiveTasks;
            return this;
        }

        public Builder numCompletedIndices(int numCompletedIndices) {
            this.numCompletedIndices = numCompletedIndices;
            return this;
        }

        public Builder numSkippedTasks(int numSkippedTasks) {
            this.numSkippedTasks = numSkippedTasks;
            return this;
        }

        public Builder numActiveStages(int numActiveStages) {
            this.numActiveStages = numActiveStages;
            return this;
        }

        public Builder numCompletedStages(int numCompletedStages) {
            this.numCompletedStages = numCompletedStages;
            return this;
        }

        public Builder numFailedStages(int numFailedStages) {
            this.numFailedStages = numFailedStages;
            return this;
        }

        public Builder killedTasksSummary(Map<String, Integer> killedTasksSummary) {
            this.killedTasksSummary = killedTasksSummary;
            return this;
        }

        public Builder jobTags(List<String> jobTags) {
            this.jobTags = jobTags;
            return this;
        }

        public JobSummary build() {
            return new JobSummary(jobId, name, description, jobGroup, submissionTime, completionTime, status,
                    failureReason, stageIds, sqlExecutionId, numTasks, numCompletedTasks, numFailedTasks,
                    numKilledTasks, numSkippedStages, numActiveTasks, numCompletedIndices, numSkippedTasks,
                    numActiveStages, numCompletedStages, numFailedStages, killedTasksSummary, jobTags);
        }
    }
}
