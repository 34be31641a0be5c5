package io.sparkscope.server.web.api;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SparkMetricText;
import io.sparkscope.ingest.fetch.SparkDates;
import io.sparkscope.server.web.sql.SqlStatus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v1/apps/{id}/sql[/{executionId}]} in the shape of Spark's REST API ({@code ExecutionData} of
 * {@code SqlResource}, Spark 4.0): the execution's status from its jobs', its plan text, and with {@code details}
 * the plan graph's nodes (highest id first) with Spark's metric texts and its edges. Fields Spark leaves out (a
 * missing description, a node outside any codegen cluster) are left out here too, so the answers compare equal.
 */
public final class SqlJson {
    private SqlJson() {
    }

    /**
     * @param jobs the application's jobs by id (their statuses make the execution's)
     * @param now  epoch ms, for the duration of an execution still running (Spark counts up to now too)
     */
    public static Map<String, Object> execution(SqlExecutionSummary sql, Map<Integer, JobSummary> jobs,
                                                boolean details, boolean planDescription, long now) {
        SqlStatus st = SqlStatus.of(sql, jobs);
        boolean ended = sql.endTime() >= 0;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", sql.executionId());
        m.put("status", st.status());
        put(m, "description", sql.description());
        if (planDescription) {
            put(m, "planDescription", sql.physicalPlanDescription());
        } else {
            m.put("planDescription", "");
        }
        m.put("submissionTime", SparkDates.format(sql.startTime()));
        m.put("duration", (ended ? sql.endTime() : now) - sql.startTime());
        m.put("runningJobIds", st.running());
        m.put("successJobIds", st.succeeded());
        m.put("failedJobIds", st.failed());
        PlanGraph graph = details ? PlanGraph.of(sql.plan()) : PlanGraph.EMPTY;
        m.put("nodes", nodes(graph, sql.metrics()));
        List<Map<String, Object>> edges = new ArrayList<>();
        for (PlanGraph.Edge e : graph.edges()) {
            Map<String, Object> em = new LinkedHashMap<>();
            em.put("fromId", e.fromId());
            em.put("toId", e.toId());
            edges.add(em);
        }
        m.put("edges", edges);
        return m;
    }

    private static List<Map<String, Object>> nodes(PlanGraph graph, Map<Long, SqlMetricAggregate> metrics) {
        List<Map<String, Object>> out = new ArrayList<>();
        Map<Long, PlanGraph.Node> byId = graph.byId();
        for (PlanGraph.Node n : graph.nodesByIdDescending()) {
            Map<String, Object> nm = new LinkedHashMap<>();
            nm.put("nodeId", n.id());
            nm.put("nodeName", n.name().trim());
            if (n.clusterId() >= 0) {
                long wscg = byId.get(n.clusterId()).codegenId();
                if (wscg >= 0) {
                    nm.put("wholeStageCodegenId", wscg);
                }
            }
            List<Map<String, Object>> ms = new ArrayList<>();
            for (PlanMetric pm : n.metrics()) {
                SqlMetricAggregate a = metrics.get(pm.accumulatorId());
                String value = a == null ? null : SparkMetricText.rest(a);
                if (value != null) {
                    Map<String, Object> mm = new LinkedHashMap<>();
                    mm.put("name", pm.name() == null ? "" : pm.name().trim());
                    mm.put("value", value);
                    ms.add(mm);
                }
            }
            nm.put("metrics", ms);
            out.add(nm);
        }
        return out;
    }

    private static void put(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
