package io.sparkscope.core.model;

import io.sparkscope.core.event.SparkEvent.PlanNode;

import java.util.List;
import java.util.Map;

/**
 * One SQL execution (a DataFrame/SQL action) with its final physical plan (after AQE re-planning) and the values of
 * the SQL metrics its plan declares, where Spark reported them.
 *
 * @param endTime      epoch ms, or -1 while running
 * @param plan         null when the source did not carry the plan tree
 * @param metricValues accumulator id → last reported value, for metrics declared in {@code plan}
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
        Map<Long, Long> metricValues) {

    public SqlExecutionSummary {
        jobIds = List.copyOf(jobIds);
        metricValues = Map.copyOf(metricValues);
    }
}
