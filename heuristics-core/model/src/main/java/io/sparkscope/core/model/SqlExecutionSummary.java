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
        b.executionId = executionId;
        b.description = description;
        b.startTime = startTime;
        b.endTime = endTime;
        b.errorMessage = errorMessage;
        b.physicalPlanDescription = physicalPlanDescription;
        b.plan = plan;
        b.jobIds = jobIds;
        b.metricValues = metricValues;
        b.metrics = metrics;
        b.stageIds = stageIds;
        return b;
    }

    /** Builds a {@link SqlExecutionSummary}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private long executionId;
        private String description;
        private long startTime;
        private long endTime = -1;
        private String errorMessage;
        private String physicalPlanDescription;
        private PlanNode plan;
        private List<Integer> jobIds = List.of();
        private Map<Long, Long> metricValues = Map.of();
        private Map<Long, SqlMetricAggregate> metrics = Map.of();
        private List<Integer> stageIds = List.of();

        private Builder() {
        }

        public Builder executionId(long executionId) {
            this.executionId = executionId;
            return this;
        }

        public Builder description(String description) {
            this.description = description;
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

        public Builder errorMessage(String errorMessage) {
            this.errorMessage = errorMessage;
            return this;
        }

        public Builder physicalPlanDescription(String physicalPlanDescription) {
            this.physicalPlanDescription = physicalPlanDescription;
            return this;
        }

        public Builder plan(PlanNode plan) {
            this.plan = plan;
            return this;
        }

        public Builder jobIds(List<Integer> jobIds) {
            this.jobIds = jobIds;
            return this;
        }

        public Builder metricValues(Map<Long, Long> metricValues) {
            this.metricValues = metricValues;
            return this;
        }

        public Builder metrics(Map<Long, SqlMetricAggregate> metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder stageIds(List<Integer> stageIds) {
            this.stageIds = stageIds;
            return this;
        }

        public SqlExecutionSummary build() {
            return new SqlExecutionSummary(executionId, description, startTime, endTime, errorMessage,
                    physicalPlanDescription, plan, jobIds, metricValues, metrics, stageIds);
        }
    }
}
