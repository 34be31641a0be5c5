package io.sparkscope.server.web.api;

import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.sql.SqlComparison;
import io.sparkscope.store.query.AppRefs;

import java.util.List;

/**
 * The JSON of {@code /api/v1/compare/sql}: the two runs' queries, then every operator of either plan with its node
 * in each (null where that plan has none) and each metric's Spark text and total in both runs. {@code differs} is
 * the page's highlight: a total changed by more than {@code changeThreshold} of the baseline's, or only one run
 * has it.
 */
record SqlCompareJson(List<Query> queries, double changeThreshold, int operatorsDiffering, List<Operator> operators) {

    /** One run's side: the application, its query and the page that shows it. */
    record Query(String appId, String attemptId, String appName, long executionId, String description,
                 long startTime, Long durationMs, String url, boolean baseline) {
        static Query of(AppRefs.Resolved app, SqlExecutionSummary sql, boolean baseline) {
            return new Query(app.appId(), app.attemptId(), app.name(), sql.executionId(), sql.description(),
                    sql.startTime(), sql.endTime() >= 0 ? sql.endTime() - sql.startTime() : null,
                    Urls.appTab(app.appId(), app.attemptId(), "sql/" + sql.executionId()), baseline);
        }
    }

    /** @param onlyIn "baseline" or "other" when just one plan has the operator, else null */
    record Operator(String name, Long baselineNodeId, Long otherNodeId, String onlyIn, boolean differs,
                    List<Metric> metrics) {
        static Operator of(SqlComparison.OperatorPair p) {
            List<Metric> metrics = p.metrics().stream().map(Metric::of).toList();
            String onlyIn = p.other() == null ? "baseline" : p.baseline() == null ? "other" : null;
            return new Operator(p.name(), id(p.baseline()), id(p.other()), onlyIn,
                    onlyIn != null || metrics.stream().anyMatch(Metric::differs), metrics);
        }

        private static Long id(PlanGraph.Node n) {
            return n == null ? null : n.id();
        }
    }

    /** @param baseline Spark's text of the metric in the baseline run (null: not reported there) */
    record Metric(String name, String baseline, String other, Long baselineTotal, Long otherTotal, boolean differs) {
        static Metric of(SqlComparison.MetricPair m) {
            return new Metric(m.name(), m.baseline(), m.other(), m.baselineTotal(), m.otherTotal(), m.differs());
        }
    }

    static SqlCompareJson of(SqlData.Pair p) {
        SqlExecutionSummary a = SqlData.only(p.baseline());
        SqlExecutionSummary b = SqlData.only(p.other());
        List<Operator> ops = SqlComparison.of(a, b).stream().map(Operator::of).toList();
        return new SqlCompareJson(List.of(Query.of(p.baseline().app(), a, true), Query.of(p.other().app(), b, false)),
                SqlComparison.CHANGED, (int) ops.stream().filter(Operator::differs).count(), ops);
    }
}
