package io.sparkscope.core.recorder;

import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskTimes;

import java.util.Map;
import java.util.TreeMap;

/** Mutable state of one executor while events arrive. */
final class LiveExecutor extends LiveEntity {
    final String executorId;
    String host = "";
    int totalCores;
    long addTime = -1;
    long removeTime = -1;
    String removeReason;
    long maxMemory = -1;
    int completedTasks;
    int failedTasks;
    int killedTasks;
    long totalDuration;
    long totalRunTime;
    long totalCpuTimeNs;
    long totalGcTime;
    long inputBytes;
    long shuffleReadBytes;
    long shuffleWriteBytes;
    long memoryBytesSpilled;
    long diskBytesSpilled;
    final Map<String, Long> peakMetrics = new TreeMap<>();
    String hostPort;
    /** An ExecutorAdded event announced it (the driver has none in old logs and Spark then shows 0 cores). */
    boolean added;
    int totalTasks;
    int activeTasks;
    long maxOnHeapMemory = -1;
    long maxOffHeapMemory = -1;

    LiveExecutor(String executorId) {
        this.executorId = executorId;
    }

    /**
     * Spark's executor rules (AppStatusListener.onTaskEnd): every task end counts, a repeated one too, and adds its
     * duration; its metrics are added unless the end is a Resubmitted one (the first end already brought them).
     * Unknown durations ({@link TaskTimes}) add nothing. Unlike Spark, tasks that end after their executor's removal
     * (the ones lost with it) still count on it, so its failures stay visible.
     */
    void taskEnded(TaskEndReason reason, TaskInfo info, TaskMetrics m) {
        activeTasks = Math.max(0, activeTasks - 1);
        if (reason.isSuccess()) {
            completedTasks++;
        } else if (reason.isKilled()) {
            killedTasks++;
        } else {
            failedTasks++;
        }
        totalDuration = StageTotals.add(totalDuration, Math.max(0, DistributionMetric.duration(info)));
        if (m != null && !StageSummary.RESUBMITTED.equals(reason.kind())) {
            totalRunTime = StageTotals.add(totalRunTime, m.get(TaskMetric.EXECUTOR_RUN_TIME));
            totalCpuTimeNs = StageTotals.add(totalCpuTimeNs, m.get(TaskMetric.EXECUTOR_CPU_TIME));
            totalGcTime = StageTotals.add(totalGcTime, m.get(TaskMetric.JVM_GC_TIME));
            inputBytes = StageTotals.add(inputBytes, m.get(TaskMetric.INPUT_BYTES));
            shuffleReadBytes = StageTotals.add(shuffleReadBytes, m.shuffleReadBytes());
            shuffleWriteBytes = StageTotals.add(shuffleWriteBytes, m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN));
            memoryBytesSpilled = StageTotals.add(memoryBytesSpilled, m.get(TaskMetric.MEMORY_BYTES_SPILLED));
            diskBytesSpilled = StageTotals.add(diskBytesSpilled, m.get(TaskMetric.DISK_BYTES_SPILLED));
        }
        if (host.isEmpty() && info.host() != null) {
            host = info.host();
        }
    }

    /** As Spark: a task start counts on an executor that is alive (a removed one's count stays as it was). */
    void taskStarted() {
        if (removeTime < 0) {
            totalTasks++;
            activeTasks++;
        }
    }

    void peaks(Map<String, Long> metrics) {
        metrics.forEach((k, v) -> peakMetrics.merge(k, v, Math::max));
    }

    /** The last summary built, reused while the executor has not changed (it is asked for at every snapshot). */
    private ExecutorSummary cached;
    private long cachedAt = -1;

    ExecutorSummary summary() {
        if (cached == null || cachedAt != lastChange) {
            cached = build();
            cachedAt = lastChange;
        }
        return cached;
    }

    private ExecutorSummary build() {
        return new ExecutorSummary(executorId, host, totalCores, addTime, removeTime, removeReason, maxMemory,
                completedTasks, failedTasks, killedTasks, totalDuration, totalRunTime, totalCpuTimeNs, totalGcTime,
                inputBytes, shuffleReadBytes, shuffleWriteBytes, memoryBytesSpilled, diskBytesSpilled, peakMetrics,
                hostPort, added, totalTasks, activeTasks, maxOnHeapMemory, maxOffHeapMemory);
    }
}
