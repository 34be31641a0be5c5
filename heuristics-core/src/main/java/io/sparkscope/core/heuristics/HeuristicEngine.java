package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Runs every enabled heuristic over a snapshot. Heuristics come from {@link ServiceLoader}, so a jar on the
 * classpath adds its own; one that fails to load or throws is reported in {@link Result#errors()} and the others
 * still run — a broken custom heuristic must never cost the user the rest of the analysis.
 */
public final class HeuristicEngine {
    private static final Comparator<Finding> HIGH_FIRST =
            Comparator.comparing(Finding::severity, Comparator.reverseOrder());

    private final List<Heuristic> heuristics;
    private final List<HeuristicError> loadErrors;

    private HeuristicEngine(List<Heuristic> heuristics, List<HeuristicError> loadErrors) {
        Map<String, Heuristic> byId = new LinkedHashMap<>();
        for (Heuristic h : heuristics) {
            Heuristic clash = byId.putIfAbsent(h.id(), h);
            if (clash != null) {
                throw new IllegalStateException("Two heuristics share the id '" + h.id() + "': "
                        + clash.getClass().getName() + " and " + h.getClass().getName());
            }
        }
        this.heuristics = List.copyOf(byId.values());
        this.loadErrors = List.copyOf(loadErrors);
    }

    /** Heuristics visible to this class's class loader (the built-in ones and any on the same classpath). */
    public static HeuristicEngine load() {
        return load(HeuristicEngine.class.getClassLoader());
    }

    /** Heuristics visible to {@code loader}, e.g. a class loader over a plugin directory. */
    public static HeuristicEngine load(ClassLoader loader) {
        List<Heuristic> found = new ArrayList<>();
        List<HeuristicError> errors = new ArrayList<>();
        Iterator<Heuristic> it = ServiceLoader.load(Heuristic.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError | LinkageError e) {
                // A bad provider line or a class that cannot be instantiated: report it, keep loading the rest.
                errors.add(new HeuristicError("(loading)", e.getClass().getName(), String.valueOf(e.getMessage())));
            }
        }
        return new HeuristicEngine(found, errors);
    }

    /** An engine over exactly these heuristics (tests, embedding). */
    public static HeuristicEngine of(List<Heuristic> heuristics) {
        return new HeuristicEngine(heuristics, List.of());
    }

    public List<Heuristic> heuristics() {
        return heuristics;
    }

    public List<HeuristicError> loadErrors() {
        return loadErrors;
    }

    /**
     * The built-in defaults plus what loaded heuristics declare ({@link Heuristic#defaultThresholds()}) and an
     * {@code <id>.enabled} switch for each, so overrides of custom heuristics' keys validate too. Apply
     * deployment overrides to this config.
     */
    public HeuristicConfig defaultConfig() {
        HeuristicConfig cfg = HeuristicConfig.defaults();
        for (Heuristic h : heuristics) {
            Map<String, String> declared = new LinkedHashMap<>(safeDefaults(h));
            declared.putIfAbsent(h.id() + ".enabled", "true");
            cfg = cfg.withDefaults(declared);
        }
        return cfg;
    }

    /** Runs every enabled heuristic; findings HIGH first, then in catalogue order and each heuristic's own order. */
    public Result run(AppSnapshot app, HeuristicConfig cfg) {
        List<Finding> findings = new ArrayList<>();
        List<HeuristicError> errors = new ArrayList<>(loadErrors);
        for (Heuristic h : heuristics) {
            if (!cfg.enabled(h.id())) {
                continue;
            }
            try {
                List<Finding> out = h.evaluate(app, cfg);
                if (out != null) {
                    findings.addAll(out);
                }
            } catch (RuntimeException | LinkageError | StackOverflowError e) {
                errors.add(new HeuristicError(h.id(), e.getClass().getName(), String.valueOf(e.getMessage())));
            }
        }
        findings.sort(HIGH_FIRST); // stable: keeps each heuristic's ordering (e.g. StageSkew by max − median)
        return new Result(List.copyOf(findings), List.copyOf(errors));
    }

    private static Map<String, String> safeDefaults(Heuristic h) {
        try {
            Map<String, String> d = h.defaultThresholds();
            return d == null ? Map.of() : d;
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /** What a run produced: the findings, and the heuristics that could not run. */
    public record Result(List<Finding> findings, List<HeuristicError> errors) {
        public Severity worst() {
            return findings.isEmpty() ? Severity.NONE : findings.get(0).severity();
        }
    }

    /**
     * A heuristic that failed to load or threw; shown next to the findings so a user knows the analysis is partial.
     *
     * @param heuristic the heuristic id, or "(loading)" when the class itself could not be loaded
     */
    public record HeuristicError(String heuristic, String exceptionClass, String message) {
    }
}
