package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.TaskMetrics;

import java.util.Map;

/**
 * The memory peaks of one executor (or the driver) as Spark measured them, in bytes; -1 where not measured.
 *
 * <p>Spark reports a metric it did not measure as 0 (a process tree it was not asked to read, a pool it could not
 * see); a live JVM never has a 0-byte heap or a 0-byte resident set, so those zeros read as "not measured" here.
 * Spark's own pools (execution, storage) can be 0 in a measured sample and stay 0.
 *
 * @param jvmHeap            JVM heap in use ({@code JVMHeapMemory}; includes garbage not yet collected)
 * @param jvmOffHeap         JVM non-heap memory: metaspace, code cache ({@code JVMOffHeapMemory})
 * @param onHeapExecution    Spark's execution memory on the heap (shuffles, joins, sorts, aggregations)
 * @param offHeapExecution   Spark's execution memory off the heap ({@code spark.memory.offHeap.*})
 * @param onHeapStorage      Spark's storage memory on the heap (cached blocks, broadcasts)
 * @param offHeapStorage     Spark's storage memory off the heap
 * @param directPool         NIO direct buffers (network, some codecs)
 * @param mappedPool         memory-mapped buffers
 * @param jvmRss             resident set of the executor's JVM process ({@code ProcessTreeJVMRSSMemory})
 * @param pythonRss          resident set of its Python workers (PySpark)
 * @param otherRss           resident set of its other child processes
 */
public record MemoryPeaks(long jvmHeap, long jvmOffHeap, long onHeapExecution, long offHeapExecution,
                          long onHeapStorage, long offHeapStorage, long directPool, long mappedPool,
                          long jvmRss, long pythonRss, long otherRss) {

    public static final MemoryPeaks NONE = new MemoryPeaks(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);

    /** How the memory an executor used is counted. */
    public enum Basis {
        /** The resident sets of its process tree (JVM, Python, other): what the container's limit is checked against. */
        PROCESS_TREE,
        /** The JVM's heap, non-heap, buffer pools and Spark's off-heap memory: without the process tree, a floor. */
        JVM
    }

    /** From an executor's peak metrics under Spark's names (an empty map: nothing measured). */
    public static MemoryPeaks of(Map<String, Long> peaks) {
        if (peaks == null || peaks.isEmpty()) {
            return NONE;
        }
        long heap = positive(peaks, ExecutorMetric.JVM_HEAP_MEMORY);
        boolean measured = heap > 0;
        return new MemoryPeaks(heap,
                pool(peaks, ExecutorMetric.JVM_OFF_HEAP_MEMORY, measured),
                pool(peaks, ExecutorMetric.ON_HEAP_EXECUTION_MEMORY, measured),
                pool(peaks, ExecutorMetric.OFF_HEAP_EXECUTION_MEMORY, measured),
                pool(peaks, ExecutorMetric.ON_HEAP_STORAGE_MEMORY, measured),
                pool(peaks, ExecutorMetric.OFF_HEAP_STORAGE_MEMORY, measured),
                pool(peaks, ExecutorMetric.DIRECT_POOL_MEMORY, measured),
                pool(peaks, ExecutorMetric.MAPPED_POOL_MEMORY, measured),
                positive(peaks, ExecutorMetric.PROCESS_TREE_JVM_RSS_MEMORY),
                // Python and other children are measured with the JVM's process tree; 0 there means none ran
                processChild(peaks, ExecutorMetric.PROCESS_TREE_PYTHON_RSS_MEMORY),
                processChild(peaks, ExecutorMetric.PROCESS_TREE_OTHER_RSS_MEMORY));
    }

    private static long positive(Map<String, Long> peaks, ExecutorMetric m) {
        Long v = peaks.get(m.sparkName);
        return v != null && v > 0 ? v : -1;
    }

    private static long pool(Map<String, Long> peaks, ExecutorMetric m, boolean measured) {
        Long v = peaks.get(m.sparkName);
        return v != null && v >= 0 && (measured || v > 0) ? v : -1;
    }

    private static long processChild(Map<String, Long> peaks, ExecutorMetric m) {
        Long jvm = peaks.get(ExecutorMetric.PROCESS_TREE_JVM_RSS_MEMORY.sparkName);
        Long v = peaks.get(m.sparkName);
        if (jvm != null && jvm > 0) {
            return v != null && v >= 0 ? v : 0;
        }
        return v != null && v > 0 ? v : -1;
    }

    /** Whether Spark measured this executor's memory at all (its heap). */
    public boolean measured() {
        return jvmHeap > 0;
    }

    /** Whether the resident sets of the process tree were measured ({@code spark.executor.processTreeMetrics.enabled}). */
    public boolean processTreeMeasured() {
        return jvmRss > 0;
    }

    public Basis basis() {
        return processTreeMeasured() ? Basis.PROCESS_TREE : Basis.JVM;
    }

    /**
     * The most memory the executor's process held, as far as Spark measured it: the process tree's resident sets
     * when measured, else heap + non-heap + buffer pools + Spark's off-heap pools. Each part is its own peak, and
     * peaks need not coincide, so this is at most the sum of what was held at once; -1 when not measured.
     */
    public long usedBytes() {
        if (!measured()) {
            return -1;
        }
        if (processTreeMeasured()) {
            return sum(jvmRss, pythonRss, otherRss);
        }
        return sum(jvmHeap, jvmOffHeap, directPool, mappedPool, offHeapExecution, offHeapStorage);
    }

    // Saturating: a damaged log's values near 2^63 must not wrap into a negative total.
    private static long sum(long... parts) {
        long total = 0;
        for (long p : parts) {
            total = TaskMetrics.saturatingAdd(total, Math.max(0, p));
        }
        return total;
    }
}
