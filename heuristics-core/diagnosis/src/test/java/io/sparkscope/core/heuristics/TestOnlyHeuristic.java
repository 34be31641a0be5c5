package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;

import java.util.List;
import java.util.Map;

/**
 * The shape of a custom heuristic (registered in src/test/resources/test-only-plugin/META-INF/services): flags applications whose
 * name contains a configurable word. Declares its own threshold so deployments can override it.
 */
public final class TestOnlyHeuristic implements Heuristic {
    public static final String ID = "TestOnly";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Map<String, String> defaultThresholds() {
        return Map.of(ID + ".minNameLength", "100");
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        if (app.appName() == null || app.appName().length() < cfg.count(ID + ".minNameLength")) {
            return List.of();
        }
        return List.of(Finding.builder(ID, Severity.LOW).title("Long name").message("The name is long.")
                .recommendation("Shorten it.").build());
    }
}
