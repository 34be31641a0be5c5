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
}
