package io.sparkscope.store;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimeSums;

import java.util.List;
import java.util.function.Function;

import static io.sparkscope.store.Column.bigint;
import static io.sparkscope.store.Column.bigintArray;
import static io.sparkscope.store.Column.bool;
import static io.sparkscope.store.Column.float8;
import static io.sparkscope.store.Column.float8Array;
import static io.sparkscope.store.Column.intArray;
import static io.sparkscope.store.Column.integer;
import static io.sparkscope.store.Column.jsonb;
import static io.sparkscope.store.Column.text;
import static io.sparkscope.store.Column.textArray;

/**
 * The child tables of the schema as the writer sees them: every column once, with the model value it holds. Adding
 * a column is one line here plus the migration that creates it ({@code ColumnSchemaTest} fails when they disagree).
 * Order of {@link #ALL} = parents before children.
 */
final class Tables {
    /** One configuration entry of one scope (spark, jvm, system, hadoop). */
    record ConfigEntry(String scope, String key, String value) {
    }

    /** A model record with its position in the snapshot's list, so a read returns the list in the same order. */
    record Ordered<T>(T value, int ord) {
    }

    /** A stage attempt with its position and the digest of its kept tasks ({@link TaskDigest}). */
    record StageAttemptRow(StageSummary stage, int ord, Long tasksDigest) {
    }

    /** One metric's values at the stage's quantiles. */
    record StatisticsRow(StageSummary stage, DistributionMetric metric, double[] values) {
    }

    /** A kept task with its stage attempt and its position in the stage's kept tasks. */
    record TaskRow(StageSummary stage, TaskRecord task, int ord) {
    }

    /** A kept batch of a streaming query run. */
    record BatchRow(StreamingQuerySummary run, StreamingBatch batch) {
    }

    static final Table<ConfigEntry> CONFIGURATION = Table.<ConfigEntry>named("configuration")
            .keys(text("scope", ConfigEntry::scope), text("key", ConfigEntry::key))
            .values(text("value", ConfigEntry::value))
            .build();

    static final Table<Ordered<ExecutorSummary>> EXECUTOR = Table.<Ordered<ExecutorSummary>>named("executor")
            .keys(Ordered::value, text("executor_id", ExecutorSummary::executorId))
            .values(integer("ord", Ordered::ord))
            .values(Ordered::value,
                    text("host", ExecutorSummary::host),
                    integer("total_cores", ExecutorSummary::totalCores),
                    bigint("add_time", ExecutorSummary::addTime),
                    bigint("remove_time", ExecutorSummary::removeTime),
                    text("remove_reason", ExecutorSummary::removeReason),
                    bigint("max_memory", ExecutorSummary::maxMemory),
                    integer("completed_tasks", ExecutorSummary::completedTasks),
                    integer("failed_tasks", ExecutorSummary::failedTasks),
                    integer("killed_tasks", ExecutorSummary::killedTasks),
                    bigint("total_duration_ms", ExecutorSummary::totalDuration),
                    bigint("total_run_time_ms", ExecutorSummary::totalRunTime),
                    bigint("total_cpu_time_ns", ExecutorSummary::totalCpuTimeNs),
                    bigint("total_gc_time_ms", ExecutorSummary::totalGcTime),
                    bigint("input_bytes", ExecutorSummary::inputBytes),
                    bigint("shuffle_read_bytes", ExecutorSummary::shuffleReadBytes),
                    bigint("shuffle_write_bytes", ExecutorSummary::shuffleWriteBytes),
                    bigint("memory_bytes_spilled", ExecutorSummary::memoryBytesSpilled),
                    bigint("disk_bytes_spilled", ExecutorSummary::diskBytesSpilled),
                    jsonb("peak_metrics", e -> Json.write(e.peakMetrics())),
                    // V14
                    text("host_port", ExecutorSummary::hostPort),
                    bool("added", ExecutorSummary::added),
                    integer("total_tasks", ExecutorSummary::totalTasks),
                    integer("active_tasks", ExecutorSummary::activeTasks),
                    bigint("max_on_heap_memory", ExecutorSummary::maxOnHeapMemory),
                    bigint("max_off_heap_memory", ExecutorSummary::maxOffHeapMemory))
            .build();

    static final Table<Ordered<JobSummary>> JOB = Table.<Ordered<JobSummary>>named("job")
            .keys(Ordered::value, integer("job_id", JobSummary::jobId))
            .values(integer("ord", Ordered::ord))
            .values(Ordered::value,
                    text("name", JobSummary::name),
                    text("description", JobSummary::description),
                    text("job_group", JobSummary::jobGroup),
                    bigint("submission_time", JobSummary::submissionTime),
                    bigint("completion_time", JobSummary::completionTime),
                    bigint("duration_ms", JobSummary::durationMs),
                    text("status", j -> j.status().name()),
                    text("failure_reason", JobSummary::failureReason),
                    intArray("stage_ids", JobSummary::stageIds),
                    bigint("sql_execution_id", JobSummary::sqlExecutionId),
                    integer("num_tasks", JobSummary::numTasks),
                    integer("num_completed_tasks", JobSummary::numCompletedTasks),
                    integer("num_failed_tasks", JobSummary::numFailedTasks),
                    integer("num_killed_tasks", JobSummary::numKilledTasks),
                    integer("num_skipped_stages", JobSummary::numSkippedStages),
                    // V14
                    integer("num_active_tasks", JobSummary::numActiveTasks),
                    integer("num_completed_indices", JobSummary::numCompletedIndices),
                    integer("num_skipped_tasks", JobSummary::numSkippedTasks),
                    integer("num_active_stages", JobSummary::numActiveStages),
                    integer("num_completed_stages", JobSummary::numCompletedStages),
                    integer("num_failed_stages", JobSummary::numFailedStages),
                    jsonb("killed_tasks_summary", j -> Json.write(j.killedTasksSummary())),
                    textArray("job_tags", JobSummary::jobTags))
            .build();

    static final Table<StageAttemptRow> STAGE = Table.<StageAttemptRow>named("stage_attempt")
            .keys(StageAttemptRow::stage,
                    integer("stage_id", StageSummary::stageId),
                    integer("attempt_id", StageSummary::attemptId))
            .values(integer("ord", StageAttemptRow::ord))
            .values(StageAttemptRow::stage,
                    text("name", StageSummary::name),
                    text("details", StageSummary::details),
                    text("status", s -> s.status().name()),
                    integer("num_tasks", StageSummary::numTasks),
                    integer("num_active_tasks", StageSummary::numActiveTasks),
                    integer("num_complete_tasks", StageSummary::numCompleteTasks),
                    integer("num_failed_tasks", StageSummary::numFailedTasks),
                    integer("num_killed_tasks", StageSummary::numKilledTasks),
                    integer("num_completed_indices", StageSummary::numCompletedIndices),
                    bigint("submission_time", StageSummary::submissionTime),
                    bigint("completion_time", StageSummary::completionTime),
                    bigint("first_task_launched_time", StageSummary::firstTaskLaunchedTime),
                    bigint("last_task_finished_time", StageSummary::lastTaskFinishedTime),
                    bigint("duration_ms", StageSummary::durationMs),
                    text("failure_reason", StageSummary::failureReason),
                    intArray("parent_ids", StageSummary::parentIds),
                    intArray("job_ids", StageSummary::jobIds),
                    // Totals the stage table sorts on, copied out of the totals column for indexing and plain SQL.
                    bigint("executor_run_time_ms", s -> totals(s).get(TaskMetric.EXECUTOR_RUN_TIME)),
                    bigint("executor_cpu_time_ns", s -> totals(s).get(TaskMetric.EXECUTOR_CPU_TIME)),
                    bigint("jvm_gc_time_ms", s -> totals(s).get(TaskMetric.JVM_GC_TIME)),
                    bigint("memory_bytes_spilled", s -> totals(s).get(TaskMetric.MEMORY_BYTES_SPILLED)),
                    bigint("disk_bytes_spilled", s -> totals(s).get(TaskMetric.DISK_BYTES_SPILLED)),
                    bigint("shuffle_read_bytes", s -> totals(s).shuffleReadBytes()),
                    bigint("shuffle_write_bytes", s -> totals(s).get(TaskMetric.SHUFFLE_BYTES_WRITTEN)),
                    bigint("input_bytes", s -> totals(s).get(TaskMetric.INPUT_BYTES)),
                    bigint("output_bytes", s -> totals(s).get(TaskMetric.OUTPUT_BYTES)),
                    jsonb("totals", s -> Json.totals(totals(s))),
                    jsonb("end_reasons", s -> Json.write(s.endReasons())),
                    bigint("summary_task_count", s -> summary(s, TaskDistributions::count)),
                    float8Array("summary_quantiles", s -> summary(s, TaskDistributions::quantiles)),
                    // V4
                    text("task_detail", s -> s.taskDetail().name()),
                    bigint("task_duration_ms", s -> times(s, TaskTimeSums::durationMs)),
                    bigint("scheduler_delay_ms", s -> times(s, TaskTimeSums::schedulerDelayMs)),
                    bigint("getting_result_ms", s -> times(s, TaskTimeSums::gettingResultMs)),
                    // V8
                    integer("num_distinct_ended_tasks", StageSummary::numDistinctEndedTasks),
                    integer("num_speculative_tasks", StageSummary::numSpeculativeTasks),
                    integer("num_duplicate_task_ends", StageSummary::numDuplicateTaskEnds),
                    integer("num_tasks_with_unknown_times", StageSummary::numTasksWithUnknownTimes),
                    // V14
                    integer("kept_tasks", s -> s.listedTasks().size()))
            .values(bigint("tasks_digest", StageAttemptRow::tasksDigest))
            .build();

    static final Table<StatisticsRow> STAGE_STATISTICS = Table.<StatisticsRow>named("stage_statistics")
            .keys(StatisticsRow::stage,
                    integer("stage_id", StageSummary::stageId),
                    integer("stage_attempt_id", StageSummary::attemptId))
            .keys(text("metric", r -> r.metric().path))
            .values(float8Array("vals", StatisticsRow::values))
            .build();

    static final Table<TaskRow> TASK = Table.<TaskRow>named("task")
            .keys(TaskRow::stage,
                    integer("stage_id", StageSummary::stageId),
                    integer("stage_attempt_id", StageSummary::attemptId))
            .keys(TaskRow::task, bigint("task_id", TaskRecord::taskId))
            .values(integer("ord", TaskRow::ord))
            .values(TaskRow::task,
                    integer("task_index", TaskRecord::index),
                    integer("attempt", TaskRecord::attempt),
                    integer("partition_id", TaskRecord::partitionId),
                    text("executor_id", TaskRecord::executorId),
                    text("host", TaskRecord::host),
                    text("locality", TaskRecord::locality),
                    bool("speculative", TaskRecord::speculative),
                    bigint("launch_time", TaskRecord::launchTime),
                    bigint("finish_time", TaskRecord::finishTime),
                    bigint("getting_result_time", TaskRecord::gettingResultTime),
                    bigint("duration_ms", TaskRecord::durationMs),
                    text("status", TaskRecord::status),
                    text("end_reason", TaskRecord::endReason),
                    text("error_message", TaskRecord::errorMessage),
                    bigintArray("metrics", t -> TaskMetricArray.of(t.metrics())),
                    // V14
                    text("error_detail", TaskRecord::errorDetail),
                    bigint("executor_run_time_ms", t -> t.metrics() == null ? null
                            : t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME)))
            .build();

    static final Table<Ordered<SqlExecutionSummary>> SQL_EXECUTION =
            Table.<Ordered<SqlExecutionSummary>>named("sql_execution")
                    .keys(Ordered::value, bigint("execution_id", SqlExecutionSummary::executionId))
                    .values(integer("ord", Ordered::ord))
                    .values(Ordered::value,
                            text("description", SqlExecutionSummary::description),
                            bigint("start_time", SqlExecutionSummary::startTime),
                            bigint("end_time", SqlExecutionSummary::endTime),
                            text("error_message", SqlExecutionSummary::errorMessage),
                            text("physical_plan_description", SqlExecutionSummary::physicalPlanDescription),
                            jsonb("plan", q -> Json.plan(q.plan())),
                            intArray("job_ids", SqlExecutionSummary::jobIds),
                            jsonb("metric_values", q -> Json.write(q.metricValues())),
                            // V16
                            intArray("stage_ids", SqlExecutionSummary::stageIds))
                    .build();

    /** A node of an execution's plan graph with the stages that ran it. */
    record PlanNodeRow(long executionId, PlanGraph.Node node, List<Integer> stageIds) {
    }

    /** An edge of an execution's plan graph with its position. */
    record PlanEdgeRow(long executionId, int ord, PlanGraph.Edge edge) {
    }

    /**
     * A metric a node declares, with its aggregate (null when nothing reported it); node -1 for aggregates of
     * accumulators no drawn node declares.
     */
    record NodeMetricRow(long executionId, long nodeId, int ord, PlanMetric metric, SqlMetricAggregate aggregate) {
        <T> T agg(Function<SqlMetricAggregate, T> part) {
            return aggregate == null ? null : part.apply(aggregate);
        }
    }

    static final Table<PlanNodeRow> SQL_PLAN_NODE = Table.<PlanNodeRow>named("sql_plan_node")
            .keys(bigint("execution_id", PlanNodeRow::executionId))
            .keys(PlanNodeRow::node, bigint("node_id", PlanGraph.Node::id))
            .values(PlanNodeRow::node,
                    text("name", PlanGraph.Node::name),
                    text("description", PlanGraph.Node::description),
                    bool("is_cluster", PlanGraph.Node::cluster),
                    bigint("cluster_id", PlanGraph.Node::clusterId),
                    bigint("codegen_id", n -> n.cluster() ? n.codegenId() : -1L))
            .values(intArray("stage_ids", PlanNodeRow::stageIds))
            .build();

    static final Table<PlanEdgeRow> SQL_PLAN_EDGE = Table.<PlanEdgeRow>named("sql_plan_edge")
            .keys(bigint("execution_id", PlanEdgeRow::executionId), integer("ord", PlanEdgeRow::ord))
            .values(PlanEdgeRow::edge,
                    bigint("from_id", PlanGraph.Edge::fromId),
                    bigint("to_id", PlanGraph.Edge::toId))
            .build();

    static final Table<NodeMetricRow> SQL_NODE_METRIC = Table.<NodeMetricRow>named("sql_node_metric")
            .keys(bigint("execution_id", NodeMetricRow::executionId), bigint("node_id", NodeMetricRow::nodeId),
                    integer("ord", NodeMetricRow::ord))
            .values(NodeMetricRow::metric,
                    bigint("accumulator_id", PlanMetric::accumulatorId),
                    text("name", PlanMetric::name),
                    text("metric_type", m -> m.metricType() == null ? "" : m.metricType()))
            .values(bigint("total", r -> r.agg(SqlMetricAggregate::total)),
                    bigint("value_count", r -> r.agg(SqlMetricAggregate::count)),
                    bigint("min_value", r -> r.agg(SqlMetricAggregate::min)),
                    bigint("median_value", r -> r.agg(SqlMetricAggregate::median)),
                    bigint("lower_median_value", r -> r.agg(SqlMetricAggregate::lowerMedian)),
                    bigint("max_value", r -> r.agg(SqlMetricAggregate::max)),
                    integer("max_stage_id", r -> r.agg(SqlMetricAggregate::maxStageId)),
                    integer("max_stage_attempt_id", r -> r.agg(SqlMetricAggregate::maxStageAttemptId)),
                    bigint("max_task_id", r -> r.agg(SqlMetricAggregate::maxTaskId)),
                    bigint("reported_values", r -> r.agg(SqlMetricAggregate::reportedValues)),
                    bool("exact", r -> r.agg(SqlMetricAggregate::exact)),
                    intArray("value_stage_ids", r -> r.agg(SqlMetricAggregate::stageIds)))
            .build();

    static final Table<Ordered<StreamingQuerySummary>> STREAMING_QUERY =
            Table.<Ordered<StreamingQuerySummary>>named("streaming_query")
                    .keys(Ordered::value, text("run_id", StreamingQuerySummary::runId))
                    .values(integer("ord", Ordered::ord))
                    .values(Ordered::value,
                            text("query_id", StreamingQuerySummary::queryId),
                            text("name", StreamingQuerySummary::name),
                            bigint("start_time", StreamingQuerySummary::startTime),
                            bigint("end_time", StreamingQuerySummary::endTime),
                            text("status", q -> q.status().name()),
                            text("exception", StreamingQuerySummary::exception),
                            text("error_class", StreamingQuerySummary::errorClass),
                            text("trigger_kind", StreamingQuerySummary::triggerKind),
                            bigint("trigger_interval_ms", StreamingQuerySummary::triggerIntervalMs),
                            text("sink_description", StreamingQuerySummary::sinkDescription),
                            bigint("last_progress_time", StreamingQuerySummary::lastProgressTime),
                            bigint("num_batches", q -> q.totals().batches()),
                            bigint("input_rows", q -> q.totals().inputRows()),
                            bigint("last_batch_end_time", q -> q.totals().lastBatchEndTime()),
                            jsonb("totals", q -> Json.write(q.totals())),
                            bigint("kept_first_batch_id", q -> q.recentBatches().isEmpty() ? null
                                    : q.recentBatches().get(0).batchId()),
                            bigint("kept_last_batch_id", q -> q.lastBatch() == null ? null : q.lastBatch().batchId()),
                            integer("batches_kept", q -> q.recentBatches().size()))
                    .build();

    static final Table<BatchRow> STREAMING_BATCH = Table.<BatchRow>named("streaming_batch")
            .keys(BatchRow::run, text("run_id", StreamingQuerySummary::runId))
            .keys(BatchRow::batch, bigint("batch_id", StreamingBatch::batchId))
            .values(BatchRow::batch,
                    bigint("start_time", StreamingBatch::timestamp),
                    bigint("duration_ms", StreamingBatch::durationMs),
                    bigint("num_input_rows", StreamingBatch::numInputRows),
                    float8("input_rows_per_second", StreamingBatch::inputRowsPerSecond),
                    float8("processed_rows_per_second", StreamingBatch::processedRowsPerSecond),
                    bigint("num_output_rows", StreamingBatch::numOutputRows),
                    jsonb("duration_parts", b -> Json.write(b.durationParts())),
                    bigint("watermark", StreamingBatch::watermark),
                    bigint("event_time_max", StreamingBatch::eventTimeMax),
                    bigint("state_rows", StreamingBatch::stateRows),
                    bigint("state_memory_bytes", StreamingBatch::stateMemoryBytes),
                    bigint("rows_dropped_by_watermark", StreamingBatch::rowsDroppedByWatermark),
                    jsonb("state_operators", b -> Json.write(b.stateOperators())),
                    jsonb("sources", b -> Json.write(b.sources())))
            .build();

    static final Table<Ordered<Finding>> FINDING = Table.<Ordered<Finding>>named("finding")
            .keys(Ordered::value, text("finding_id", Finding::id))
            .values(integer("ord", Ordered::ord))
            .values(Ordered::value,
                    text("heuristic", Finding::heuristic),
                    text("severity", f -> f.severity().name()),
                    text("title", Finding::title),
                    text("message", Finding::message),
                    text("recommendation", Finding::recommendation),
                    textArray("stage_ids", Finding::stageIds),
                    textArray("executor_ids", Finding::executorIds),
                    textArray("config_keys", Finding::configKeys),
                    jsonb("details", f -> Json.details(f.details())),
                    // V8
                    bigint("impact_wall_ms", f -> f.impact().wallMs()),
                    bigint("impact_task_ms", f -> f.impact().taskMs()),
                    text("impact_basis", f -> f.impact().basis()),
                    text("caused_by", Finding::causedBy),
                    jsonb("advice", f -> Json.advice(f.advice())),
                    // V26
                    bigint("impact_core_ms", f -> f.impact().coreMs()))
            .build();

    /** The rows of an SQL execution's plan graph: they come and go with their execution. */
    static final List<Table<?>> SQL_PLAN_TABLES = List.of(SQL_PLAN_NODE, SQL_PLAN_EDGE, SQL_NODE_METRIC);

    static final List<Table<?>> ALL = List.of(CONFIGURATION, EXECUTOR, JOB, STAGE, STAGE_STATISTICS, TASK,
            SQL_EXECUTION, SQL_PLAN_NODE, SQL_PLAN_EDGE, SQL_NODE_METRIC, STREAMING_QUERY, STREAMING_BATCH,
            FINDING);

    private Tables() {
    }

    private static StageTotals totals(StageSummary s) {
        return s.totals() == null ? StageTotals.zero() : s.totals();
    }

    /** A value of the stage's task-metric distributions; null when no task succeeded (no distribution). */
    private static <T> T summary(StageSummary s, Function<TaskDistributions, T> part) {
        return s.taskSummary() == null ? null : part.apply(s.taskSummary());
    }

    /** A task-time sum; null for a stage recorded without them. */
    private static Long times(StageSummary s, Function<TaskTimeSums, Long> part) {
        return s.taskTimes() == null ? null : part.apply(s.taskTimes());
    }
}
