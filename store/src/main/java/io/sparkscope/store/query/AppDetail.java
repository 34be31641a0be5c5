package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;

import java.util.List;
import java.util.Map;

/**
 * What the application page, compare and the detail API show: the application row, its configuration by scope
 * (spark, jvm, system, hadoop; sorted by key), its stage attempts in recorded order and its findings.
 */
public record AppDetail(
        AppHeader header,
        Map<String, Map<String, String>> config,
        List<StageRow> stages,
        List<Finding> findings) {

    public Map<String, String> sparkConfig() {
        return config.getOrDefault("spark", Map.of());
    }
}
