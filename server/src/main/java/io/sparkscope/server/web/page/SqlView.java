package io.sparkscope.server.web.page;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.server.web.sql.PlanTimes;
import io.sparkscope.server.web.sql.SqlFindings;
import io.sparkscope.server.web.sql.SqlStatus;
import io.sparkscope.store.query.SqlQuery;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /apps/{appId}[/{attemptId}]/sql}: every SQL execution with its status, time, jobs, stages and worst finding;
 * {@code …/sql/{executionId}}: one execution's final plan as a graph with each operator's metrics and findings, the
 * operators with the stages that ran them, and Spark's plan text. Descriptions and plan texts come from the user's
 * code: all of it is escaped. The markup is sql.jte and sqlExecution.jte.
 */
final class SqlView {
    private SqlView() {
    }

    static String list(SqlQuery.Executions e, AppTabs.Live live) {
        Html h = new Html(16 * 1024);
        JtesqlGenerated.render(new PageOutput(h), null, e, live);
        return h.toString();
    }

    static String execution(SqlQuery.Executions e, PlanPictures pictures, AppTabs.Live live) {
        SqlExecutionSummary sql = e.executions().get(0);
        List<Finding> findings = SqlFindings.of(sql, e.findings());
        Map<Long, List<Finding>> byNode = SqlFindings.byNode(sql.executionId(), findings);
        // the plan laid out (or its layout kept from an earlier page) before the page is written
        PlanPictures.Picture p = sql.plan() == null ? null : pictures.of(sql, byNode.keySet());
        Html h = new Html(16 * 1024);
        JtesqlExecutionGenerated.render(new PageOutput(h), null, e, sql, SqlStatus.of(sql, e.jobsById()).status(),
                findings, byNode, p == null ? null : p.graph(),
                p == null ? null : PageOutput.markup(out -> PlanSvg.render(out, p, byNode)),
                p == null ? null : p.times(), live);
        return h.toString();
    }

    /** An operator's text made short to read, Spark's own on hover (opText.jte). */
    static void opText(Html h, String raw) {
        JteopTextGenerated.render(new PageOutput(h), null, raw);
    }

    /** An operator's share of the query's measured time as a table cell (opTime.jte). */
    static void opTime(Html h, PlanTimes.Share share) {
        JteopTimeGenerated.render(new PageOutput(h), null, share);
    }

    /** What a page calls an execution: its description, or "(no description)". */
    static String description(SqlExecutionSummary sql) {
        return sql.description() == null || sql.description().isBlank() ? "(no description)" : sql.description();
    }

    /** Each stage's latest attempt, which its link opens. */
    static Map<Integer, SqlQuery.StageBrief> latestAttempts(List<SqlQuery.StageBrief> stages) {
        Map<Integer, SqlQuery.StageBrief> latest = new HashMap<>();
        for (SqlQuery.StageBrief s : stages) {
            SqlQuery.StageBrief had = latest.get(s.stageId());
            if (had == null || had.attemptId() < s.attemptId()) {
                latest.put(s.stageId(), s);
            }
        }
        return latest;
    }

    /** Job or stage ids as "1, 2, 3", "—" for none. */
    static String ids(List<Integer> ids) {
        if (ids.isEmpty()) {
            return "—";
        }
        StringBuilder sb = new StringBuilder();
        for (int i : ids) {
            sb.append(sb.length() == 0 ? "" : ", ").append(i);
        }
        return sb.toString();
    }
}
