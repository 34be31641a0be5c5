package io.sparkscope.core.model;

import io.sparkscope.core.event.OrderedLongMap;
import io.sparkscope.core.event.StreamingProgress;

import java.util.List;
import java.util.Map;

/**
 * One micro-batch of a Structured Streaming query run, from its progress report. -1 is "unknown" throughout
 * (Spark's NaN rates, a sink that does not count its rows, a field an older Spark does not write).
 *
 * @param timestamp              epoch ms at which the trigger started
 * @param durationMs             the trigger's wall time
 * @param inputRowsPerSecond     rows arriving per second: the batch's rows over the time since the previous trigger
 *                               started (Spark's definition)
 * @param processedRowsPerSecond the batch's rows over its own duration
 * @param numOutputRows          rows the sink wrote, or -1
 * @param durationParts          Spark's {@code durationMs}: {@code triggerExecution} (the whole) and its parts
 *                               ({@code addBatch}, {@code getBatch}, {@code queryPlanning}, {@code walCommit},
 *                               {@code latestOffset}, {@code commitOffsets}, …)
 * @param watermark              the event-time watermark in epoch ms (0 until it first advances), or -1 when the
 *                               query defines none
 * @param eventTimeMax           the newest event time in the batch, or -1
 */
public record StreamingBatch(
        long batchId,
        long timestamp,
        long durationMs,
        long numInputRows,
        double inputRowsPerSecond,
        double processedRowsPerSecond,
        long numOutputRows,
        Map<String, Long> durationParts,
        long watermark,
        long eventTimeMax,
        List<StreamingProgress.StateOperator> stateOperators,
        List<StreamingProgress.Source> sources) {

    /** The phase that is the whole trigger rather than a part of it. */
    public static final String WHOLE_TRIGGER = "triggerExecution";

    public StreamingBatch {
        durationParts = OrderedLongMap.of(durationParts, 64);
        stateOperators = stateOperators == null ? List.of() : List.copyOf(stateOperators);
        sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /** Epoch ms at which the batch ended, or -1. */
    public long endTime() {
        return timestamp > 0 && durationMs >= 0 ? timestamp + durationMs : -1;
    }

    /**
     * Whether rows arrived faster than this batch processed them. A batch without an input rate (the first of a run)
     * or without input is never behind.
     */
    public boolean behind() {
        return numInputRows > 0 && inputRowsPerSecond > 0 && processedRowsPerSecond >= 0
                && processedRowsPerSecond < inputRowsPerSecond;
    }

    /** The trigger's time no named part accounts for (never below 0). */
    public long unaccountedMs() {
        long parts = 0;
        for (Map.Entry<String, Long> e : durationParts.entrySet()) {
            if (!e.getKey().equals(WHOLE_TRIGGER)) {
                parts += e.getValue();
            }
        }
        return Math.max(0, durationMs - parts);
    }

    /** Rows held in state by all stateful operators together after this batch, or -1 without any. */
    public long stateRows() {
        long n = -1;
        for (StreamingProgress.StateOperator op : stateOperators) {
            if (op.numRowsTotal() >= 0) {
                n = Math.max(0, n) + op.numRowsTotal();
            }
        }
        return n;
    }

    /** Memory the state stores of all stateful operators use after this batch, or -1 without any. */
    public long stateMemoryBytes() {
        long n = -1;
        for (StreamingProgress.StateOperator op : stateOperators) {
            if (op.memoryUsedBytes() >= 0) {
                n = Math.max(0, n) + op.memoryUsedBytes();
            }
        }
        return n;
    }

    /** Rows the watermark dropped as too late in this batch, over all stateful operators. */
    public long rowsDroppedByWatermark() {
        long n = 0;
        for (StreamingProgress.StateOperator op : stateOperators) {
            n += Math.max(0, op.numRowsDroppedByWatermark());
        }
        return n;
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
        b.batchId = batchId;
        b.timestamp = timestamp;
        b.durationMs = durationMs;
        b.numInputRows = numInputRows;
        b.inputRowsPerSecond = inputRowsPerSecond;
        b.processedRowsPerSecond = processedRowsPerSecond;
        b.numOutputRows = numOutputRows;
        b.durationParts = durationParts;
        b.watermark = watermark;
        b.eventTimeMax = eventTimeMax;
        b.stateOperators = stateOperators;
        b.sources = sources;
        return b;
    }

    /** Builds a {@link StreamingBatch}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private long batchId;
        private long timestamp;
        private long durationMs;
        private long numInputRows;
        private double inputRowsPerSecond;
        private double processedRowsPerSecond;
        private long numOutputRows = -1;
        private Map<String, Long> durationParts = Map.of();
        private long watermark = -1;
        private long eventTimeMax = -1;
        private List<StreamingProgress.StateOperator> stateOperators = List.of();
        private List<StreamingProgress.Source> sources = List.of();

        private Builder() {
        }

        public Builder batchId(long batchId) {
            this.batchId = batchId;
            return this;
        }

        public Builder timestamp(long timestamp) {
            this.timestamp = timestamp;
            return this;
        }

        public Builder durationMs(long durationMs) {
            this.durationMs = durationMs;
            return this;
        }

        public Builder numInputRows(long numInputRows) {
            this.numInputRows = numInputRows;
            return this;
        }

        public Builder inputRowsPerSecond(double inputRowsPerSecond) {
            this.inputRowsPerSecond = inputRowsPerSecond;
            return this;
        }

        public Builder processedRowsPerSecond(double processedRowsPerSecond) {
            this.processedRowsPerSecond = processedRowsPerSecond;
            return this;
        }

        public Builder numOutputRows(long numOutputRows) {
            this.numOutputRows = numOutputRows;
            return this;
        }

        public Builder durationParts(Map<String, Long> durationParts) {
            this.durationParts = durationParts;
            return this;
        }

        public Builder watermark(long watermark) {
            this.watermark = watermark;
            return this;
        }

        public Builder eventTimeMax(long eventTimeMax) {
            this.eventTimeMax = eventTimeMax;
            return this;
        }

        public Builder stateOperators(List<StreamingProgress.StateOperator> stateOperators) {
            this.stateOperators = stateOperators;
            return this;
        }

        public Builder sources(List<StreamingProgress.Source> sources) {
            this.sources = sources;
            return this;
        }

        public StreamingBatch build() {
            return new StreamingBatch(batchId, timestamp, durationMs, numInputRows, inputRowsPerSecond,
                    processedRowsPerSecond, numOutputRows, durationParts, watermark, eventTimeMax, stateOperators,
                    sources);
        }
    }
}
