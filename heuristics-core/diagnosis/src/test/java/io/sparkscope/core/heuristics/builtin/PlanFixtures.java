package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.sql.PlanGraph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static io.sparkscope.core.testing.SnapshotBuilder.copy;

/**
 * Plans for the partitioning tests: a leaf under an operator that carries one metric, so that the operator is mapped
 * to the stages the metric names, as Spark's SQL tab maps it.
 */
final class PlanFixtures {
    private PlanFixtures() {
    }

    /** An operator with one metric of this accumulator id over {@code child}. */
    static PlanNode node(String name, String text, long accumulatorId, PlanNode... children) {
        return new PlanNode(name, text, List.of(children), accumulatorId < 0 ? List.of()
                : List.of(new PlanMetric("number of output rows", accumulatorId, "sum")));
    }

    /**
     * The snapshot with one SQL execution of this plan, each accumulator reported by the stages given, every job of
     * the snapshot running for it.
     */
    static AppSnapshot withPlan(AppSnapshot app, long executionId, PlanNode plan, Map<Long, List<Integer>> stagesByMetric) {
        Map<Long, SqlMetricAggregate> metrics = new HashMap<>();
        stagesByMetric.forEach((acc, stages) -> metrics.put(acc, SqlMetricAggregate.builder().accumulatorId(acc)
                .metricType("sum").count(1).total(1).stageIds(stages).build()));
        return copy(app).sqlExecutions(List.of(SqlExecutionSummary.builder().executionId(executionId)
                .description("query").plan(plan).metrics(metrics).build())).build();
    }

    /** The snapshot with one stage changed. */
    static AppSnapshot changeStage(AppSnapshot app, int stageId, UnaryOperator<StageSummary.Builder> change) {
        List<StageSummary> stages = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            stages.add(s.stageId() == stageId ? change.apply(s.toBuilder()).build() : s);
        }
        return copy(app).stages(stages).build();
    }

    /** The id Spark's SQL tab gives the first node of this name. */
    static long nodeId(PlanNode plan, String name) {
        return PlanGraph.of(plan).nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow().id();
    }
}
