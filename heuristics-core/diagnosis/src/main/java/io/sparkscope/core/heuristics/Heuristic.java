package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;

import java.util.List;
import java.util.Map;

/**
 * A check over one application snapshot. Implementations are discovered with {@link java.util.ServiceLoader}: list
 * the class in {@code META-INF/services/io.sparkscope.core.heuristics.Heuristic} of your jar (public no-arg
 * constructor). Implementations must be stateless and thread-safe, and must not do anything quadratic in the number
 * of tasks (the engine runs every heuristic on 100 000-task snapshots within 50 ms).
 */
public interface Heuristic {

    /** The catalogue id, e.g. {@code StageSkew}: the prefix of this heuristic's config keys and finding ids. */
    String id();

    /**
     * Findings for this application, empty when all is well or the snapshot cannot tell (stay silent rather than
     * guess). Never findings of severity NONE.
     */
    List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg);

    /**
     * Threshold keys (with their {@code id() + "."} prefix) and default values this heuristic reads, for heuristics
     * shipped outside {@code sparkscope-heuristics.properties}. The engine registers them so they can be overridden
     * and validated like the built-in ones. Built-in heuristics keep theirs in the properties file.
     */
    default Map<String, String> defaultThresholds() {
        return Map.of();
    }
}
