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
}
