package io.sparkscope.core.recorder;

import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.JobSummary.JobStatus;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Mutable state of one job while events arrive, with the counts Spark's {@code AppStatusListener} keeps per job
 * (its REST {@code JobData}): task ends of the stage attempts the job counts in ({@link LiveStage#countingJobs}),
 * stage submissions, completions and skips. Every change to these counts drops the cached summary; the recorder marks
 * the job changed ({@link LiveEntity}) on the same events.
 */
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
    List<String> jobTags = List.of();

    int activeTasks;
    int completedTasks;
    int failedTasks;
    int killedTasks;
    /**
     * (stage id, partition) pairs that succeeded, until the job has ended and its stage attempts have closed; then
     * only their count is kept ({@link #settle}).
     */
    private SparseBits completedIndices = new SparseBits();
    private int completedIndexCount;
    int activeStages;
    final Set<Integer> completedStages = new HashSet<>();
    final Set<Integer> skippedStages = new HashSet<>();
    int skippedTasks;
    int failedStages;
    final Map<String, Integer> killedSummary = new TreeMap<>();

    LiveJob(int jobId) {
        this.jobId = jobId;
    }

    void taskStarted() {
        cached = null;
        activeTasks++;
    }

    /**
     * As Spark: every end counts (a Resubmitted one as failed), a success marks its stage's partition completed, a
     * kill is summed by its reason. Unlike Spark the running count never goes below zero.
     */
    void taskEnded(int stageId, int index, TaskEndReason reason) {
        cached = null;
        activeTasks = Math.max(0, activeTasks - 1);
        if (reason.isSuccess()) {
            completedTasks++;
            if (completedIndices != null && completedIndices.add(((long) stageId << Integer.SIZE) | (index & 0xffffffffL))) {
                completedIndexCount++;
            }
        } else if (reason.isKilled()) {
            killedTasks++;
            killedSummary.merge(reason.description() == null ? reason.kind() : reason.description(), 1, Integer::sum);
        } else {
            failedTasks++;
        }
    }

    void stageSubmitted(int stageId) {
        cached = null;
        completedStages.remove(stageId);
        activeStages++;
    }

    /** @param submitted false: a stage that completed without ever being submitted, which Spark counts as skipped */
    void stageCompleted(int stageId, boolean failed, boolean submitted, int stageTasks) {
        cached = null;
        if (failed) {
            failedStages++;
        } else if (submitted) {
            completedStages.add(stageId);
        } else {
            skippedStages.add(stageId);
            skippedTasks += stageTasks;
        }
        activeStages--;
    }

    /**
     * A stage still pending when the job ended: skipped. Spark before 3.4 also took one off the job's running-stage
     * count here, though a pending stage was never counted in it, so that such a job showed -1 running stages; from
     * 3.4 on the count moves only when a stage is submitted or completes.
     */
    void stageSkipped(int stageId, int stageTasks, boolean olderSparkActiveStages) {
        cached = null;
        skippedStages.add(stageId);
        skippedTasks += stageTasks;
        if (olderSparkActiveStages) {
            activeStages--;
        }
    }

    /** Whether the completed (stage, partition) set has been reduced to its count. */
    boolean settled() {
        return completedIndices == null;
    }

    /** The job has ended and none of its stage attempts can count a task any more: keep only the index count. */
    void settle() {
        cached = null;
        completedIndices = null;
    }

    /**
     * The last summary built, reused while the job did not change: every snapshot asks for every retained job, and
     * most of them ended long ago.
     */
    private JobSummary cached;
    private long cachedAt = -1;

    JobSummary summary() {
        if (cached != null && cachedAt == lastChange) {
            return cached;
        }
        cachedAt = lastChange;
        return cached = JobSummary.builder().jobId(jobId).name(name).description(description).jobGroup(jobGroup)
                .submissionTime(submissionTime).completionTime(completionTime).status(status)
                .failureReason(failureReason).stageIds(stageIds).sqlExecutionId(sqlExecutionId).numTasks(numTasks)
                .numCompletedTasks(completedTasks).numFailedTasks(failedTasks).numKilledTasks(killedTasks)
                .numSkippedStages(skippedStages.size()).numActiveTasks(activeTasks)
                .numCompletedIndices(completedIndexCount).numSkippedTasks(skippedTasks).numActiveStages(activeStages)
                .numCompletedStages(completedStages.size()).numFailedStages(failedStages)
                .killedTasksSummary(killedSummary).jobTags(jobTags).build();
    }
}
