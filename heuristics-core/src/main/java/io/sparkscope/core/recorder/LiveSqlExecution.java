package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.model.SqlExecutionSummary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Mutable state of one SQL execution. */
final class LiveSqlExecution extends LiveEntity {
    final long executionId;
    String description;
    long startTime = -1;
    long endTime = -1;
    String errorMessage;
    /** Set by its first end: a repeated one changes nothing. */
    boolean ended;
    String physicalPlanDescription;
    PlanNode plan;
    final List<Integer> jobIds = new ArrayList<>();
    /** Accumulator ids declared by the plan(s); only their values are kept. */
    final Set<Long> metricIds = new HashSet<>();
    final Map<Long, Long> metricValues = new HashMap<>();

    LiveSqlExecution(long executionId) {
        this.executionId = executionId;
    }

    void plan(String description, PlanNode root) {
        if (description != null) {
            physicalPlanDescription = description;
        }
        if (root != null) {
            plan = root;
            collectMetricIds(root);
        }
    }

    private void collectMetricIds(PlanNode node) {
        for (PlanMetric m : node.metrics()) {
            metricIds.add(m.accumulatorId());
        }
        for (PlanNode child : node.children()) {
            collectMetricIds(child);
        }
    }

    /** The last summary built, reused while the execution has not changed (asked at every snapshot). */
    private SqlExecutionSummary cached;
    private long cachedAt = -1;

    SqlExecutionSummary summary() {
        if (cached == null || cachedAt != lastChange) {
            cached = new SqlExecutionSummary(executionId, description, startTime, endTime, errorMessage,
                    physicalPlanDescription, plan, jobIds, metricValues);
            cachedAt = lastChange;
        }
        return cached;
    }
}
