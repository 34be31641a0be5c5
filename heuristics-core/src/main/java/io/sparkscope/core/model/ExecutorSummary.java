package io.sparkscope.core.model;

import java.util.Map;

/**
 * One executor (the driver appears as executor "driver" when it runs tasks, as in local mode).
 *
 * @param totalCores    cores the executor offered; for a local-mode driver, the N of {@code local[N]}
 * @param removeTime    epoch ms, or -1 while alive
 * @param maxMemory     storage memory of its block manager in bytes, or -1
 * @param totalDuration sum of its tasks' durations (ms), Spark's {@code ExecutorSummary.totalDuration}
 * @param totalGcTime   sum of its tasks' JVM GC time (ms)
 * @param peakMetrics   peak executor metrics (e.g. JVMHeapMemory, TotalGCTime) when Spark logged them
 */
public record ExecutorSummary(
        String executorId,
        String host,
        int totalCores,
        long addTime,
        long removeTime,
        String removeReason,
        long maxMemory,
        int completedTasks,
        int failedTasks,
        int killedTasks,
        long totalDuration,
        long totalRunTime,
        long totalCpuTimeNs,
        long totalGcTime,
        long inputBytes,
        long shuffleReadBytes,
        long shuffleWriteBytes,
        long memoryBytesSpilled,
        long diskBytesSpilled,
        Map<String, Long> peakMetrics) {

    public ExecutorSummary {
        peakMetrics = Map.copyOf(peakMetrics);
    }

    public boolean isDriver() {
        return "driver".equals(executorId);
    }
}
