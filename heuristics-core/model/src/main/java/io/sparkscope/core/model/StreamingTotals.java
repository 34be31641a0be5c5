package io.sparkscope.core.model;

import java.util.List;
import java.util.Map;

/**
 * Running figures of one streaming query run over every batch it reported, so that heuristics and pages stay right
 * however few batches the window keeps ({@link StreamingQuerySummary#recentBatches()}). -1 is "unknown".
 *
 * @param batches                 batches run (progress reports of triggers that ran one)
 * @param idleTriggers            triggers that found no new data (Spark 3.5's idle events, or the earlier no-data
 *                                progress reports)
 * @param firstBatchTime          epoch ms at which the first batch started
 * @param lastBatchEndTime        epoch ms at which the latest batch ended
 * @param outputRows              rows written by the sink, or -1 when the sink never counted
 * @param durationPartsMs         per phase of Spark's {@code durationMs}, the sum over all batches
 * @param behindBatches           batches whose rows arrived faster than they were processed ({@link StreamingBatch#behind})
 * @param longestBehind           the longest run of consecutive such batches
 * @param currentBehind           the run of such batches the latest batch belongs to (empty when it kept up)
 * @param batchesOverTrigger      batches that took longer than the trigger interval, or -1 when the interval is not
 *                                known (or is 0, "as fast as possible")
 * @param rowsDroppedByWatermark  input rows the watermark dropped as too late, over all batches and operators
 * @param batchesDroppingRows     batches in which the watermark dropped rows
 * @param watermarkDefined        whether any batch reported a watermark
 * @param lastWatermark           the latest watermark, epoch ms, or -1
 * @param watermarkAdvances       batches after which the watermark was later than before
 */
public record StreamingTotals(
        long batches,
        long idleTriggers,
        long firstBatchId,
        long lastBatchId,
        long firstBatchTime,
        long lastBatchEndTime,
        long inputRows,
        long outputRows,
        long batchDurationMs,
        long maxBatchDurationMs,
        Map<String, Long> durationPartsMs,
        long behindBatches,
        Streak longestBehind,
        Streak currentBehind,
        long batchesOverTrigger,
        long rowsDroppedByWatermark,
        long batchesDroppingRows,
        boolean watermarkDefined,
        long lastWatermark,
        long watermarkAdvances,
        List<StateOperatorTotals> stateOperators) {

    public static final StreamingTotals EMPTY = new StreamingTotals(0, 0, -1, -1, -1, -1, 0, -1, 0, 0, Map.of(), 0,
            Streak.NONE, Streak.NONE, -1, 0, 0, false, -1, 0, List.of());

    public StreamingTotals {
        durationPartsMs = durationPartsMs == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(durationPartsMs));
        longestBehind = longestBehind == null ? Streak.NONE : longestBehind;
        currentBehind = currentBehind == null ? Streak.NONE : currentBehind;
        stateOperators = stateOperators == null ? List.of() : List.copyOf(stateOperators);
    }

    /** Mean batch duration in ms, or -1 without batches. */
    public double meanBatchDurationMs() {
        return batches == 0 ? -1 : (double) batchDurationMs / batches;
    }

    /** Mean input rows per batch, or -1 without batches. */
    public double meanInputRows() {
        return batches == 0 ? -1 : (double) inputRows / batches;
    }

    /** Input rows over the time batches ran (rows per second of batch time), or -1. */
    public double processedRowsPerSecond() {
        return batchDurationMs <= 0 ? -1 : inputRows * 1000.0 / batchDurationMs;
    }

    /**
     * Consecutive batches that fell behind.
     *
     * @param startTime            epoch ms at which its first batch started
     * @param endTime              epoch ms at which its last batch ended
     * @param inputRowsPerSecondSum     sum of the batches' input rates (for their mean)
     * @param processedRowsPerSecondSum sum of the batches' processing rates
     */
    public record Streak(long batches, long firstBatchId, long startTime, long endTime, double inputRowsPerSecondSum,
                         double processedRowsPerSecondSum) {
        public static final Streak NONE = new Streak(0, -1, -1, -1, 0, 0);

        public long spanMs() {
            return startTime > 0 && endTime >= startTime ? endTime - startTime : 0;
        }

        public double meanInputRowsPerSecond() {
            return batches == 0 ? -1 : inputRowsPerSecondSum / batches;
        }

        public double meanProcessedRowsPerSecond() {
            return batches == 0 ? -1 : processedRowsPerSecondSum / batches;
        }

        /** This streak extended by one batch that fell behind. */
        public Streak plus(StreamingBatch b) {
            return new Streak(batches + 1, batches == 0 ? b.batchId() : firstBatchId,
                    batches == 0 ? b.timestamp() : startTime, b.endTime(),
                    inputRowsPerSecondSum + b.inputRowsPerSecond(), processedRowsPerSecondSum + b.processedRowsPerSecond());
        }
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
        b.batches = batches;
        b.idleTriggers = idleTriggers;
        b.firstBatchId = firstBatchId;
        b.lastBatchId = lastBatchId;
        b.firstBatchTime = firstBatchTime;
        b.lastBatchEndTime = lastBatchEndTime;
        b.inputRows = inputRows;
        b.outputRows = outputRows;
        b.batchDurationMs = batchDurationMs;
        b.maxBatchDurationMs = maxBatchDurationMs;
        b.durationPartsMs = durationPartsMs;
        b.behindBatches = behindBatches;
        b.longestBehind = longestBehind;
        b.currentBehind = currentBehind;
        b.batchesOverTrigger = batchesOverTrigger;
        b.rowsDroppedByWatermark = rowsDroppedByWatermark;
        b.batchesDroppingRows = batchesDroppingRows;
        b.watermarkDefined = watermarkDefined;
        b.lastWatermark = lastWatermark;
        b.watermarkAdvances = watermarkAdvances;
        b.stateOperators = stateOperators;
        return b;
    }

    /** Builds a {@link StreamingTotals}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private long batches;
        private long idleTriggers;
        private long firstBatchId = -1;
        private long lastBatchId = -1;
        private long firstBatchTime = -1;
        private long lastBatchEndTime = -1;
        private long inputRows;
        private long outputRows;
        private long batchDurationMs;
        private long maxBatchDurationMs;
        private Map<String, Long> durationPartsMs = Map.of();
        private long behindBatches = -1;
        private Streak longestBehind = Streak.NONE;
        private Streak currentBehind = Streak.NONE;
        private long batchesOverTrigger = -1;
        private long rowsDroppedByWatermark;
        private long batchesDroppingRows;
        private boolean watermarkDefined;
        private long lastWatermark = -1;
        private long watermarkAdvances;
        private List<StateOperatorTotals> stateOperators = List.of();

        private Builder() {
        }

        public Builder batches(long batches) {
            this.batches = batches;
            return this;
        }

        public Builder idleTriggers(long idleTriggers) {
            this.idleTriggers = idleTriggers;
            return this;
        }

        public Builder firstBatchId(long firstBatchId) {
            this.firstBatchId = firstBatchId;
            return this;
        }

        public Builder lastBatchId(long lastBatchId) {
            this.lastBatchId = lastBatchId;
            return this;
        }

        public Builder firstBatchTime(long firstBatchTime) {
            this.firstBatchTime = firstBatchTime;
            return this;
        }

        public Builder lastBatchEndTime(long lastBatchEndTime) {
            this.lastBatchEndTime = lastBatchEndTime;
            return this;
        }

        public Builder inputRows(long inputRows) {
            this.inputRows = inputRows;
            return this;
        }

        public Builder outputRows(long outputRows) {
            this.outputRows = outputRows;
            return this;
        }

        public Builder batchDurationMs(long batchDurationMs) {
            this.batchDurationMs = batchDurationMs;
            return this;
        }

        public Builder maxBatchDurationMs(long maxBatchDurationMs) {
            this.maxBatchDurationMs = maxBatchDurationMs;
            return this;
        }

        public Builder durationPartsMs(Map<String, Long> durationPartsMs) {
            this.durationPartsMs = durationPartsMs;
            return this;
        }

        public Builder behindBatches(long behindBatches) {
            this.behindBatches = behindBatches;
            return this;
        }

        public Builder longestBehind(Streak longestBehind) {
            this.longestBehind = longestBehind;
            return this;
        }

        public Builder currentBehind(Streak currentBehind) {
            this.currentBehind = currentBehind;
            return this;
        }

        public Builder batchesOverTrigger(long batchesOverTrigger) {
            this.batchesOverTrigger = batchesOverTrigger;
            return this;
        }

        public Builder rowsDroppedByWatermark(long rowsDroppedByWatermark) {
            this.rowsDroppedByWatermark = rowsDroppedByWatermark;
            return this;
        }

        public Builder batchesDroppingRows(long batchesDroppingRows) {
            this.batchesDroppingRows = batchesDroppingRows;
            return this;
        }

        public Builder watermarkDefined(boolean watermarkDefined) {
            this.watermarkDefined = watermarkDefined;
            return this;
        }

        public Builder lastWatermark(long lastWatermark) {
            this.lastWatermark = lastWatermark;
            return this;
        }

        public Builder watermarkAdvances(long watermarkAdvances) {
            this.watermarkAdvances = watermarkAdvances;
            return this;
        }

        public Builder stateOperators(List<StateOperatorTotals> stateOperators) {
            this.stateOperators = stateOperators;
            return this;
        }

        public StreamingTotals build() {
            return new StreamingTotals(batches, idleTriggers, firstBatchId, lastBatchId, firstBatchTime,
                    lastBatchEndTime, inputRows, outputRows, batchDurationMs, maxBatchDurationMs, durationPartsMs,
                    behindBatches, longestBehind, currentBehind, batchesOverTrigger, rowsDroppedByWatermark,
                    batchesDroppingRows, watermarkDefined, lastWatermark, watermarkAdvances, stateOperators);
        }
    }
}
