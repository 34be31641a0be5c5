package io.sparkscope.server.web;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.server.web.sql.SyntheticPlans;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stores one synthetic application with one SQL execution whose plan has about {@code operators} graph nodes (joins
 * of scans in codegen clusters with exchanges, {@link SyntheticPlans}) and an aggregate for every metric, for the SQL
 * page bench (bench/sql-page-latency.sh): {@code SqlPlanLoad <jdbc-url> <user> <password> <operators>}. Its id is
 * {@code app-big-plan}; the execution is 0.
 */
public final class SqlPlanLoad {
    public static void main(String[] args) throws Exception {
        int operators = Integer.parseInt(args[3]);
        try (var ds = StoreDataSources.pooled(args[0], args[1], args[2], 2)) {
            SchemaManager.migrate(ds);
            var spec = SnapshotBuilder.syntheticSpec("app-big-plan", "big plan", "bench",
                    System.currentTimeMillis() - 3_600_000L, 1_800_000L);
            AppSnapshot s = SnapshotBuilder.synthetic(spec);
            new SnapshotWriter().write(ds, withPlan(s, operators), List.of());
        }
    }

    /** The application with one SQL execution over all its jobs and stages, its plan of about that many nodes. */
    static AppSnapshot withPlan(AppSnapshot s, int operators) {
        PlanNode plan = SyntheticPlans.plan(operators, 1000);
        Map<Long, SqlMetricAggregate> metrics = new HashMap<>();
        List<Integer> stages = new ArrayList<>();
        s.stages().forEach(st -> stages.add(st.stageId()));
        aggregates(plan, metrics, stages.isEmpty() ? 0 : stages.get(0));
        List<Integer> jobs = new ArrayList<>();
        s.jobs().forEach(j -> jobs.add(j.jobId()));
        SqlExecutionSummary sql = SqlExecutionSummary.builder().description("big plan <query>")
                .startTime(s.startTime() + 1000).endTime(s.startTime() + 60_000)
                .physicalPlanDescription("== Physical Plan ==\n(synthetic)").plan(plan).jobIds(jobs).metrics(metrics)
                .stageIds(stages).build();
        return SnapshotBuilder.copy(s).sqlExecutions(List.of(sql)).build();
    }

    private static void aggregates(PlanNode n, Map<Long, SqlMetricAggregate> out, int stage) {
        for (PlanMetric m : n.metrics()) {
            long id = m.accumulatorId();
            long v = 1000 + id * 37;
            out.put(id, new SqlMetricAggregate(id, m.metricType(), v * 8, 8, v / 2, v, v, v * 2, stage, 0, id, 8, true,
                    List.of(stage)));
        }
        n.children().forEach(c -> aggregates(c, out, stage));
    }
}
