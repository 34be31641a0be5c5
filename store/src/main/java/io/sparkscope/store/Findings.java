package io.sparkscope.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.heuristics.Finding;

import java.util.List;

/** Heuristic findings into the store's form. */
public final class Findings {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Findings() {
    }

    public static StoredFinding stored(Finding f) {
        String details;
        try {
            details = f.details().isEmpty() ? null : JSON.writeValueAsString(f.details());
        } catch (JsonProcessingException e) {
            // Finding's constructor admits only JSON-ready values, so this is a bug, not bad input.
            throw new IllegalStateException("finding " + f.id() + " has details that are not JSON", e);
        }
        return new StoredFinding(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message(),
                f.recommendation(), f.stageIds(), f.executorIds(), f.configKeys(), details);
    }

    public static List<StoredFinding> stored(List<Finding> findings) {
        return findings.stream().map(Findings::stored).toList();
    }
}
