package io.sparkscope.store;

import java.util.List;
import java.util.Objects;

/**
 * A heuristic finding as the store keeps it. The heuristics module's {@code Finding} is mapped to this by the caller
 * so the store does not depend on the heuristics API.
 *
 * @param id          unique within the application (the natural key with the app), stable across re-analyses so
 *                    a rewrite updates rather than duplicates
 * @param severity    "LOW" or "HIGH" (green = no finding)
 * @param stageIds    stage keys as the heuristic names them (e.g. "3" or "3.1")
 * @param detailsJson a JSON object with the heuristic's numbers, or null. Stored as jsonb, so it comes back in
 *                    PostgreSQL's canonical form (key order and spacing may differ; equal as JSON)
 */
public record StoredFinding(
        String id,
        String heuristic,
        String severity,
        String title,
        String message,
        String recommendation,
        List<String> stageIds,
        List<String> executorIds,
        List<String> configKeys,
        String detailsJson) {

    public StoredFinding {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(heuristic, "heuristic");
        if (!"LOW".equals(severity) && !"HIGH".equals(severity)) {
            throw new IllegalArgumentException("severity must be LOW or HIGH, got " + severity + " for finding " + id);
        }
        stageIds = stageIds == null ? List.of() : List.copyOf(stageIds);
        executorIds = executorIds == null ? List.of() : List.copyOf(executorIds);
        configKeys = configKeys == null ? List.of() : List.copyOf(configKeys);
    }

    /** HIGH over LOW over none (null), for application.worst_severity. */
    public static String worst(List<StoredFinding> findings) {
        String worst = null;
        for (StoredFinding f : findings) {
            if ("HIGH".equals(f.severity())) {
                return "HIGH";
            }
            worst = "LOW";
        }
        return worst;
    }
}
