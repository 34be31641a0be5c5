package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.HashMap;
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
    private final List<Heuristic> heuristics;
    private final List<HeuristicError> loadErrors;
    private final Map<String, List<String>> causes;
    /** Built on first use: immutable, and the same for every run of this engine. */
    private volatile HeuristicConfig defaultConfig;

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
        Map<String, List<String>> c = new HashMap<>();
        for (Heuristic h : this.heuristics) {
            List<String> declared = safeCauses(h);
            if (!declared.isEmpty()) {
                c.put(h.id(), declared);
            }
        }
        this.causes = Map.copyOf(c);
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
     * The thresholds every loaded heuristic declares ({@link Heuristic#thresholds()}) and an {@code <id>.enabled}
     * switch for each, in catalogue order (a key two heuristics declare keeps the first one's default). Apply
     * deployment overrides to this config; they validate against these keys.
     */
    public HeuristicConfig defaultConfig() {
        HeuristicConfig cfg = defaultConfig;
        if (cfg == null) {
            cfg = HeuristicConfig.ofDefaults(Map.of());
            for (Heuristic h : heuristics) {
                Map<String, String> declared = new LinkedHashMap<>(safeDefaults(h));
                declared.putIfAbsent(h.id() + ".enabled", "true");
                cfg = cfg.withDefaults(declared, "the thresholds of " + h.getClass().getName());
            }
            defaultConfig = cfg;
        }
        return cfg;
    }

    /**
     * Runs every enabled heuristic, then the post-passes that look across findings: knock-on findings are linked to
     * their cause ({@link CauseLinker}), findings are ordered by estimated saving with each cause followed by its
     * effects, and setting advice is reconciled to one value per key ({@link AdviceReconciler}). Ties keep catalogue
     * order and each heuristic's own order.
     */
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
        List<Finding> ranked = findings;
        try {
            ranked = AdviceReconciler.reconcile(CauseTree.ordered(CauseLinker.link(app, findings, causes)));
        } catch (RuntimeException e) {
            // The findings themselves are still right; only their grouping is lost.
            errors.add(new HeuristicError("(post-pass)", e.getClass().getName(), String.valueOf(e.getMessage())));
            ranked = new ArrayList<>(findings);
            ranked.sort(Ranking.BY_IMPACT);
        }
        return new Result(List.copyOf(ranked), List.copyOf(errors), FixFirst.of(ranked, app.durationMs()));
    }

    // A custom heuristic whose declarations throw still runs: it just gets no links.
    private static List<String> safeCauses(Heuristic h) {
        try {
            List<String> c = h.causes();
            return c == null ? List.of() : List.copyOf(c);
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static Map<String, String> safeDefaults(Heuristic h) {
        try {
            Map<String, String> d = h.defaultThresholds();
            return d == null ? Map.of() : d;
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /**
     * What a run produced: the findings in the order to show them, the heuristics that could not run, and the short
     * list of root causes to fix first.
     */
    public record Result(List<Finding> findings, List<HeuristicError> errors, FixFirst fixFirst) {
        public Result {
            findings = List.copyOf(findings);
            errors = List.copyOf(errors);
            fixFirst = fixFirst == null ? FixFirst.of(findings, 0) : fixFirst;
        }

        public Result(List<Finding> findings, List<HeuristicError> errors) {
            this(findings, errors, null);
        }

        /** The worst severity among the findings; NONE without findings. */
        public Severity worst() {
            Severity worst = Severity.NONE;
            for (Finding f : findings) {
                worst = Severity.max(worst, f.severity());
            }
            return worst;
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
