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
        b.taskId = taskId;
        b.index = index;
        b.attempt = attempt;
        b.partitionId = partitionId;
        b.executorId = executorId;
        b.host = host;
        b.locality = locality;
        b.speculative = speculative;
        b.launchTime = launchTime;
        b.finishTime = finishTime;
        b.gettingResultTime = gettingResultTime;
        b.status = status;
        b.endReason = endReason;
        b.errorMessage = errorMessage;
        b.metrics = metrics;
        b.errorDetail = errorDetail;
        return b;
    }

    /** Builds a {@link TaskRecord}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private long taskId;
        private int index;
        private int attempt;
        private int partitionId;
        private String executorId;
        private String host;
        private String locality;
        private boolean speculative;
        private long launchTime;
        private long finishTime;
        private long gettingResultTime;
        private String status;
        private String endReason;
        private String errorMessage;
        private TaskMetrics metrics;
        private String errorDetail;

        private Builder() {
        }

        public Builder taskId(long taskId) {
            this.taskId = taskId;
            return this;
        }

        public Builder index(int index) {
            this.index = index;
            return this;
        }

        public Builder attempt(int attempt) {
            this.attempt = attempt;
            return this;
        }

        public Builder partitionId(int partitionId) {
            this.partitionId = partitionId;
            return this;
        }

        public Builder executorId(String executorId) {
            this.executorId = executorId;
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder locality(String locality) {
            this.locality = locality;
            return this;
        }

        public Builder speculative(boolean speculative) {
            this.speculative = speculative;
            return this;
        }

        public Builder launchTime(long launchTime) {
            this.launchTime = launchTime;
            return this;
        }

        public Builder finishTime(long finishTime) {
            this.finishTime = finishTime;
            return this;
        }

        public Builder gettingResultTime(long gettingResultTime) {
            this.gettingResultTime = gettingResultTime;
            return this;
        }

        public Builder status(String status) {
            this.status = status;
            return this;
        }

        public Builder endReason(String endReason) {
            this.endReason = endReason;
            return this;
        }

        public Builder errorMessage(String errorMessage) {
            this.errorMessage = errorMessage;
            return this;
        }

        public Builder metrics(TaskMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder errorDetail(String errorDetail) {
            this.errorDetail = errorDetail;
            return this;
        }

        public TaskRecord build() {
            return new TaskRecord(taskId, index, attempt, partitionId, executorId, host, locality, speculative,
                    launchTime, finishTime, gettingResultTime, status, endReason, errorMessage, metrics, errorDetail);
        }
    }
}
