package io.sparkscope.core.event;

import java.util.HashMap;
import java.util.Map;

/**
 * The executor-level metrics Spark samples in each executor and in the driver ({@code ExecutorMetricType}), under
 * the names Spark writes in event logs and in the History Server's {@code peakMemoryMetrics}. Sizes are bytes,
 * times milliseconds, counts counts; each is the peak (largest value) seen over the period the event covers.
 *
 * <p>Which of them a run measured depends on Spark's version and settings: the JVM and Spark memory pools from
 * Spark 3.0 on, the process tree's RSS only with {@code spark.executor.processTreeMetrics.enabled=true} (on Linux),
 * TotalGCTime from 3.1, the concurrent-GC pair from 4.0.
 */
public enum ExecutorMetric {
    JVM_HEAP_MEMORY("JVMHeapMemory"),
    JVM_OFF_HEAP_MEMORY("JVMOffHeapMemory"),
    ON_HEAP_EXECUTION_MEMORY("OnHeapExecutionMemory"),
    OFF_HEAP_EXECUTION_MEMORY("OffHeapExecutionMemory"),
    ON_HEAP_STORAGE_MEMORY("OnHeapStorageMemory"),
    OFF_HEAP_STORAGE_MEMORY("OffHeapStorageMemory"),
    ON_HEAP_UNIFIED_MEMORY("OnHeapUnifiedMemory"),
    OFF_HEAP_UNIFIED_MEMORY("OffHeapUnifiedMemory"),
    DIRECT_POOL_MEMORY("DirectPoolMemory"),
    MAPPED_POOL_MEMORY("MappedPoolMemory"),
    PROCESS_TREE_JVM_VMEMORY("ProcessTreeJVMVMemory"),
    PROCESS_TREE_JVM_RSS_MEMORY("ProcessTreeJVMRSSMemory"),
    PROCESS_TREE_PYTHON_VMEMORY("ProcessTreePythonVMemory"),
    PROCESS_TREE_PYTHON_RSS_MEMORY("ProcessTreePythonRSSMemory"),
    PROCESS_TREE_OTHER_VMEMORY("ProcessTreeOtherVMemory"),
    PROCESS_TREE_OTHER_RSS_MEMORY("ProcessTreeOtherRSSMemory"),
    MINOR_GC_COUNT("MinorGCCount"),
    MINOR_GC_TIME("MinorGCTime"),
    MAJOR_GC_COUNT("MajorGCCount"),
    MAJOR_GC_TIME("MajorGCTime"),
    TOTAL_GC_TIME("TotalGCTime"),
    CONCURRENT_GC_COUNT("ConcurrentGCCount"),
    CONCURRENT_GC_TIME("ConcurrentGCTime");

    private static final ExecutorMetric[] ALL = values();
    private static final Map<String, ExecutorMetric> BY_NAME = new HashMap<>();

    static {
        for (ExecutorMetric m : ALL) {
            BY_NAME.put(m.sparkName, m);
        }
    }

    /** The name in event logs, Spark's REST API and {@code ExecutorMetrics.getMetricValue}. */
    public final String sparkName;

    ExecutorMetric(String sparkName) {
        this.sparkName = sparkName;
    }

    public static int count() {
        return ALL.length;
    }

    public static ExecutorMetric byOrdinal(int ordinal) {
        return ALL[ordinal];
    }

    /** The metric Spark calls {@code name}, or null for a name this version of Sparkscope does not know. */
    public static ExecutorMetric bySparkName(String name) {
        return BY_NAME.get(name);
    }
}
