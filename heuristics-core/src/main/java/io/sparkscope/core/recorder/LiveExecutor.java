package io.sparkscope.core.recorder;

import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.Map;
import java.util.TreeMap;

/** Mutable state of one executor while events arrive. */
final class LiveExecutor {
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

    LiveExecutor(String executorId) {
        this.executorId = executorId;
    }

    void taskEnded(TaskEndReason reason, TaskInfo info, TaskMetrics m) {
        if (reason.isSuccess()) {
            completedTasks++;
        } else if (reason.isKilled()) {
            killedTasks++;
        } else {
            failedTasks++;
        }
        totalDuration += info.duration();
        if (m != null) {
            totalRunTime += m.get(TaskMetric.EXECUTOR_RUN_TIME);
            totalCpuTimeNs += m.get(TaskMetric.EXECUTOR_CPU_TIME);
            totalGcTime += m.get(TaskMetric.JVM_GC_TIME);
            inputBytes += m.get(TaskMetric.INPUT_BYTES);
            shuffleReadBytes += m.shuffleReadBytes();
            shuffleWriteBytes += m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
            memoryBytesSpilled += m.get(TaskMetric.MEMORY_BYTES_SPILLED);
            diskBytesSpilled += m.get(TaskMetric.DISK_BYTES_SPILLED);
        }
        if (host.isEmpty() && info.host() != null) {
            host = info.host();
        }
    }

    void peaks(Map<String, Long> metrics) {
        metrics.forEach((k, v) -> peakMetrics.merge(k, v, Math::max));
    }

    ExecutorSummary summary() {
        return new ExecutorSummary(executorId, host, totalCores, addTime, removeTime, removeReason, maxMemory,
                completedTasks, failedTasks, killedTasks, totalDuration, totalRunTime, totalCpuTimeNs, totalGcTime,
                inputBytes, shuffleReadBytes, shuffleWriteBytes, memoryBytesSpilled, diskBytesSpilled, peakMetrics);
    }
}
