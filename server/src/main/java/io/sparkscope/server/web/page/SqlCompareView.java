package io.sparkscope.server.web.page;

import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.sql.SqlComparison;

/**
 * {@code /compare/sql?apps=A,B&execution=N[&otherExecution=M]}: one query in two runs (by default the other run's
 * query at the same place in its order), operator by operator, each
 * metric's Spark text in both; a metric whose total changed by more than a fifth (or that only one run reported)
 * and an operator only one plan has are highlighted (class "differs"). The markup is sqlCompare.jte.
 */
final class SqlCompareView {
    private SqlCompareView() {
    }

    static String render(SqlData.Pair p) {
        SqlExecutionSummary a = SqlData.only(p.baseline());
        SqlExecutionSummary b = SqlData.only(p.other());
        Html h = new Html(16 * 1024);
        JtesqlCompareGenerated.render(new PageOutput(h), null, p, a, b, SqlComparison.of(a, b));
        return h.toString();
    }
}
