package io.sparkscope.core.model;

import java.util.List;
import java.util.Map;

/**
 * Everything Sparkscope knows about one application attempt, as the recorder folded it from events. Immutable.
 * Configuration values are already redacted ({@link AppConfig}).
 *
 * @param appId          Spark's application id. A recorder whose events started or ended the application without
 *                       naming it (a damaged or very old log) gives {@link #UNKNOWN_APP_ID}{@code -<start time>}
 *                       ({@code unknown-app} without a start time; {@link #appIdIsPlaceholder()}); null only before
 *                       either event was seen
 * @param attemptId      null for applications without attempts (local mode, standalone)
 * @param endTime        epoch ms of ApplicationEnd, or -1 when the application has not ended (or its log is cut)
 * @param lastEventTime  the newest timestamp seen in any event, used for the duration of incomplete applications
 * @param complete       true once ApplicationEnd was seen
 * @param driverGcTimeMs the driver's JVM GC time when the driver reported executor metrics, else -1
 * @param driverMaxMemory the driver's storage memory (block manager) in bytes, or -1
 * @param unknownEventTypes event types the recorder does not use, with their counts
 * @param totals         figures of the whole run ({@link RunTotals}), also covering entities the lists no longer hold;
 *                       null is read as the totals of the lists (a snapshot that lists everything)
 * @param partial        true when the lists do not hold every entity of the application: a live recorder's snapshot
 *                       of what changed since its last successful write, or of its window of recent entities. A
 *                       store keeps the rows of entities absent from a partial snapshot; a full one (false) replaces
 *                       the stored application, deleting rows it no longer has
 * @param streamingQueries the Structured Streaming query runs, in the order they were first seen (empty for a batch
 *                         application). In a partial snapshot it holds only the runs that changed since the last
 *                         write, each with only its new batches; the store keeps the rest
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
        Map<String, Long> unknownEventTypes,
        RunTotals totals,
        boolean partial,
        List<StreamingQuerySummary> streamingQueries) {

    /** The id, or prefix of the id, a recorder gives an application whose events never named it. */
    public static final String UNKNOWN_APP_ID = "unknown-app";

    public AppSnapshot {
        config = config == null ? AppConfig.EMPTY : config;
        executors = List.copyOf(executors);
        jobs = List.copyOf(jobs);
        stages = List.copyOf(stages);
        sqlExecutions = List.copyOf(sqlExecutions);
        unknownEventTypes = Map.copyOf(unknownEventTypes);
        // null: a snapshot written before streaming queries were recorded (an old spool file)
        streamingQueries = streamingQueries == null ? List.of() : List.copyOf(streamingQueries);
        if (totals == null) {
            if (partial) {
                throw new IllegalArgumentException("a partial snapshot must carry the run's totals");
            }
            totals = RunTotals.of(jobs, stages, sqlExecutions);
        }
    }

    /** Whether {@code appId} is missing or the recorder's placeholder rather than an id Spark gave. */
    public boolean appIdIsPlaceholder() {
        return appId == null || appId.equals(UNKNOWN_APP_ID) || appId.startsWith(UNKNOWN_APP_ID + "-");
    }

    /** This snapshot under another id (e.g. one a reader took from the log's file name for a placeholder). */
    public AppSnapshot withAppId(String id) {
        return toBuilder().appId(id).build();
    }

    /** Wall time: end − start when ended, else the newest event − start; 0 when the start is unknown. */
    public long durationMs() {
        if (startTime <= 0) {
            return 0;
        }
        long end = endTime > 0 ? endTime : lastEventTime;
        return Math.max(0, end - startTime);
    }

    /** Task attempts of the whole run that ended, each task id once ({@link StageSummary#endedTasks()}). */
    public long totalTasks() {
        return totals.tasks();
    }

    /** Task-end events as Spark counts them ({@link StageSummary#taskEndEvents()}): at least {@link #totalTasks()}. */
    public long taskEndEvents() {
        return totals.taskEndEvents();
    }

    /** Failed task-end events as Spark counts them, Resubmitted ones included (see {@link #resubmittedTasks()}). */
    public long failedTasks() {
        return totals.failedTaskEnds();
    }

    /** Task-end events with Spark's reason Resubmitted ({@link StageSummary#numResubmittedTasks()}). */
    public long resubmittedTasks() {
        return totals.resubmittedTasks();
    }

    /** Status word used by the store, the UI and the API. */
    public String status() {
        return complete ? "COMPLETE" : "RUNNING";
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
        b.appId = appId;
        b.attemptId = attemptId;
        b.appName = appName;
        b.sparkUser = sparkUser;
        b.sparkVersion = sparkVersion;
        b.startTime = startTime;
        b.endTime = endTime;
        b.lastEventTime = lastEventTime;
        b.complete = complete;
        b.config = config;
        b.executors = executors;
        b.jobs = jobs;
        b.stages = stages;
        b.sqlExecutions = sqlExecutions;
        b.driverGcTimeMs = driverGcTimeMs;
        b.driverMaxMemory = driverMaxMemory;
        b.eventCount = eventCount;
        b.unknownEventTypes = unknownEventTypes;
        b.totals = totals;
        b.partial = partial;
        b.streamingQueries = streamingQueries;
        return b;
    }

    /** Builds a {@link AppSnapshot}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private String appId;
        private String attemptId;
        private String appName;
        private String sparkUser;
        private String sparkVersion;
        private long startTime;
        private long endTime = -1;
        private long lastEventTime = -1;
        private boolean complete;
        private AppConfig config = AppConfig.EMPTY;
        private List<ExecutorSummary> executors = List.of();
        private List<JobSummary> jobs = List.of();
        private List<StageSummary> stages = List.of();
        private List<SqlExecutionSummary> sqlExecutions = List.of();
        private long driverGcTimeMs = -1;
        private long driverMaxMemory = -1;
        private long eventCount;
        private Map<String, Long> unknownEventTypes = Map.of();
        private RunTotals totals;
        private boolean partial;
        private List<StreamingQuerySummary> streamingQueries = List.of();

        private Builder() {
        }

        public Builder appId(String appId) {
            this.appId = appId;
            return this;
        }

        public Builder attemptId(String attemptId) {
            this.attemptId = attemptId;
            return this;
        }

        public Builder appName(String appName) {
            this.appName = appName;
            return this;
        }

        public Builder sparkUser(String sparkUser) {
            this.sparkUser = sparkUser;
            return this;
        }

        public Builder sparkVersion(String sparkVersion) {
            this.sparkVersion = sparkVersion;
            return this;
        }

        public Builder startTime(long startTime) {
            this.startTime = startTime;
            return this;
        }

        public Builder endTime(long endTime) {
            this.endTime = endTime;
            return this;
        }

        public Builder lastEventTime(long lastEventTime) {
            this.lastEventTime = lastEventTime;
            return this;
        }

        public Builder complete(boolean complete) {
            this.complete = complete;
            return this;
        }

        public Builder config(AppConfig config) {
            this.config = config;
            return this;
        }

        public Builder executors(List<ExecutorSummary> executors) {
            this.executors = executors;
            return this;
        }

        public Builder jobs(List<JobSummary> jobs) {
            this.jobs = jobs;
            return this;
        }

        public Builder stages(List<StageSummary> stages) {
            this.stages = stages;
            return this;
        }

        public Builder sqlExecutions(List<SqlExecutionSummary> sqlExecutions) {
            this.sqlExecutions = sqlExecutions;
            return this;
        }

        public Builder driverGcTimeMs(long driverGcTimeMs) {
            this.driverGcTimeMs = driverGcTimeMs;
            return this;
        }

        public Builder driverMaxMemory(long driverMaxMemory) {
            this.driverMaxMemory = driverMaxMemory;
            return this;
        }

        public Builder eventCount(long eventCount) {
            this.eventCount = eventCount;
            return this;
        }

        public Builder unknownEventTypes(Map<String, Long> unknownEventTypes) {
            this.unknownEventTypes = unknownEventTypes;
            return this;
        }

        public Builder totals(RunTotals totals) {
            this.totals = totals;
            return this;
        }

        public Builder partial(boolean partial) {
            this.partial = partial;
            return this;
        }

        public Builder streamingQueries(List<StreamingQuerySummary> streamingQueries) {
            this.streamingQueries = streamingQueries;
            return this;
        }

        public AppSnapshot build() {
            return new AppSnapshot(appId, attemptId, appName, sparkUser, sparkVersion, startTime, endTime,
                    lastEventTime, complete, config, executors, jobs, stages, sqlExecutions, driverGcTimeMs,
                    driverMaxMemory, eventCount, unknownEventTypes, totals, partial, streamingQueries);
        }
    }
}
