package io.sparkscope.core.event;

import java.util.List;
import java.util.Map;

/**
 * Our own immutable copy of the Spark listener events Sparkscope needs. Two adapters produce them — the live
 * listener and the event-log reader — and one recorder consumes them, so a run looks the same whichever way it came.
 */
public sealed interface SparkEvent {

    /** {@code SparkListenerLogStart}: the Spark version that wrote the log. */
    record LogStart(String sparkVersion) implements SparkEvent {
    }

    record ApplicationStart(String appName, String appId, String attemptId, long time, String sparkUser)
            implements SparkEvent {
    }

    record ApplicationEnd(long time) implements SparkEvent {
    }

    /**
     * {@code SparkListenerEnvironmentUpdate}. Spark properties and JVM/system properties are kept apart because
     * only the former are the user's configuration.
     */
    record EnvironmentUpdate(
            Map<String, String> sparkProperties,
            Map<String, String> jvmInformation,
            Map<String, String> systemProperties,
            Map<String, String> hadoopProperties) implements SparkEvent {
        public EnvironmentUpdate {
            sparkProperties = Map.copyOf(sparkProperties);
            jvmInformation = Map.copyOf(jvmInformation);
            systemProperties = Map.copyOf(systemProperties);
            hadoopProperties = Map.copyOf(hadoopProperties);
        }
    }

    record ExecutorAdded(long time, String executorId, String host, int totalCores) implements SparkEvent {
    }

    record ExecutorRemoved(long time, String executorId, String reason) implements SparkEvent {
    }

    /**
     * The driver's block manager tells the driver's storage memory; executors' tell theirs.
     *
     * @param port             the block manager's port, -1 when unknown
     * @param maxOnHeapMemory  its on-heap storage memory (Spark 2.3+), -1 when not reported
     * @param maxOffHeapMemory its off-heap storage memory (Spark 2.3+), -1 when not reported
     */
    record BlockManagerAdded(long time, String executorId, String host, long maxMemory, int port,
                             long maxOnHeapMemory, long maxOffHeapMemory) implements SparkEvent {
        public BlockManagerAdded(long time, String executorId, String host, long maxMemory) {
            this(time, executorId, host, maxMemory, -1, -1, -1);
        }
    }

    /**
     * @param stageInfos the stages this job may run (some may end up skipped), when the source reports them
     * @param properties job properties (e.g. {@code spark.sql.execution.id}, {@code spark.jobGroup.id}), possibly empty
     */
    record JobStart(int jobId, long submissionTime, List<Integer> stageIds, List<StageInfo> stageInfos,
                    Map<String, String> properties) implements SparkEvent {
        public JobStart {
            stageIds = List.copyOf(stageIds);
            stageInfos = stageInfos == null ? List.of() : List.copyOf(stageInfos);
            properties = properties == null ? Map.of() : Map.copyOf(properties);
        }
    }

    /** @param failureReason null when the job succeeded */
    record JobEnd(int jobId, long completionTime, boolean succeeded, String failureReason) implements SparkEvent {
    }

    record StageSubmitted(StageInfo stage) implements SparkEvent {
    }

    record StageCompleted(StageInfo stage) implements SparkEvent {
    }

    record TaskStart(int stageId, int stageAttemptId, TaskInfo taskInfo) implements SparkEvent {
    }

    /**
     * @param metrics         null when Spark reported none for this task (e.g. some failures, old logs)
     * @param executorMetrics the executor's peak metrics Spark sampled while the task ran ("Task Executor Metrics",
     *                        Spark 3.0+), or null when none were reported; all zeros means nothing was measured
     * @param accumUpdates    this task's own updates of the SQL metrics of running SQL executions (from its
     *                        accumulables); the adapters leave out every other accumulator, so it is usually empty
     */
    record TaskEnd(int stageId, int stageAttemptId, String taskType, TaskEndReason reason, TaskInfo taskInfo,
                   TaskMetrics metrics, ExecutorPeaks executorMetrics, AccumUpdates accumUpdates) implements SparkEvent {
        public TaskEnd {
            accumUpdates = accumUpdates == null ? AccumUpdates.NONE : accumUpdates;
        }

        /** A task end without executor peaks or SQL metric updates (hand-built events). */
        public TaskEnd(int stageId, int stageAttemptId, String taskType, TaskEndReason reason, TaskInfo taskInfo,
                       TaskMetrics metrics) {
            this(stageId, stageAttemptId, taskType, reason, taskInfo, metrics, null, AccumUpdates.NONE);
        }

        /** A task end without SQL metric updates. */
        public TaskEnd(int stageId, int stageAttemptId, String taskType, TaskEndReason reason, TaskInfo taskInfo,
                       TaskMetrics metrics, ExecutorPeaks executorMetrics) {
            this(stageId, stageAttemptId, taskType, reason, taskInfo, metrics, executorMetrics, AccumUpdates.NONE);
        }

        /** A task end without executor peaks (sources older than Spark 3.0). */
        public TaskEnd(int stageId, int stageAttemptId, String taskType, TaskEndReason reason, TaskInfo taskInfo,
                       TaskMetrics metrics, AccumUpdates accumUpdates) {
            this(stageId, stageAttemptId, taskType, reason, taskInfo, metrics, null, accumUpdates);
        }
    }

    /**
     * Accumulator updates of one task, as two parallel arrays in the order Spark listed them (accumulator id, the
     * task's own value). Only SQL metrics are carried; a task updates a few dozen at most.
     */
    record AccumUpdates(long[] ids, long[] values) {
        public static final AccumUpdates NONE = new AccumUpdates(new long[0], new long[0]);

        public AccumUpdates {
            if (ids.length != values.length) {
                throw new IllegalArgumentException("ids and values differ in length");
            }
        }

        public int size() {
            return ids.length;
        }

        public boolean isEmpty() {
            return ids.length == 0;
        }
    }

    /**
     * Peak executor metrics (heap, GC counts/times …) per executor per stage, logged with
     * {@code spark.eventLog.logStageExecutorMetrics}. The driver's entries tell its GC time.
     */
    record StageExecutorMetrics(String executorId, int stageId, int stageAttemptId, Map<String, Long> peaks)
            implements SparkEvent {
        public StageExecutorMetrics {
            peaks = Map.copyOf(peaks);
        }
    }

    /**
     * An executor's (or the driver's) peak metrics since its previous heartbeat ({@code
     * SparkListenerExecutorMetricsUpdate}): what a live listener learns every {@code spark.executor.heartbeatInterval}
     * even when the application logs no executor metrics. Spark sends one sample per active stage; they arrive here
     * merged (largest value per metric), because an executor's peak does not depend on the stage.
     */
    record ExecutorMetricsUpdate(String executorId, ExecutorPeaks peaks) implements SparkEvent {
    }

    /**
     * SQL execution start, with the physical plan as text and as a tree (for plan-based heuristics).
     */
    record SqlExecutionStart(long executionId, String description, String physicalPlanDescription, PlanNode plan,
                             long time) implements SparkEvent {
    }

    record SqlExecutionEnd(long executionId, long time, String errorMessage) implements SparkEvent {
    }

    /** AQE re-planned a running SQL execution: the new physical plan replaces the old one. */
    record SqlAdaptivePlanUpdate(long executionId, String physicalPlanDescription, PlanNode plan)
            implements SparkEvent {
    }

    /**
     * SQL metric values the driver computed itself (e.g. broadcast sizes), in the order Spark sent them. One
     * accumulator may come several times in one event (an adaptive shuffle read sends one size per partition), and
     * Spark's SQL tab counts every one of them, so they are kept as a list, not a map.
     */
    record DriverAccumUpdates(long executionId, List<AccumUpdate> updates) implements SparkEvent {
        public DriverAccumUpdates {
            updates = List.copyOf(updates);
        }
    }

    /**
     * {@code StreamingQueryListener.QueryStartedEvent}: a Structured Streaming query (its {@code queryId} survives
     * restarts from the same checkpoint) began a run ({@code runId}, new at every start).
     *
     * @param name the query's name, or null when it has none
     * @param time epoch ms, or -1
     */
    record StreamingQueryStarted(String queryId, String runId, String name, long time) implements SparkEvent {
    }

    /** {@code StreamingQueryListener.QueryProgressEvent}: one trigger of a running query. */
    record StreamingQueryProgress(StreamingProgress progress) implements SparkEvent {
    }

    /**
     * {@code StreamingQueryListener.QueryIdleEvent} (Spark 3.5+): a trigger found no new data, so no batch ran.
     *
     * @param time epoch ms, or -1
     */
    record StreamingQueryIdle(String queryId, String runId, long time) implements SparkEvent {
    }

    /**
     * {@code StreamingQueryListener.QueryTerminatedEvent}. It carries no time: the recorder takes the newest time it
     * has seen, which is the same live and from the log.
     *
     * @param exception  null when the query was stopped, else the error that ended it
     * @param errorClass Spark's error class of that error (3.5+), or null
     */
    record StreamingQueryTerminated(String queryId, String runId, String exception, String errorClass)
            implements SparkEvent {
    }

    /**
     * The trigger a query run was started with. Neither Spark's events nor its event log carry it; the live listener
     * looks it up on the running query, so only live recordings have it.
     *
     * @param kind       {@code ProcessingTime}, {@code AvailableNow}, {@code Once} or {@code Continuous}
     * @param intervalMs the trigger interval (0 for "as fast as possible"), or -1 when the kind has none
     */
    record StreamingQueryTrigger(String queryId, String runId, String kind, long intervalMs) implements SparkEvent {
    }

    /** One (accumulator id, value) pair of {@link DriverAccumUpdates}. */
    record AccumUpdate(long accumulatorId, long value) {
    }

    /** An event type Sparkscope does not use; counted, never an error. */
    record Unknown(String type) implements SparkEvent {
    }

    /** One node of a SQL physical plan ({@code SparkPlanInfo}). */
    record PlanNode(String nodeName, String simpleString, List<PlanNode> children, List<PlanMetric> metrics) {
        public PlanNode {
            children = List.copyOf(children);
            metrics = List.copyOf(metrics);
        }
    }

    /** A SQL metric declared on a plan node; its values arrive through stage/driver accumulables. */
    record PlanMetric(String name, long accumulatorId, String metricType) {
    }
}
