package io.sparkscope.core.model;

import java.util.List;
import java.util.Map;

/**
 * Everything Sparkscope knows about one application attempt, as the recorder folded it from events. Immutable.
 * Configuration values are already redacted ({@link AppConfig}).
 *
 * @param attemptId      null for applications without attempts (local mode, standalone)
 * @param endTime        epoch ms of ApplicationEnd, or -1 when the application has not ended (or its log is cut)
 * @param lastEventTime  the newest timestamp seen in any event, used for the duration of incomplete applications
 * @param complete       true once ApplicationEnd was seen
 * @param driverGcTimeMs the driver's JVM GC time when the driver reported executor metrics, else -1
 * @param driverMaxMemory the driver's storage memory (block manager) in bytes, or -1
 * @param unknownEventTypes event types the recorder does not use, with their counts
 */
public record AppSnapshot(
        String appId,
        String attemptId,
        String appName,
        String sparkUser,
        String sparkVersion,
        long startTime,
        long endTime,
        long lastEventTime,
        boolean complete,
        AppConfig config,
        List<ExecutorSummary> executors,
        List<JobSummary> jobs,
        List<StageSummary> stages,
        List<SqlExecutionSummary> sqlExecutions,
        long driverGcTimeMs,
        long driverMaxMemory,
        long eventCount,
        Map<String, Long> unknownEventTypes) {

    public AppSnapshot {
        config = config == null ? AppConfig.EMPTY : config;
        executors = List.copyOf(executors);
        jobs = List.copyOf(jobs);
        stages = List.copyOf(stages);
        sqlExecutions = List.copyOf(sqlExecutions);
        unknownEventTypes = Map.copyOf(unknownEventTypes);
    }

    /** Wall time: end − start when ended, else the newest event − start; 0 when the start is unknown. */
    public long durationMs() {
        if (startTime <= 0) {
            return 0;
        }
        long end = endTime > 0 ? endTime : lastEventTime;
        return Math.max(0, end - startTime);
    }

    public long totalTasks() {
        long n = 0;
        for (StageSummary s : stages) {
            n += s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
        }
        return n;
    }

    public long failedTasks() {
        long n = 0;
        for (StageSummary s : stages) {
            n += s.numFailedTasks();
        }
        return n;
    }

    /** Status word used by the store, the UI and the API. */
    public String status() {
        return complete ? "COMPLETE" : "RUNNING";
    }
}
