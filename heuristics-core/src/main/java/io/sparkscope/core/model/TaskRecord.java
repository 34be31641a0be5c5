package io.sparkscope.core.model;

import io.sparkscope.core.event.TaskMetrics;

/**
 * One task kept in detail (slowest or failed).
 *
 * @param status       SUCCESS, FAILED, KILLED or RUNNING
 * @param endReason    Spark's end-reason kind ("Success", "ExceptionFailure", …), null while running
 * @param errorMessage the failure description, null on success
 * @param metrics      null when Spark reported none
 */
public record TaskRecord(
        long taskId,
        int index,
        int attempt,
        int partitionId,
        String executorId,
        String host,
        String locality,
        boolean speculative,
        long launchTime,
        long finishTime,
        long gettingResultTime,
        String status,
        String endReason,
        String errorMessage,
        TaskMetrics metrics) {

    /**
     * {@code finishTime − launchTime}; 0 while running and when the timestamps are unset or impossible
     * ({@link #timesKnown()} tells which), so an unknown span never counts as a long task.
     */
    public long durationMs() {
        return Math.max(0, TaskTimes.duration(launchTime, finishTime));
    }

    /** Whether the task finished with launch and finish times that give a plausible span ({@link TaskTimes}). */
    public boolean timesKnown() {
        return TaskTimes.known(launchTime, finishTime);
    }
}
