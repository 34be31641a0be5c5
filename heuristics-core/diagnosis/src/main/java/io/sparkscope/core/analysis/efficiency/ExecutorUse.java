package io.sparkscope.core.analysis.efficiency;

/**
 * What one executor (or, in local mode, the driver) held and used over its life in the application.
 *
 * @param executorId     Spark's id ("driver" for a local-mode driver)
 * @param cores          cores it held; 0 when unknown (its core figures are then left out)
 * @param lifetimeMs     from its registration (or the application's start) to its removal (or the end)
 * @param taskMs         the time its task slots were busy: Σ task durations × {@code spark.task.cpus}, at most
 *                       {@code lifetimeMs × cores}
 * @param containerBytes memory it held: heap + overhead + off-heap + PySpark memory ({@link ContainerMemory})
 * @param peaks          its memory peaks; {@link MemoryPeaks#NONE} when Spark measured none
 * @param peakUsedBytes  the most of {@code containerBytes} it used: {@link MemoryPeaks#usedBytes()} for an
 *                       executor's container, the heap peak for a local-mode driver (whose allocation is its heap);
 *                       at most {@code containerBytes}; -1 when not measured
 * @param driverAloneMs  part of its lifetime in which no task ran anywhere: the driver worked alone
 */
public record ExecutorUse(String executorId, int cores, long lifetimeMs, long taskMs, long containerBytes,
                          MemoryPeaks peaks, long peakUsedBytes, long driverAloneMs) {

    public double coreMsAllocated() {
        return (double) lifetimeMs * cores;
    }

    public double coreMsUsed() {
        return cores > 0 ? Math.min(coreMsAllocated(), taskMs) : 0;
    }

    public double byteMsAllocated() {
        return (double) lifetimeMs * containerBytes;
    }

    /** Peak used × lifetime; -1 when its memory was not measured. */
    public double byteMsPeakUsed() {
        return peakUsedBytes < 0 ? -1 : (double) lifetimeMs * peakUsedBytes;
    }

    public double coreMsDriverAlone() {
        return (double) driverAloneMs * cores;
    }

    public double byteMsDriverAlone() {
        return (double) driverAloneMs * containerBytes;
    }
}
