package io.sparkscope.core.recorder;

import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent.BlockManagerAdded;
import io.sparkscope.core.event.SparkEvent.ExecutorAdded;
import io.sparkscope.core.event.SparkEvent.ExecutorMetricsUpdate;
import io.sparkscope.core.event.SparkEvent.ExecutorRemoved;
import io.sparkscope.core.event.SparkEvent.StageExecutorMetrics;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.sparkscope.core.recorder.Recorder.gcTime;

/**
 * The application's executors (the driver among them) and how executor events change them: added, removed, their
 * block managers' memory and their peak memory samples. A task's start and end reach its executor through
 * {@link StageEvents}, which asks {@link #executor} for it.
 */
final class ExecutorEvents {
    private final EventFolding live;
    final Map<String, LiveExecutor> executors = new LinkedHashMap<>();

    ExecutorEvents(EventFolding live) {
        this.live = live;
    }

    /**
     * The executor, created when new; marked changed by this event. One that left the dead-executor window comes back
     * detached: the late event is applied to a copy nobody keeps (it was written before it left).
     */
    LiveExecutor executor(String id) {
        String key = id == null ? "unknown" : id;
        LiveExecutor ex = executors.get(key);
        if (ex == null && live.window.executorGone(key)) {
            return new LiveExecutor(key);
        }
        if (ex == null) {
            ex = new LiveExecutor(key);
            if ("driver".equals(key)) {
                ex.totalCores = live.localCores();
            }
            executors.put(key, ex);
        }
        ex.changedAt(live.eventCount);
        return ex;
    }

    /**
     * As Spark: a repeated ExecutorAdded of a live executor updates its host and cores but keeps when it came; one
     * after its removal (an executor the driver had given up on registering again) makes it alive again from then.
     * Spark would also start its task totals afresh; here they are kept, so the tasks it ran before stay counted.
     */
    void onExecutorAdded(ExecutorAdded e) {
        LiveExecutor ex = executor(e.executorId());
        if (ex.removeTime >= 0) {
            live.window.deadExecutorWindow.revived(ex);
        }
        if (ex.addTime < 0 || ex.removeTime >= 0) {
            ex.addTime = e.time();
            ex.removeTime = -1;
            ex.removeReason = null;
        }
        if (e.host() != null) {
            ex.host = e.host();
        }
        ex.totalCores = Math.max(0, e.totalCores());
        ex.added = true;
        live.seen(e.time());
    }

    /** As Spark: only a known, live executor is removed; a repeated removal keeps the first time and reason. */
    void onExecutorRemoved(ExecutorRemoved e) {
        LiveExecutor ex = executors.get(e.executorId() == null ? "unknown" : e.executorId());
        if (ex != null && ex.removeTime < 0) {
            ex.removeTime = e.time();
            ex.removeReason = e.reason();
            ex.changedAt(live.eventCount);
            live.window.deadExecutorWindow.ended(ex, false);
        }
        live.seen(e.time());
    }

    void onBlockManagerAdded(BlockManagerAdded e) {
        if ("driver".equals(e.executorId()) || "<driver>".equals(e.executorId())) {
            live.driverMaxMemory = e.maxMemory();
        }
        // Spark 1.x named the driver "<driver>"; treat it as "driver" like today's Spark.
        String id = "<driver>".equals(e.executorId()) ? "driver" : e.executorId();
        LiveExecutor ex = executor(id);
        ex.maxMemory = e.maxMemory();
        if (e.host() != null && e.port() >= 0) {
            ex.hostPort = e.host() + ":" + e.port();
        }
        if (e.maxOnHeapMemory() >= 0) {
            ex.maxOnHeapMemory = e.maxOnHeapMemory();
            ex.maxOffHeapMemory = Math.max(0, e.maxOffHeapMemory());
        }
        if (ex.host.isEmpty() && e.host() != null) {
            ex.host = e.host();
        }
        if (ex.addTime < 0) {
            ex.addTime = e.time();
        }
        live.seen(e.time());
    }

    /**
     * Executor peaks reach an executor from three places, merged as Spark's History Server merges them into
     * {@code peakMemoryMetrics}: each task end's sample, the per-stage peaks the log holds with
     * {@code spark.eventLog.logStageExecutorMetrics}, and (live) every heartbeat. Spark drops a task end's or a
     * heartbeat's sample for an executor already removed; here it still counts, since it was measured on it.
     */
    void onStageExecutorMetrics(StageExecutorMetrics e) {
        executor(e.executorId()).peaks(e.peaks());
        if ("driver".equals(e.executorId())) {
            live.driverGc(gcTime(e.peaks()));
        }
    }

    void onExecutorMetricsUpdate(ExecutorMetricsUpdate e) {
        if (e.peaks() == null || e.peaks() == ExecutorPeaks.NONE) {
            return;
        }
        executor(e.executorId()).peaks(e.peaks());
        // A heartbeat before the driver measured anything says nothing of its GC time.
        if ("driver".equals(e.executorId()) && !e.peaks().measuredNothing()) {
            live.driverGc(gcTime(e.peaks().asMap()));
        }
    }
}
