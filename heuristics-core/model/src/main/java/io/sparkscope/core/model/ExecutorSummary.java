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
 * @param hostPort      its block manager's {@code host:port}, null when unknown
 * @param added         an ExecutorAdded event announced it (Spark reports 0 cores for an executor without one, such
 *                      as the driver of old logs, where {@code totalCores} takes the local master's)
 * @param totalTasks    task starts on it while it was alive (Spark's {@code totalTasks}); -1 when not recorded
 * @param activeTasks   its tasks running now; -1 when not recorded
 * @param maxOnHeapMemory  on-heap storage memory of its block manager (Spark 2.3+), -1 when not reported
 * @param maxOffHeapMemory off-heap storage memory of its block manager, -1 when not reported
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
        Map<String, Long> peakMetrics,
        String hostPort,
        boolean added,
        int totalTasks,
        int activeTasks,
        long maxOnHeapMemory,
        long maxOffHeapMemory) {

    public ExecutorSummary {
        peakMetrics = Map.copyOf(peakMetrics);
    }

    /** Without the block manager address, task starts and storage memory split: those read as unknown. */
    public ExecutorSummary(String executorId, String host, int totalCores, long addTime, long removeTime,
                           String removeReason, long maxMemory, int completedTasks, int failedTasks, int killedTasks,
                           long totalDuration, long totalRunTime, long totalCpuTimeNs, long totalGcTime, long inputBytes,
                           long shuffleReadBytes, long shuffleWriteBytes, long memoryBytesSpilled,
                           long diskBytesSpilled, Map<String, Long> peakMetrics) {
        this(executorId, host, totalCores, addTime, removeTime, removeReason, maxMemory, completedTasks, failedTasks,
                killedTasks, totalDuration, totalRunTime, totalCpuTimeNs, totalGcTime, inputBytes, shuffleReadBytes,
                shuffleWriteBytes, memoryBytesSpilled, diskBytesSpilled, peakMetrics, null, true, -1, -1, -1, -1);
    }

    public boolean isDriver() {
        return "driver".equals(executorId);
    }
}
