package io.sparkscope.core.model;

import io.sparkscope.core.event.TaskMetrics;

/**
 * One task kept in detail (slowest or failed).
 *
 * @param status       SUCCESS, FAILED, KILLED or RUNNING
 * @param endReason    Spark's end-reason kind ("Success", "ExceptionFailure", …), null while running
 * @param errorMessage the failure description, null on success
 * @param metrics      null when Spark reported none
 * @param errorDetail  Spark's whole error text for a failure that has one (an exception's stack trace, a fetch
 *                     failure's message), at most {@link #MAX_ERROR_DETAIL} characters; null otherwise
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
        TaskMetrics metrics,
        String errorDetail) {

    /** Longer error texts are cut (kept failed tasks hold them in memory: at most 1 000 per stage). */
    public static final int MAX_ERROR_DETAIL = 64 * 1024;

    public TaskRecord {
        if (errorDetail != null && errorDetail.length() > MAX_ERROR_DETAIL) {
            errorDetail = errorDetail.substring(0, MAX_ERROR_DETAIL) + "…[truncated]";
        }
    }

    /** Without the error text. */
    public TaskRecord(long taskId, int index, int attempt, int partitionId, String executorId, String host,
                      String locality, boolean speculative, long launchTime, long finishTime, long gettingResultTime,
                      String status, String endReason, String errorMessage, TaskMetrics metrics) {
        this(taskId, index, attempt, partitionId, executorId, host, locality, speculative, launchTime, finishTime,
                gettingResultTime, status, endReason, errorMessage, metrics, null);
    }

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
