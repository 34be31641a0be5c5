package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shortcuts for heuristic tests: run one heuristic with the shipped defaults (plus overrides) and assert severity. */
public final class Check {
    private Check() {
    }

    public static List<Finding> run(Heuristic h, AppSnapshot app) {
        return run(h, app, Map.of());
    }

    public static List<Finding> run(Heuristic h, AppSnapshot app, Map<String, String> overrides) {
        List<Finding> findings = h.evaluate(app, HeuristicConfig.defaults().withOverrides(overrides));
        for (Finding f : findings) {
            assertEquals(h.id(), f.heuristic());
            assertTrue(f.id().startsWith(h.id()), f.id());
            assertTrue(!f.message().isBlank() && !f.recommendation().isBlank(), "message and advice: " + f);
        }
        return findings;
    }

    /** Exactly one finding, of this severity. */
    public static Finding single(Severity expected, List<Finding> findings) {
        assertEquals(1, findings.size(), () -> "expected one finding, got " + findings);
        assertEquals(expected, findings.get(0).severity(), () -> findings.get(0).message());
        return findings.get(0);
    }

    public static void silent(List<Finding> findings) {
        assertEquals(List.of(), findings);
    }
}
