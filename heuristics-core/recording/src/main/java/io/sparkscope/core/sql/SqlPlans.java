package io.sparkscope.core.sql;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The SQL executions of an application with their plan graphs and which stage ran which operator, so that a
 * heuristic judging a stage can name the operator behind it ("the sort that spills"). Built once per analysis.
 */
public final class SqlPlans {
    /** One execution: its graph and its node-stage mapping. */
    public record Plan(SqlExecutionSummary sql, PlanGraph graph, PlanStages stages) {
    }

    /** An operator of an execution. */
    public record Operator(SqlExecutionSummary sql, PlanGraph.Node node) {
        /** The value Spark aggregated for this operator's metric named {@code name} (case-insensitive prefix). */
        public SqlMetricAggregate metric(String name) {
            String want = name.toLowerCase(Locale.ROOT);
            for (var m : node.metrics()) {
                String n = m.name() == null ? "" : m.name().toLowerCase(Locale.ROOT).trim();
                if (n.startsWith(want)) {
                    SqlMetricAggregate a = sql.metrics().get(m.accumulatorId());
                    if (a != null) {
                        return a;
                    }
                }
            }
            return null;
        }
    }

    private final List<Plan> plans;
    private final Map<Integer, List<Operator>> byStage = new HashMap<>();

    private SqlPlans(List<Plan> plans) {
        this.plans = plans;
        for (Plan p : plans) {
            for (int stage : p.stages().stages()) {
                for (long nodeId : p.stages().nodesOf(stage)) {
                    PlanGraph.Node n = p.graph().node(nodeId);
                    if (n != null) {
                        byStage.computeIfAbsent(stage, k -> new ArrayList<>()).add(new Operator(p.sql(), n));
                    }
                }
            }
        }
    }

    /**
     * The last application's plans: the heuristics of one analysis ask for the same snapshot in turn. Held weakly,
     * so a finished analysis keeps nothing alive but the plans of its last application.
     */
    private record Cached(java.lang.ref.WeakReference<AppSnapshot> app, SqlPlans plans) {
    }

    private static volatile Cached last;
    /**
     * The widest recent build, besides the last one: a live recorder diagnoses each SQL execution leaving its window
     * on a snapshot holding that one execution, between two diagnoses of the whole window. Were the last build the
     * only one kept, each such one-execution snapshot would drop the window's graphs and the next diagnosis of the
     * window would lay out all of them (up to a thousand) again. A build replaces it unless it holds fewer than half
     * as many plans, so it follows a window that shrinks and keeps at most one more application's plans alive.
     */
    private static volatile SqlPlans widest;

    /** An application without SQL executions has no plans. */
    private static final SqlPlans NONE = new SqlPlans(List.of());

    public static SqlPlans of(AppSnapshot app) {
        if (app.sqlExecutions().isEmpty()) {
            // A live recorder's last look at leaving stages holds no SQL execution, and neither does the context
            // those looks are diagnosed against: answer at once, and leave the caches to the snapshots with plans,
            // so the window's next diagnosis still takes its graphs over from the last build.
            return NONE;
        }
        Cached c = last;
        if (c != null && c.app().get() == app) {
            return c.plans();
        }
        SqlPlans wide = widest;
        SqlPlans built = build(app, c == null ? null : c.plans(), wide);
        last = new Cached(new java.lang.ref.WeakReference<>(app), built);
        if (wide == null || built.plans.size() >= wide.plans.size() / 2) {
            widest = built;
        }
        return built;
    }

    /**
     * @param previous the plans built for the last application asked for, or null: a running application's next
     *                 snapshot carries the same (unchanged, cached) summary objects for the executions that did not
     *                 change, so their graphs are taken over instead of being laid out again at every flush
     * @param wide     the widest recent build ({@link #widest}), or null: taken over from in the same way
     */
    private static SqlPlans build(AppSnapshot app, SqlPlans previous, SqlPlans wide) {
        Map<SqlExecutionSummary, Plan> before = new java.util.IdentityHashMap<>();
        for (SqlPlans earlier : new SqlPlans[]{wide, previous}) {
            if (earlier != null) {
                for (Plan p : earlier.plans) {
                    before.put(p.sql(), p);
                }
            }
        }
        List<Plan> plans = new ArrayList<>();
        for (SqlExecutionSummary sql : app.sqlExecutions()) {
            if (sql.plan() == null) {
                continue;
            }
            Plan same = before.get(sql);
            if (same != null) {
                plans.add(same);
                continue;
            }
            PlanGraph g = PlanGraph.of(sql.plan());
            plans.add(new Plan(sql, g, PlanStages.of(g, sql)));
        }
        return new SqlPlans(plans);
    }

    public List<Plan> plans() {
        return plans;
    }

    /** The operators the stage ran (clusters left out), by execution then node id. */
    public List<Operator> operators(int stageId) {
        List<Operator> out = new ArrayList<>();
        for (Operator o : byStage.getOrDefault(stageId, List.of())) {
            if (!o.node().cluster()) {
                out.add(o);
            }
        }
        return out;
    }

    /** The stage's operators whose name matches. */
    public List<Operator> operators(int stageId, Predicate<String> name) {
        List<Operator> out = new ArrayList<>();
        for (Operator o : operators(stageId)) {
            if (name.test(o.node().name())) {
                out.add(o);
            }
        }
        return out;
    }

    /** The graph node declaring this accumulator in the execution's plan, or null. */
    public static PlanGraph.Node nodeOfMetric(PlanGraph graph, long accumulatorId) {
        for (PlanGraph.Node n : graph.nodes()) {
            for (var m : n.metrics()) {
                if (m.accumulatorId() == accumulatorId) {
                    return n;
                }
            }
        }
        return null;
    }
}
