package io.sparkscope.server.web.sql;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.SqlExecutionSummary;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which findings belong to a SQL execution and to which of its plan nodes: a finding that names operators of the
 * execution ({@link Finding#planNodes()}) sits on those nodes; one that names only stages belongs to the executions
 * whose jobs ran those stages.
 */
public final class SqlFindings {
    private SqlFindings() {
    }

    /** The findings about this execution: naming one of its nodes, or one of its stages. */
    public static List<Finding> of(SqlExecutionSummary sql, List<Finding> findings) {
        Set<String> stages = new HashSet<>();
        sql.stageIds().forEach(s -> stages.add(String.valueOf(s)));
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            boolean onNode = f.planNodes().stream().anyMatch(r -> r.sqlExecutionId() == sql.executionId());
            boolean onStage = f.stageIds().stream().anyMatch(s -> stages.contains(stageOnly(s)));
            if (onNode || onStage) {
                out.add(f);
            }
        }
        return out;
    }

    /** The most severe finding, the first of equals; null when there is none. */
    public static Finding worst(List<Finding> findings) {
        Finding worst = null;
        for (Finding f : findings) {
            if (worst == null || f.severity() == Severity.HIGH && worst.severity() != Severity.HIGH) {
                worst = f;
            }
        }
        return worst;
    }

    /** Node id → the findings placed on it, for one execution. */
    public static Map<Long, List<Finding>> byNode(long executionId, List<Finding> findings) {
        Map<Long, List<Finding>> out = new LinkedHashMap<>();
        for (Finding f : findings) {
            for (Finding.PlanNodeRef r : f.planNodes()) {
                if (r.sqlExecutionId() == executionId) {
                    List<Finding> on = out.computeIfAbsent(r.nodeId(), k -> new ArrayList<>());
                    if (!on.contains(f)) {
                        on.add(f);
                    }
                }
            }
        }
        return out;
    }

    /** "14" of a stage id as findings write it, "14" or "14.1" (stage . attempt). */
    private static String stageOnly(String s) {
        int dot = s.indexOf('.');
        return dot < 0 ? s : s.substring(0, dot);
    }
}
