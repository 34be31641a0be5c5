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

    public long durationMs() {
        return finishTime == 0 ? 0 : finishTime - launchTime;
    }
}
