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
}
