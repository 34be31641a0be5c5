package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.event.TaskMetrics;


/**
 * The memory one executor holds from the cluster manager, by the application's settings and Spark's effective
 * defaults for its version: the heap, the overhead (set, else max(minimum, factor × heap)), Spark's off-heap memory
 * when enabled (in the container since Spark 3.0) and the PySpark workers' memory when set (2.4+).
 *
 * @param heapBytes     {@code spark.executor.memory} (Spark's default 1g)
 * @param overheadBytes {@code spark.executor.memoryOverhead}, else max(384 MiB (4.0+: {@code
 *                      spark.executor.minMemoryOverhead}), {@code spark.executor.memoryOverheadFactor} (3.3+), else on Kubernetes
 *                      {@code spark.kubernetes.memoryOverheadFactor} × heap, default 0.10 (0.40 for Python and R
 *                      jobs on Kubernetes); see {@link SparkSettings#overheadBytes})
 * @param offHeapBytes  {@code spark.memory.offHeap.size} when {@code spark.memory.offHeap.enabled=true}, else 0
 * @param pysparkBytes  {@code spark.executor.pyspark.memory} when set, else 0
 */
public record ContainerMemory(long heapBytes, long overheadBytes, long offHeapBytes, long pysparkBytes) {

    public long totalBytes() {
        long t = TaskMetrics.saturatingAdd(heapBytes, overheadBytes);
        return TaskMetrics.saturatingAdd(TaskMetrics.saturatingAdd(t, offHeapBytes), pysparkBytes);
    }

    /** An executor's container. */
    public static ContainerMemory executor(SparkSettings conf) {
        return executorWithHeap(conf, conf.executorMemoryBytes());
    }

    /** An executor's container if {@code spark.executor.memory} were {@code heapBytes}, other settings unchanged. */
    public static ContainerMemory executorWithHeap(SparkSettings conf, long heapBytes) {
        return new ContainerMemory(heapBytes, overhead(conf, "spark.executor", heapBytes), offHeap(conf),
                conf.size("spark.executor.pyspark.memory", Units.MiB).orElse(0));
    }

    /**
     * The driver: in local mode one JVM whose heap is the whole allocation (no container, no overhead); in cluster
     * deploy mode a container sized like an executor's from the {@code spark.driver.*} settings.
     *
     * @param localHeapBytes the local JVM's heap when known otherwise (from its block manager), else -1
     */
    public static ContainerMemory driver(SparkSettings conf, long localHeapBytes) {
        if (conf.isLocal()) {
            long heap = conf.isSet("spark.driver.memory") || localHeapBytes <= 0 ? conf.driverMemoryBytes()
                    : localHeapBytes;
            return new ContainerMemory(heap, 0, 0, 0);
        }
        long heap = conf.driverMemoryBytes();
        return new ContainerMemory(heap, overhead(conf, "spark.driver", heap), offHeap(conf), 0);
    }

    /**
     * The heap of a local-mode driver from its block manager's storage memory, inverting Spark's unified memory
     * rule (storage memory = (heap − 300 MiB reserved) × {@code spark.memory.fraction}); -1 when unknown. Used when
     * {@code spark.driver.memory} is unset: an embedded driver's heap is then whatever its JVM was started with.
     */
    public static long localHeapFromBlockManager(SparkSettings conf, long driverMaxMemory) {
        if (driverMaxMemory <= 0) {
            return -1;
        }
        double fraction = 0.6;
        try {
            fraction = Double.parseDouble(conf.get("spark.memory.fraction", "0.6"));
        } catch (NumberFormatException ignored) {
            // Spark's default
        }
        if (!(fraction > 0 && fraction <= 1)) {
            fraction = 0.6;
        }
        return Math.round(driverMaxMemory / fraction) + 300 * Units.MiB;
    }

    private static long overhead(SparkSettings conf, String prefix, long heap) {
        return conf.overheadBytes(prefix, heap);
    }

    private static long offHeap(SparkSettings conf) {
        if (!conf.bool("spark.memory.offHeap.enabled", false)) {
            return 0;
        }
        Boolean inContainer = conf.versionAtLeast(3, 0);
        if (inContainer != null && !inContainer) {
            return 0; // before 3.0 the off-heap memory had to be covered by memoryOverhead
        }
        return conf.size("spark.memory.offHeap.size", 1).orElse(0);
    }
}
