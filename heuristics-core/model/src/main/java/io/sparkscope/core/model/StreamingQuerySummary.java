package io.sparkscope.core.model;

import java.util.List;

/**
 * One run of a Structured Streaming query: Spark's {@code queryId} stays the same across restarts from one
 * checkpoint, each start has a new {@code runId}. Its lifecycle, the trigger where known, running totals over every
 * batch ({@link StreamingTotals}) and the most recent batches themselves, at most the recorder's
 * {@code streaming.batchesPerQuery}.
 *
 * @param name              the query's name, or null
 * @param startTime         epoch ms of its start event, or -1 (a run first seen by a progress report)
 * @param endTime           epoch ms at which it was seen terminating (the newest event time then), or -1
 * @param exception         the error that ended it, null unless {@link Status#FAILED}
 * @param errorClass        Spark's error class of that error (3.5+), or null
 * @param triggerKind       {@code ProcessingTime}, {@code AvailableNow}, {@code Once}, {@code Continuous}; null when
 *                          not known (event logs do not carry it)
 * @param triggerIntervalMs the trigger interval, 0 for "as fast as possible", -1 when unknown or not applicable
 * @param sinkDescription   the sink as Spark describes it (latest report), or null
 * @param lastProgressTime  epoch ms of the latest progress or idle report, or -1
 * @param recentBatches     the latest batches, oldest first
 */
public record StreamingQuerySummary(
        String queryId,
        String runId,
        String name,
        long startTime,
        long endTime,
        Status status,
        String exception,
        String errorClass,
        String triggerKind,
        long triggerIntervalMs,
        String sinkDescription,
        long lastProgressTime,
        StreamingTotals totals,
        List<StreamingBatch> recentBatches) {

    public enum Status { RUNNING, STOPPED, FAILED }

    public StreamingQuerySummary {
        status = status == null ? Status.RUNNING : status;
        totals = totals == null ? StreamingTotals.EMPTY : totals;
        recentBatches = recentBatches == null ? List.of() : List.copyOf(recentBatches);
    }

    /** The name, else the query id: what a page calls the query. */
    public String label() {
        return name == null || name.isBlank() ? queryId : name;
    }

    /** Batches reported but no longer in {@link #recentBatches()}. */
    public long batchesNotKept() {
        return Math.max(0, totals.batches() - recentBatches.size());
    }

    /** The newest batch kept, or null. */
    public StreamingBatch lastBatch() {
        return recentBatches.isEmpty() ? null : recentBatches.get(recentBatches.size() - 1);
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
        b.queryId = queryId;
        b.runId = runId;
        b.name = name;
        b.startTime = startTime;
        b.endTime = endTime;
        b.status = status;
        b.exception = exception;
        b.errorClass = errorClass;
        b.triggerKind = triggerKind;
        b.triggerIntervalMs = triggerIntervalMs;
        b.sinkDescription = sinkDescription;
        b.lastProgressTime = lastProgressTime;
        b.totals = totals;
        b.recentBatches = recentBatches;
        return b;
    }

    /** Builds a {@link StreamingQuerySummary}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private String queryId;
        private String runId;
        private String name;
        private long startTime = -1;
        private long endTime = -1;
        private Status status = Status.RUNNING;
        private String exception;
        private String errorClass;
        private String triggerKind;
        private long triggerIntervalMs = -1;
        private String sinkDescription;
        private long lastProgressTime = -1;
        private StreamingTotals totals = StreamingTotals.EMPTY;
        private List<StreamingBatch> recentBatches = List.of();

        private Builder() {
        }

        public Builder queryId(String queryId) {
            this.queryId = queryId;
            return this;
        }

        public Builder runId(String runId) {
            this.runId = runId;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder startTime(long startTime) {
            this.startTime = startTime;
            return this;
        }

        public Builder endTime(long endTime) {
            this.endTime = endTime;
            return this;
        }

        public Builder status(Status status) {
            this.status = status;
            return this;
        }

        public Builder exception(String exception) {
            this.exception = exception;
            return this;
        }

        public Builder errorClass(String errorClass) {
            this.errorClass = errorClass;
            return this;
        }

        public Builder triggerKind(String triggerKind) {
            this.triggerKind = triggerKind;
            return this;
        }

        public Builder triggerIntervalMs(long triggerIntervalMs) {
            this.triggerIntervalMs = triggerIntervalMs;
            return this;
        }

        public Builder sinkDescription(String sinkDescription) {
            this.sinkDescription = sinkDescription;
            return this;
        }

        public Builder lastProgressTime(long lastProgressTime) {
            this.lastProgressTime = lastProgressTime;
            return this;
        }

        public Builder totals(StreamingTotals totals) {
            this.totals = totals;
            return this;
        }

        public Builder recentBatches(List<StreamingBatch> recentBatches) {
            this.recentBatches = recentBatches;
            return this;
        }

        public StreamingQuerySummary build() {
            return new StreamingQuerySummary(queryId, runId, name, startTime, endTime, status, exception, errorClass,
                    triggerKind, triggerIntervalMs, sinkDescription, lastProgressTime, totals, recentBatches);
        }
    }
}
