package io.sparkscope.server.web.page;

import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.sql.SqlComparison;
import io.sparkscope.store.query.AppRefs;

import java.util.List;

/**
 * SqlCompareView as it was written in code before sqlCompare.jte, kept verbatim as the reference the template's
 * page is compared with (SqlTemplateTest). {@code /compare/sql?apps=A,B&execution=N[&otherExecution=M]}: one query in two runs (by default the other run's
 * query at the same place in its order), operator by operator, each
 * metric's Spark text in both; a metric whose total changed by more than a fifth (or that only one run reported)
 * and an operator only one plan has are highlighted (class "differs").
 */
final class CodeSqlCompareView {
    private CodeSqlCompareView() {
    }

    static String render(SqlData.Pair p) {
        SqlExecutionSummary a = SqlData.only(p.baseline());
        SqlExecutionSummary b = SqlData.only(p.other());
        Html h = Layout.start("Compare SQL " + a.executionId(), "Compare");
        h.raw("<h1>Query ").t(a.executionId()).raw(" in two runs</h1><p class=\"muted\">The first run is the baseline;"
                + " highlighted: metric totals changed by more than 20 % against it (the change in percent beside the"
                + " other run's), and operators only one plan has.</p><div class=\"table-scroll\"><table class=\"grid sql-compare\" id=\"sql-compare\"><thead><tr>"
                + "<th>Operator</th><th>Metric</th>");
        head(h, p.baseline().app(), a, true);
        head(h, p.other().app(), b, false);
        h.raw("</tr></thead><tbody>");
        List<SqlComparison.OperatorPair> pairs = SqlComparison.of(a, b);
        for (SqlComparison.OperatorPair op : pairs) {
            boolean onlyOne = op.baseline() == null || op.other() == null;
            int rows = Math.max(1, op.metrics().size());
            h.raw("<tr class=\"op-pair").raw(onlyOne ? " differs" : "").raw("\"><td rowspan=\"").t(rows)
                    .raw("\" class=\"stage-name\">");
            StageTableView.name(h, op.name());
            h.raw("<div class=\"muted small\">").t(op.baseline() == null ? "—" : "node " + op.baseline().id())
                    .t(" / ").t(op.other() == null ? "—" : "node " + op.other().id()).raw("</div></td>");
            if (op.metrics().isEmpty()) {
                h.raw("<td class=\"muted\">—</td><td></td><td></td></tr>");
                continue;
            }
            boolean first = true;
            for (SqlComparison.MetricPair m : op.metrics()) {
                if (!first) {
                    h.raw("<tr class=\"op-pair-more\">");
                }
                first = false;
                h.raw("<td class=\"metric-name\">").t(m.name()).raw("</td><td class=\"metric-value")
                        .raw(m.differs() ? " differs" : "").raw("\">").t(m.baseline() == null ? "—" : m.baseline())
                        .raw("</td><td class=\"metric-value").raw(m.differs() ? " differs" : "").raw("\">")
                        .t(m.other() == null ? "—" : m.other())
                        .raw(m.change().isEmpty() ? "" : " <span class=\"delta\">").t(m.change())
                        .raw(m.change().isEmpty() ? "" : "</span>").raw("</td></tr>");
            }
        }
        h.raw("</tbody></table></div>");
        return Layout.end(h);
    }

    private static void head(Html h, AppRefs.Resolved app, SqlExecutionSummary sql, boolean baseline) {
        h.raw("<th class=\"run\"><a href=\"").a(Urls.appTab(app.appId(), app.attemptId(), "sql/" + sql.executionId()))
                .raw("\">").t(app.name() == null ? app.appId() : app.name()).raw("</a><div class=\"muted\">")
                .t(app.attemptId() == null ? app.appId() : app.appId() + "/" + app.attemptId()).raw("<br>")
                .t(Fmt.time(sql.startTime())).raw(" · ")
                .t(sql.endTime() >= 0 ? Fmt.duration(sql.endTime() - sql.startTime()) : "running")
                .raw(baseline ? "<br><em>baseline</em>" : "").raw("</div></th>");
    }
}
