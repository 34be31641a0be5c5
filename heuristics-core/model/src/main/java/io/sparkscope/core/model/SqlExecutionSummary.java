package io.sparkscope.core.model;

import io.sparkscope.core.event.SparkEvent.PlanNode;

import java.util.List;
import java.util.Map;

/**
 * One SQL execution (a DataFrame/SQL action) with its final physical plan (after AQE re-planning) and the values of
 * the SQL metrics its plan declares, where Spark reported them.
 *
 * @param endTime      epoch ms, or -1 while running
 * @param errorMessage the error the execution ended with; empty for a success reported by Spark 3.4 or later, null
 *                     when its end carried no message (earlier Spark, or still running)
 * @param plan         null when the source did not carry the plan tree
 * @param metricValues accumulator id → last reported value from stage accumulables and driver updates, for metrics
 *                     declared in {@code plan}
 * @param metrics      accumulator id → the metric aggregated over the execution's tasks as Spark's SQL tab does
 *                     ({@link SqlMetricAggregate}); empty when the source carried no task accumulables (the History
 *                     Server's REST API, older snapshots). Metrics nothing reported are absent, as in Spark
 * @param stageIds     the stages of the execution's jobs, in the order Spark's SQL tab keeps them
 */
public record SqlExecutionSummary(
        long executionId,
        String description,
        long startTime,
        long endTime,
        String errorMessage,
        String physicalPlanDescription,
        PlanNode plan,
        List<Integer> jobIds,
        Map<Long, Long> metricValues,
        Map<Long, SqlMetricAggregate> metrics,
        List<Integer> stageIds) {

    public SqlExecutionSummary {
        jobIds = List.copyOf(jobIds);
        metricValues = Map.copyOf(metricValues);
        metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
        stageIds = stageIds == null ? List.of() : List.copyOf(stageIds);
    }

    /** Whether the execution ended with an error (an empty message is Spark's success). */
    public boolean failed() {
        return errorMessage != null && !errorMessage.isEmpty();
    }

    /** Without per-task aggregates (sources that carry none). */
    public SqlExecutionSummary(long executionId, String description, long startTime, long endTime,
                               String errorMessage, String physicalPlanDescription, PlanNode plan,
                               List<Integer> jobIds, Map<Long, Long> metricValues) {
        this(executionId, description, startTime, endTime, errorMessage, physicalPlanDescription, plan, jobIds,
                metricValues, Map.of(), List.of());
    }
}
