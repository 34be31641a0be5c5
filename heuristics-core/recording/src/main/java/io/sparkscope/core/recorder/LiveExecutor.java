package io.sparkscope.core.recorder;

import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskTimes;

import java.util.Arrays;
import java.util.LinkedHashMap;
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
    /** Largest value seen per {@link ExecutorMetric}, {@link ExecutorPeaks#ABSENT} until one is measured. */
    private final long[] peaks = absent();
    /** Peaks under names this version does not know (a newer Spark's), from the logged per-stage metrics. */
    private Map<String, Long> otherPeaks;
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

    private static long[] absent() {
        long[] v = new long[ExecutorMetric.count()];
        Arrays.fill(v, ExecutorPeaks.ABSENT);
        return v;
    }

    /**
     * Spark's {@code ExecutorMetrics.compareAndUpdatePeakValues}: each metric keeps its largest value. A sample in
     * which nothing was measured yet (all zeros: what a task end carries before the executor's first poll) still
     * counts, as in Spark: the executor then shows its peaks, all 0, where Spark shows them. A sample that carries
     * no metric at all leaves the executor as it was. Readers that judge memory tell a zero peak from a measured one
     * themselves. Constant time.
     */
    void peaks(ExecutorPeaks sample) {
        if (sample == null || sample == ExecutorPeaks.NONE) {
            return;
        }
        for (int i = 0; i < peaks.length; i++) {
            long v = sample.valueAt(i);
            if (v > peaks[i]) {
                peaks[i] = v;
            }
        }
    }

    /**
     * A task end's sample. Spark's event-log reader fills every metric a task end does not carry with 0, the whole
     * sample when the log has none (before Spark 3.0), so every task end sets the executor's peaks, at least to 0:
     * the History Server shows peaks, all 0, for every executor that ran a task.
     */
    void taskEndPeaks(ExecutorPeaks sample) {
        for (int i = 0; i < peaks.length; i++) {
            long v = sample == null ? 0 : Math.max(0, sample.valueAt(i));
            if (v > peaks[i]) {
                peaks[i] = v;
            }
        }
    }

    /** The same for a sample keyed by Spark's names (per-stage metrics), keeping names this version does not know. */
    void peaks(Map<String, Long> sample) {
        sample.forEach((name, v) -> {
            if (v == null || v < 0) {
                return;
            }
            ExecutorMetric m = ExecutorMetric.bySparkName(name);
            if (m != null) {
                peaks[m.ordinal()] = Math.max(peaks[m.ordinal()], v);
            } else {
                if (otherPeaks == null) {
                    otherPeaks = new TreeMap<>();
                }
                otherPeaks.merge(name, v, Math::max);
            }
        });
    }

    private Map<String, Long> peakMetrics() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < peaks.length; i++) {
            if (peaks[i] != ExecutorPeaks.ABSENT) {
                out.put(ExecutorMetric.byOrdinal(i).sparkName, peaks[i]);
            }
        }
        if (otherPeaks != null) {
            otherPeaks.forEach(out::putIfAbsent);
        }
        return out;
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
        return ExecutorSummary.builder().executorId(executorId).host(host).totalCores(totalCores).addTime(addTime)
                .removeTime(removeTime).removeReason(removeReason).maxMemory(maxMemory).completedTasks(completedTasks)
                .failedTasks(failedTasks).killedTasks(killedTasks).totalDuration(totalDuration)
                .totalRunTime(totalRunTime).totalCpuTimeNs(totalCpuTimeNs).totalGcTime(totalGcTime)
                .inputBytes(inputBytes).shuffleReadBytes(shuffleReadBytes).shuffleWriteBytes(shuffleWriteBytes)
                .memoryBytesSpilled(memoryBytesSpilled).diskBytesSpilled(diskBytesSpilled).peakMetrics(peakMetrics())
                .hostPort(hostPort).added(added).totalTasks(totalTasks).activeTasks(activeTasks)
                .maxOnHeapMemory(maxOnHeapMemory).maxOffHeapMemory(maxOffHeapMemory).build();
    }
}
