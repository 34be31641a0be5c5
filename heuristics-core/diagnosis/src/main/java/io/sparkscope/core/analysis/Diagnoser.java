package io.sparkscope.core.analysis;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.model.AppSnapshot;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Every heuristic found on the classpath (ours and users', through ServiceLoader) with one deployment's thresholds:
 * what the CLI, the listener and the server all use to turn a snapshot into findings.
 */
public final class Diagnoser {
    private final HeuristicEngine engine;
    private final HeuristicConfig config;

    private Diagnoser(HeuristicEngine engine, HeuristicConfig config) {
        this.engine = engine;
        this.config = config;
    }

    /** Built-in defaults. */
    public static Diagnoser defaults() {
        HeuristicEngine engine = HeuristicEngine.load(Diagnoser.class.getClassLoader());
        return new Diagnoser(engine, engine.defaultConfig());
    }

    /**
     * Defaults with overrides (e.g. {@code spark.sparkscope.heuristics.*} without the prefix).
     *
     * @throws IllegalArgumentException naming the unknown key or bad value
     */
    public static Diagnoser withOverrides(Map<String, String> overrides, String source) {
        HeuristicEngine engine = HeuristicEngine.load(Diagnoser.class.getClassLoader());
        return new Diagnoser(engine, engine.defaultConfig().withOverrides(overrides, source));
    }

    /**
     * Defaults with a thresholds file ({@code --heuristics-config}).
     *
     * @throws IllegalArgumentException naming the unknown key or bad value
     */
    public static Diagnoser withFile(Path propertiesFile) throws IOException {
        HeuristicEngine engine = HeuristicEngine.load(Diagnoser.class.getClassLoader());
        return new Diagnoser(engine, engine.defaultConfig().withOverrides(propertiesFile));
    }

    public HeuristicConfig config() {
        return config;
    }

    /** The heuristics that run, in catalogue order (the built-in ones and any on the classpath). */
    public List<Heuristic> heuristics() {
        return engine.heuristics();
    }

    /** Findings, HIGH first. A heuristic that throws is left out (see {@link #run} for its error). */
    public List<Finding> diagnose(AppSnapshot snapshot) {
        return engine.run(snapshot, config).findings();
    }

    public HeuristicEngine.Result run(AppSnapshot snapshot) {
        return engine.run(snapshot, config);
    }
}
