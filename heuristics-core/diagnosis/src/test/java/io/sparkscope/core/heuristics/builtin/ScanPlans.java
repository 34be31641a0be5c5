package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.testing.SnapshotBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test fixture for the heuristics about reading input: SQL executions whose plans hold file scans and writes as
 * Spark prints them (the scan's text with its location and filters, its metrics), with the metric totals tied to
 * the stage that ran each node, added to a snapshot {@link SnapshotBuilder} made.
 */
final class ScanPlans {
    private final List<SqlExecutionSummary> sql = new ArrayList<>();
    private final List<JobSummary> jobs = new ArrayList<>();

    static ScanPlans plans() {
        return new ScanPlans();
    }

    /**
     * A Spark 3/4 file scan node: {@code accumulators} + 0 output rows, + 1 files read, + 2 size of files read, and
     * + 3 partitions read for a partitioned table (Spark declares it only then).
     */
    static PlanNode scan(String format, String path, String output, String readSchema, String partitionFilters,
                         String dataFilters, boolean partitioned, long accumulators) {
        String text = "FileScan " + format + " [" + output + "] Batched: true, DataFilters: [" + dataFilters
                + "], Format: " + format + ", Location: InMemoryFileIndex(1 paths)[" + path + "], PartitionFilters: ["
                + partitionFilters + "], PushedFilters: [], ReadSchema: " + readSchema;
        List<PlanMetric> metrics = new ArrayList<>(List.of(
                new PlanMetric("number of output rows", accumulators, "sum"),
                new PlanMetric("number of files read", accumulators + 1, "sum"),
                new PlanMetric("size of files read", accumulators + 2, "size")));
        if (partitioned) {
            metrics.add(new PlanMetric("number of partitions read", accumulators + 3, "sum"));
        }
        return new PlanNode("Scan " + format + " ", text, List.of(), metrics);
    }

    /** A plain scan of a path (not partitioned, no filters). */
    static PlanNode scan(String format, String path, long accumulators) {
        return scan(format, path, "a#1", "struct<a:bigint>", "", "", false, accumulators);
    }

    /** A Filter over {@code child}, its output rows at {@code accumulator}. */
    static PlanNode filter(PlanNode child, String condition, long accumulator) {
        return new PlanNode("Filter", "Filter " + condition, List.of(new PlanNode("ColumnarToRow", "ColumnarToRow",
                List.of(child), List.of())), List.of(new PlanMetric("number of output rows", accumulator, "sum")));
    }

    /**
     * A write to {@code path} over a Range: {@code accumulators} + 0 written files, + 1 written output, + 2 dynamic
     * partitions, + 3 the Range's output rows (what ties the write to its stage).
     */
    static PlanNode write(String path, long accumulators) {
        PlanNode range = new PlanNode("Range", "Range (0, 6000, step=1, splits=600)", List.of(),
                List.of(new PlanMetric("number of output rows", accumulators + 3, "sum")));
        return new PlanNode("Execute InsertIntoHadoopFsRelationCommand", "Execute InsertIntoHadoopFsRelationCommand "
                + path + ", false, Parquet, [path=" + path + "], Overwrite, [id]", List.of(new PlanNode("WriteFiles",
                "WriteFiles", List.of(range), List.of())), List.of(
                new PlanMetric("number of written files", accumulators, "sum"),
                new PlanMetric("written output", accumulators + 1, "size"),
                new PlanMetric("number of dynamic part", accumulators + 2, "sum")));
    }

    /** A metric total that stage {@code stage} reported ({@code -1}: the driver alone). */
    static SqlMetricAggregate total(long accumulator, long total, int stage) {
        return SqlMetricAggregate.builder().accumulatorId(accumulator).metricType("sum").total(total).count(1)
                .max(total).maxStageId(stage).stageIds(stage < 0 ? List.of() : List.of(stage)).build();
    }

    /** Metric totals by accumulator: pairs of (accumulator, total), all reported by {@code stage}. */
    static Map<Long, SqlMetricAggregate> totals(int stage, long... accumulatorAndTotal) {
        Map<Long, SqlMetricAggregate> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < accumulatorAndTotal.length; i += 2) {
            m.put(accumulatorAndTotal[i], total(accumulatorAndTotal[i], accumulatorAndTotal[i + 1], stage));
        }
        return m;
    }

    /** An execution started {@code startMs} after the application, that ran job {@code jobId} of these stages. */
    ScanPlans execution(long id, long startMs, PlanNode plan, Map<Long, SqlMetricAggregate> metrics, int jobId,
                        Integer... stages) {
        sql.add(SqlExecutionSummary.builder().executionId(id).description("query " + id)
                .startTime(SnapshotBuilder.START + startMs).endTime(SnapshotBuilder.START + startMs + 1000)
                .errorMessage("").physicalPlanDescription("").plan(plan).jobIds(List.of(jobId)).metrics(metrics)
                .stageIds(List.of(stages)).build());
        return job(jobId, "query " + id + " at Test.java:" + id, id, startMs, 1000, stages);
    }

    /** A job; {@code sqlExecutionId} -1 for one outside any SQL execution. */
    ScanPlans job(int jobId, String name, long sqlExecutionId, long startMs, long durationMs, Integer... stages) {
        jobs.add(JobSummary.builder().jobId(jobId).name(name).submissionTime(SnapshotBuilder.START + startMs)
                .completionTime(SnapshotBuilder.START + startMs + durationMs).status(JobSummary.JobStatus.SUCCEEDED)
                .stageIds(List.of(stages)).sqlExecutionId(sqlExecutionId).numTasks(1).numCompletedTasks(1).build());
        return this;
    }

    /** The snapshot {@code app} builds, with these executions and jobs. */
    AppSnapshot on(SnapshotBuilder app) {
        return SnapshotBuilder.copy(app.build()).sqlExecutions(sql).jobs(jobs).build();
    }
}
