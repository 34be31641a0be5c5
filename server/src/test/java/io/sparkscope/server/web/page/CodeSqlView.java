package io.sparkscope.server.web.page;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.PlanStages;
import io.sparkscope.core.sql.SparkMetricText;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.server.web.sql.PlanTimes;
import io.sparkscope.server.web.sql.SqlFindings;
import io.sparkscope.server.web.sql.SqlStatus;
import io.sparkscope.store.query.SqlQuery;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SqlView as it was written in code before sql.jte and sqlExecution.jte, kept verbatim (but for the helpers it shares with SqlView) as the reference the template's
 * page is compared with (SqlTemplateTest). {@code /apps/{appId}[/{attemptId}]/sql}: every SQL execution with its status, time, jobs, stages and worst finding;
 * {@code …/sql/{executionId}}: one execution's final plan as a graph with each operator's metrics and findings, the
 * operators with the stages that ran them, and Spark's plan text. Descriptions and plan texts come from the user's
 * code: all of it is escaped.
 */
final class CodeSqlView {
    private CodeSqlView() {
    }

    static String list(SqlQuery.Executions e, AppTabs.Live live) {
        Html h = AppTabs.page(e.app(), AppTabs.Tab.SQL, "SQL", live);
        Map<Integer, JobSummary> jobs = e.jobsById();
        Map<Integer, SqlQuery.StageBrief> latest = SqlView.latestAttempts(e.stages());
        h.raw("<section><h2 id=\"sql\">SQL executions (").t(e.executions().size()).raw(")</h2>");
        if (e.executions().isEmpty()) {
            h.raw("<p class=\"empty\">No SQL execution recorded.</p></section>");
            return AppTabs.end(h);
        }
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"sql-table\"><thead><tr><th>ID</th>"
                + "<th>Description</th><th>Status</th><th>Submitted</th><th class=\"num\">Duration</th><th>Jobs</th>"
                + "<th>Stages</th><th>Worst finding</th></tr></thead><tbody>");
        for (SqlExecutionSummary sql : e.executions()) {
            SqlStatus st = SqlStatus.of(sql, jobs);
            String href = Urls.appTab(e.app().appId(), e.app().attemptId(), "sql/" + sql.executionId());
            h.raw("<tr class=\"sql-row\" data-execution=\"").t(sql.executionId()).raw("\"><td><a href=\"").a(href)
                    .raw("\">").t(sql.executionId()).raw("</a></td><td class=\"stage-name\">");
            StageTableView.name(h, sql.description() == null || sql.description().isBlank() ? "(no description)"
                    : sql.description());
            h.raw("</td><td>");
            status(h, st.status());
            h.raw("</td><td>").t(Fmt.time(sql.startTime())).raw("</td><td class=\"num\">")
                    .t(sql.endTime() >= 0 ? Fmt.duration(sql.endTime() - sql.startTime()) : "—")
                    .raw("</td><td class=\"ids\">");
            jobLinks(h, e.app().appId(), e.app().attemptId(), sql.jobIds());
            h.raw("</td><td class=\"ids\">");
            stageLinks(h, e.app().appId(), e.app().attemptId(), sql.stageIds(), latest);
            h.raw("</td><td>");
            Finding worst = SqlFindings.worst(SqlFindings.of(sql, e.findings()));
            if (worst == null) {
                h.raw("<span class=\"muted\">—</span>");
            } else {
                Layout.severity(h, worst.severity().name());
                h.raw(" <span class=\"worst-finding\">").t(worst.title() == null ? worst.heuristic() : worst.title())
                        .raw("</span>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div></section>");
        return AppTabs.end(h);
    }

    static String execution(SqlQuery.Executions e, PlanPictures pictures, AppTabs.Live live) {
        SqlExecutionSummary sql = e.executions().get(0);
        String appId = e.app().appId();
        String attemptId = e.app().attemptId();
        Html h = AppTabs.page(e.app(), AppTabs.Tab.SQL, "SQL " + sql.executionId(), live);
        SqlStatus st = SqlStatus.of(sql, e.jobsById());
        List<Finding> findings = SqlFindings.of(sql, e.findings());
        Map<Long, List<Finding>> byNode = SqlFindings.byNode(sql.executionId(), findings);
        h.raw("<section class=\"sql-head\"><h2 id=\"sql-execution\">Query ").t(sql.executionId()).raw(" ");
        status(h, st.status());
        h.raw("</h2><p class=\"sql-description\">");
        StageTableView.name(h, sql.description() == null || sql.description().isBlank() ? "(no description)"
                : sql.description());
        h.raw("</p><dl class=\"facts\"><dt>Submitted</dt><dd>").t(Fmt.time(sql.startTime()))
                .raw("</dd><dt>Duration</dt><dd>").t(sql.endTime() >= 0 ? Fmt.duration(sql.endTime() - sql.startTime())
                        : "running").raw("</dd><dt>Jobs</dt><dd>");
        jobLinks(h, appId, attemptId, sql.jobIds());
        h.raw("</dd><dt>Stages</dt><dd>");
        stageLinks(h, appId, attemptId, sql.stageIds(), SqlView.latestAttempts(e.stages()));
        h.raw("</dd></dl>");
        if (sql.errorMessage() != null && !sql.errorMessage().isBlank()) {
            JobsView.reason(h, sql.errorMessage());
        }
        h.raw("</section>");

        if (!findings.isEmpty()) {
            h.raw("<section><h2 id=\"sql-findings\">Findings on this query (").t(findings.size()).raw(")</h2><ul class=\"sql-findings\">");
            for (Finding f : findings) {
                h.raw("<li class=\"").raw(f.severity() == Severity.HIGH ? "sev-high" : "sev-low").raw("\">");
                Layout.severity(h, f.severity().name());
                h.raw(" <strong>").t(f.title() == null ? f.heuristic() : f.title()).raw("</strong>");
                for (Finding.PlanNodeRef r : f.planNodes()) {
                    if (r.sqlExecutionId() == sql.executionId()) {
                        h.raw(" <a class=\"node-link\" href=\"#node-").t(r.nodeId()).raw("\">").t(r.nodeName())
                                .raw(" (").t(r.nodeId()).raw(")</a>");
                    }
                }
                if (f.message() != null) {
                    h.raw("<div class=\"finding-message\">").t(f.message()).raw("</div>");
                }
                h.raw("</li>");
            }
            h.raw("</ul></section>");
        }

        h.raw("<section><h2 id=\"plan\">Plan</h2>");
        if (sql.plan() == null) {
            h.raw("<p class=\"empty\">The source did not carry this execution's plan graph.</p>");
        } else {
            PlanPictures.Picture p = pictures.of(sql, byNode.keySet());
            h.raw("<p class=\"muted small\">The final plan (after adaptive re-planning), as Spark's SQL tab draws it:"
                    + " tinted boxes are whole-stage-codegen clusters, blue ones exchanges (stage boundaries); values"
                    + " are totals with (min, med, max) per task.</p>");
            PlanSvg.render(h, p, byNode);
            operators(h, sql, p.graph(), p.times(), byNode, appId, attemptId, e.stages());
        }
        h.raw("</section>");
        String self = attemptId == null ? appId : appId + "/" + attemptId;
        h.raw("<section><form class=\"sql-compare-form\" method=\"get\" action=\"/compare/sql\">"
                + "<input type=\"hidden\" name=\"apps\" value=\"").a(self)
                .raw("\"><input type=\"hidden\" name=\"execution\" value=\"").t(sql.executionId())
                .raw("\"><label>Compare this query with another run: <input type=\"text\" name=\"apps\""
                        + " placeholder=\"application id\" required></label> <button class=\"btn\">Compare</button>"
                        + "</form></section>");
        if (sql.physicalPlanDescription() != null && !sql.physicalPlanDescription().isBlank()) {
            h.raw("<section><details class=\"plan-text\" id=\"plan-text\"><summary>Plan text</summary><pre>")
                    .t(sql.physicalPlanDescription()).raw("</pre></details></section>");
        }
        return AppTabs.end(h);
    }

    /** Each drawn node: its id, name, cluster, stages and every metric in Spark's own words, and its findings. */
    private static void operators(Html h, SqlExecutionSummary sql, PlanGraph graph, PlanTimes times,
                                  Map<Long, List<Finding>> byNode, String appId, String attemptId,
                                  List<SqlQuery.StageBrief> stages) {
        PlanStages ran = PlanStages.of(graph, sql);
        Map<Long, PlanGraph.Node> byId = graph.byId();
        // once per page, not once per operator: a plan of a thousand operators over hundreds of stages
        Map<Integer, SqlQuery.StageBrief> latest = SqlView.latestAttempts(stages);
        h.raw("<h3 id=\"operators\">Operators</h3><div class=\"table-scroll\"><table class=\"grid\" id=\"operator-table\">"
                + "<thead><tr><th>Node</th><th>Operator</th><th>Stages</th><th class=\"num\">Time (share)</th><th>Metrics</th><th>Findings</th></tr>"
                + "</thead><tbody>");
        for (PlanGraph.Node n : graph.nodes()) {
            h.raw("<tr class=\"operator-row").raw(n.cluster() ? " cluster" : "").raw("\" id=\"node-").t(n.id())
                    .raw("\"><td>").t(n.id()).raw("</td><td class=\"stage-name\">");
            StageTableView.name(h, n.name());
            if (!n.description().isBlank() && !n.description().strip().equals(n.name().strip())) {
                h.raw("<div class=\"muted small op-description\">");
                SqlView.opText(h, n.description());
                h.raw("</div>");
            }
            if (n.clusterId() >= 0 && byId.containsKey(n.clusterId())) {
                h.raw("<div class=\"muted small\">in ").t(byId.get(n.clusterId()).name().strip()).raw("</div>");
            }
            h.raw("</td><td class=\"ids\">");
            stageLinks(h, appId, attemptId, ran.stagesOf(n.id()), latest);
            h.raw("</td>");
            SqlView.opTime(h, times.of(n.id()));
            h.raw("<td>");
            boolean any = false;
            for (PlanMetric m : n.metrics()) {
                SqlMetricAggregate a = sql.metrics().get(m.accumulatorId());
                String text = a == null ? null : SparkMetricText.of(a);
                if (text == null) {
                    continue;
                }
                any = true;
                h.raw("<div class=\"metric\"><span class=\"metric-name\">").t(m.name() == null ? "" : m.name().strip())
                        .raw("</span> <span class=\"metric-value\">").t(text.replace('\n', ' ').strip())
                        .raw(a.exact() ? "" : " ≈").raw("</span></div>");
            }
            if (!any) {
                h.raw("<span class=\"muted\">—</span>");
            }
            h.raw("</td><td>");
            List<Finding> on = byNode.getOrDefault(n.id(), List.of());
            for (Finding f : on) {
                h.raw("<div class=\"node-finding ").raw(f.severity() == Severity.HIGH ? "sev-high" : "sev-low")
                        .raw("\">");
                Layout.severity(h, f.severity().name());
                h.raw(" ").t(f.title() == null ? f.heuristic() : f.title()).raw("</div>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div>");
    }

    /** Job ids in ascending order, each a link to its row in the jobs tab. */
    private static void jobLinks(Html h, String appId, String attemptId, List<Integer> ids) {
        List<Integer> sorted = Links.sorted(ids);
        if (sorted.isEmpty()) {
            h.raw("<span class=\"muted\">—</span>");
            return;
        }
        for (int i = 0; i < sorted.size(); i++) {
            h.raw(i > 0 ? ", " : "").raw("<a class=\"job-ref\" href=\"").a(Links.job(appId, attemptId, sorted.get(i)))
                    .raw("\">").t(sorted.get(i)).raw("</a>");
        }
    }

    /** Stage ids in ascending order, each a link to its latest attempt's page with its name in the hover text. */
    private static void stageLinks(Html h, String appId, String attemptId, List<Integer> unsorted,
                                   Map<Integer, SqlQuery.StageBrief> latest) {
        List<Integer> ids = Links.sorted(unsorted);
        if (ids.isEmpty()) {
            h.raw("<span class=\"muted\">—</span>");
            return;
        }
        boolean first = true;
        for (int id : ids) {
            h.raw(first ? "" : ", ");
            first = false;
            SqlQuery.StageBrief s = latest.get(id);
            if (s == null) {
                h.raw("<span class=\"stage-ref\">").t(id).raw("</span>");
            } else {
                h.raw("<a class=\"stage-ref\" href=\"").a(Links.stage(appId, attemptId, s.stageId(), s.attemptId()))
                        .raw("\" title=\"").a(s.name() == null ? "" : s.name()).raw("\">").t(id).raw("</a>");
            }
        }
    }


    private static void status(Html h, String status) {
        String s = status.toLowerCase(Locale.ROOT);
        h.raw("<span class=\"job-status st-").raw(s.equals("completed") ? "succeeded" : s).raw("\">").t(s)
                .raw("</span>");
    }

}
