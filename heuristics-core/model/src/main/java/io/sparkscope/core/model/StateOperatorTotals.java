package io.sparkscope.core.model;

/**
 * One stateful operator of a query run over all its batches (the batch window may hold only the latest), matched
 * across batches by its position in Spark's {@code stateOperators}. -1 is "not reported".
 *
 * @param batches              batches that reported this operator
 * @param firstRowsTotal       rows in state after the first of them
 * @param lastRowsTotal        rows in state after the latest
 * @param decreases            batches after which the state held fewer rows than after the one before: state that
 *                             never shrinks has 0
 * @param rowsRemoved          rows evicted from state (watermark, timeouts, TTL) over all batches; -1 when Spark does
 *                             not report it (before 3.3)
 * @param rowsDroppedByWatermark input rows the watermark dropped as too late, over all batches
 * @param numShufflePartitions the state's partitions in the latest batch (fixed by the checkpoint), or -1
 */
public record StateOperatorTotals(
        int index,
        String operatorName,
        long batches,
        long firstRowsTotal,
        long lastRowsTotal,
        long maxRowsTotal,
        long decreases,
        long rowsRemoved,
        long rowsDroppedByWatermark,
        long lastMemoryUsedBytes,
        long maxMemoryUsedBytes,
        int numShufflePartitions,
        int numStateStoreInstances) {

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
        b.index = index;
        b.operatorName = operatorName;
        b.batches = batches;
        b.firstRowsTotal = firstRowsTotal;
        b.lastRowsTotal = lastRowsTotal;
        b.maxRowsTotal = maxRowsTotal;
        b.decreases = decreases;
        b.rowsRemoved = rowsRemoved;
        b.rowsDroppedByWatermark = rowsDroppedByWatermark;
        b.lastMemoryUsedBytes = lastMemoryUsedBytes;
        b.maxMemoryUsedBytes = maxMemoryUsedBytes;
        b.numShufflePartitions = numShufflePartitions;
        b.numStateStoreInstances = numStateStoreInstances;
        return b;
    }

    /** Builds a {@link StateOperatorTotals}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private int index;
        private String operatorName;
        private long batches;
        private long firstRowsTotal;
        private long lastRowsTotal;
        private long maxRowsTotal;
        private long decreases;
        private long rowsRemoved;
        private long rowsDroppedByWatermark;
        private long lastMemoryUsedBytes;
        private long maxMemoryUsedBytes;
        private int numShufflePartitions;
        private int numStateStoreInstances;

        private Builder() {
        }

        public Builder index(int index) {
            this.index = index;
            return this;
        }

        public Builder operatorName(String operatorName) {
            this.operatorName = operatorName;
            return this;
        }

        public Builder batches(long batches) {
            this.batches = batches;
            return this;
        }

        public Builder firstRowsTotal(long firstRowsTotal) {
            this.firstRowsTotal = firstRowsTotal;
            return this;
        }

        public Builder lastRowsTotal(long lastRowsTotal) {
            this.lastRowsTotal = lastRowsTotal;
            return this;
        }

        public Builder maxRowsTotal(long maxRowsTotal) {
            this.maxRowsTotal = maxRowsTotal;
            return this;
        }

        public Builder decreases(long decreases) {
            this.decreases = decreases;
            return this;
        }

        public Builder rowsRemoved(long rowsRemoved) {
            this.rowsRemoved = rowsRemoved;
            return this;
        }

        public Builder rowsDroppedByWatermark(long rowsDroppedByWatermark) {
            this.rowsDroppedByWatermark = rowsDroppedByWatermark;
            return this;
        }

        public Builder lastMemoryUsedBytes(long lastMemoryUsedBytes) {
            this.lastMemoryUsedBytes = lastMemoryUsedBytes;
            return this;
        }

        public Builder maxMemoryUsedBytes(long maxMemoryUsedBytes) {
            this.maxMemoryUsedBytes = maxMemoryUsedBytes;
            return this;
        }

        public Builder numShufflePartitions(int numShufflePartitions) {
            this.numShufflePartitions = numShufflePartitions;
            return this;
        }

        public Builder numStateStoreInstances(int numStateStoreInstances) {
            this.numStateStoreInstances = numStateStoreInstances;
            return this;
        }

        public StateOperatorTotals build() {
            return new StateOperatorTotals(index, operatorName, batches, firstRowsTotal, lastRowsTotal, maxRowsTotal,
                    decreases, rowsRemoved, rowsDroppedByWatermark, lastMemoryUsedBytes, maxMemoryUsedBytes,
                    numShufflePartitions, numStateStoreInstances);
        }
    }
}
