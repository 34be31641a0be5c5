package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A check over one application snapshot. Implementations are discovered with {@link java.util.ServiceLoader}: list
 * the class in {@code META-INF/services/io.sparkscope.core.heuristics.Heuristic} of your jar (public no-arg
 * constructor). Implementations must be stateless and thread-safe, and must not do anything quadratic in the number
 * of tasks (the engine runs every heuristic on 100 000-task snapshots within 50 ms).
 *
 * <p>Everything else the rest of Sparkscope needs to know about a heuristic is declared here, as data, so adding one
 * is its class, its test and its line in the services file: its thresholds ({@link #thresholds()}), what it says and
 * why for the catalogue ({@link #description()}, listed by {@code sparkscope heuristics}), which other heuristics'
 * findings cause its own ({@link #causes()}) and the labels of its detail keys ({@link #detailLabels()}). Every one
 * has a default, so a heuristic that needs none of them implements only {@link #id()} and {@link #evaluate}.
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
     * The thresholds this heuristic reads, with their defaults (names without the {@code id() + "."} prefix). The
     * engine registers them so deployments can override them and every override is validated; {@code <id>.enabled}
     * is added for every heuristic and is not listed here.
     */
    default List<Threshold> thresholds() {
        return List.of();
    }

    /**
     * Threshold keys (with their {@code id() + "."} prefix) and default values: {@link #thresholds()} as a map. A
     * heuristic written before {@link #thresholds()} existed may override this instead; the engine reads this one.
     */
    default Map<String, String> defaultThresholds() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Threshold t : thresholds()) {
            m.put(t.key(id()), t.defaultValue());
        }
        return m;
    }

    /** What the heuristic reports, when, and why it matters: its entry in the catalogue (Markdown; may be empty). */
    default String description() {
        return "";
    }

    /**
     * Heuristic ids whose finding at the same location is the cause of this heuristic's finding there (e.g. tiny
     * tasks make a stage driver-bound: SchedulerDelay lists SmallTasks). The engine links such a pair after all
     * heuristics ran and gives the cause its effect's saving; the first listed that found something wins.
     */
    default List<String> causes() {
        return List.of();
    }

    /** Labels of the detail keys whose meaning is this heuristic's own (keys shared by many are labelled centrally). */
    default Map<String, DetailLabel> detailLabels() {
        return Map.of();
    }
}
