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

    public boolean isDriver() {
        return "driver".equals(executorId);
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
        b.executorId = executorId;
        b.host = host;
        b.totalCores = totalCores;
        b.addTime = addTime;
        b.removeTime = removeTime;
        b.removeReason = removeReason;
        b.maxMemory = maxMemory;
        b.completedTasks = completedTasks;
        b.failedTasks = failedTasks;
        b.killedTasks = killedTasks;
        b.totalDuration = totalDuration;
        b.totalRunTime = totalRunTime;
        b.totalCpuTimeNs = totalCpuTimeNs;
        b.totalGcTime = totalGcTime;
        b.inputBytes = inputBytes;
        b.shuffleReadBytes = shuffleReadBytes;
        b.shuffleWriteBytes = shuffleWriteBytes;
        b.memoryBytesSpilled = memoryBytesSpilled;
        b.diskBytesSpilled = diskBytesSpilled;
        b.peakMetrics = peakMetrics;
        b.hostPort = hostPort;
        b.added = added;
        b.totalTasks = totalTasks;
        b.activeTasks = activeTasks;
        b.maxOnHeapMemory = maxOnHeapMemory;
        b.maxOffHeapMemory = maxOffHeapMemory;
        return b;
    }

    /** Builds a {@link ExecutorSummary}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private String executorId;
        private String host;
        private int totalCores;
        private long addTime;
        private long removeTime = -1;
        private String removeReason;
        private long maxMemory = -1;
        private int completedTasks;
        private int failedTasks;
        private int killedTasks;
        private long totalDuration;
        private long totalRunTime;
        private long totalCpuTimeNs;
        private long totalGcTime;
        private long inputBytes;
        private long shuffleReadBytes;
        private long shuffleWriteBytes;
        private long memoryBytesSpilled;
        private long diskBytesSpilled;
        private Map<String, Long> peakMetrics = Map.of();
        private String hostPort;
        private boolean added = true;
        private int totalTasks = -1;
        private int activeTasks = -1;
        private long maxOnHeapMemory = -1;
        private long maxOffHeapMemory = -1;

        private Builder() {
        }

        public Builder executorId(String executorId) {
            this.executorId = executorId;
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder totalCores(int totalCores) {
            this.totalCores = totalCores;
            return this;
        }

        public Builder addTime(long addTime) {
            this.addTime = addTime;
            return this;
        }

        public Builder removeTime(long removeTime) {
            this.removeTime = removeTime;
            return this;
        }

        public Builder removeReason(String removeReason) {
            this.removeReason = removeReason;
            return this;
        }

        public Builder maxMemory(long maxMemory) {
            this.maxMemory = maxMemory;
            return this;
        }

        public Builder completedTasks(int completedTasks) {
            this.completedTasks = completedTasks;
            return this;
        }

        public Builder failedTasks(int failedTasks) {
            this.failedTasks = failedTasks;
            return this;
        }

        public Builder killedTasks(int killedTasks) {
            this.killedTasks = killedTasks;
            return this;
        }

        public Builder totalDuration(long totalDuration) {
            this.totalDuration = totalDuration;
            return this;
        }

        public Builder totalRunTime(long totalRunTime) {
            this.totalRunTime = totalRunTime;
            return this;
        }

        public Builder totalCpuTimeNs(long totalCpuTimeNs) {
            this.totalCpuTimeNs = totalCpuTimeNs;
            return this;
        }

        public Builder totalGcTime(long totalGcTime) {
            this.totalGcTime = totalGcTime;
            return this;
        }

        public Builder inputBytes(long inputBytes) {
            this.inputBytes = inputBytes;
            return this;
        }

        public Builder shuffleReadBytes(long shuffleReadBytes) {
            this.shuffleReadBytes = shuffleReadBytes;
            return this;
        }

        public Builder shuffleWriteBytes(long shuffleWriteBytes) {
            this.shuffleWriteBytes = shuffleWriteBytes;
            return this;
        }

        public Builder memoryBytesSpilled(long memoryBytesSpilled) {
            this.memoryBytesSpilled = memoryBytesSpilled;
            return this;
        }

        public Builder diskBytesSpilled(long diskBytesSpilled) {
            this.diskBytesSpilled = diskBytesSpilled;
            return this;
        }

        public Builder peakMetrics(Map<String, Long> peakMetrics) {
            this.peakMetrics = peakMetrics;
            return this;
        }

        public Builder hostPort(String hostPort) {
            this.hostPort = hostPort;
            return this;
        }

        public Builder added(boolean added) {
            this.added = added;
            return this;
        }

        public Builder totalTasks(int totalTasks) {
            this.totalTasks = totalTasks;
            return this;
        }

        public Builder activeTasks(int activeTasks) {
            this.activeTasks = activeTasks;
            return this;
        }

        public Builder maxOnHeapMemory(long maxOnHeapMemory) {
            this.maxOnHeapMemory = maxOnHeapMemory;
            return this;
        }

        public Builder maxOffHeapMemory(long maxOffHeapMemory) {
            this.maxOffHeapMemory = maxOffHeapMemory;
            return this;
        }

        public ExecutorSummary build() {
            return new ExecutorSummary(executorId, host, totalCores, addTime, removeTime, removeReason, maxMemory,
                    completedTasks, failedTasks, killedTasks, totalDuration, totalRunTime, totalCpuTimeNs, totalGcTime,
                    inputBytes, shuffleReadBytes, shuffleWriteBytes, memoryBytesSpilled, diskBytesSpilled, peakMetrics,
                    hostPort, added, totalTasks, activeTasks, maxOnHeapMemory, maxOffHeapMemory);
        }
    }
}
