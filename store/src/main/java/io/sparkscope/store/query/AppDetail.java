package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;

import java.util.List;
import java.util.Map;

/**
 * What the application page, compare and the detail API show: the application row, its configuration by scope
 * (spark, jvm, system, hadoop; sorted by key), its stage attempts in recorded order, its findings, and by stage id the
 * SQL plan operators each stage ran.
 */
public record AppDetail(
        AppHeader header,
        Map<String, Map<String, String>> config,
        List<StageRow> stages,
        List<Finding> findings,
        Map<Integer, List<SqlQuery.StageOperator>> stageOperators) {

    public AppDetail {
        stageOperators = stageOperators == null ? Map.of() : Map.copyOf(stageOperators);
    }

    public AppDetail(AppHeader header, Map<String, Map<String, String>> config, List<StageRow> stages,
                     List<Finding> findings) {
        this(header, config, stages, findings, Map.of());
    }

    public Map<String, String> sparkConfig() {
        return config.getOrDefault("spark", Map.of());
    }
}
