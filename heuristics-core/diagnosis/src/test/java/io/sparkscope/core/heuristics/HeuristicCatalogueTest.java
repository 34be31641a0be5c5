package io.sparkscope.core.heuristics;

import io.sparkscope.core.heuristics.builtin.JobFailure;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalogue is whatever the services file lists: these checks go over every discovered heuristic rather than a
 * list kept here, so a new heuristic is its class, its test and its services line, and forgetting one of the three,
 * or what the class must declare, fails here.
 */
class HeuristicCatalogueTest {
    private static final String BUILTIN = JobFailure.class.getPackageName();

    /** Every concrete {@link Heuristic} in the built-in package, found on disk rather than through the services file. */
    static Set<String> builtInClassNames() {
        // The folder of a built-in's own class file: the test classes have a folder of the same package too.
        URL one = JobFailure.class.getResource("JobFailure.class");
        assertNotNull(one, "the built-in package's class folder");
        try (Stream<Path> files = Files.list(Path.of(one.toURI()).getParent())) {
            Set<String> names = new TreeSet<>();
            for (Path f : files.toList()) {
                String file = f.getFileName().toString();
                if (!file.endsWith(".class") || file.contains("$")) {
                    continue;
                }
                Class<?> c = Class.forName(BUILTIN + "." + file.substring(0, file.length() - 6));
                if (Heuristic.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())) {
                    names.add(c.getName());
                }
            }
            return names;
        } catch (IOException | URISyntaxException | ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    static List<Heuristic> builtIns() {
        return HeuristicEngine.load().heuristics().stream()
                .filter(h -> h.getClass().getPackageName().equals(BUILTIN)).toList();
    }

    static Set<String> builtInIds() {
        return builtIns().stream().map(Heuristic::id).collect(Collectors.toSet());
    }

    @Test
    void theServicesFileListsEveryBuiltInHeuristicClass() {
        Set<String> listed = builtIns().stream().map(h -> h.getClass().getName()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(builtInClassNames(), listed, "META-INF/services/" + Heuristic.class.getName());
        assertTrue(listed.size() >= 27, "the built-in catalogue: " + listed);
        assertEquals(List.of(), HeuristicEngine.load().loadErrors());
    }

    @Test
    void everyBuiltInHeuristicHasItsTestADescriptionAndDescribedThresholds() {
        List<String> problems = new ArrayList<>();
        for (Heuristic h : builtIns()) {
            String name = h.getClass().getSimpleName();
            if (!name.equals(h.id())) {
                problems.add(name + ": id '" + h.id() + "' differs from the class name");
            }
            try {
                Class.forName(h.getClass().getName() + "Test");
            } catch (ClassNotFoundException e) {
                problems.add(name + ": no " + name + "Test");
            }
            if (h.description().isBlank()) {
                problems.add(name + ": no description()");
            }
            Set<String> names = new HashSet<>();
            for (Threshold t : h.thresholds()) {
                if (!names.add(t.name())) {
                    problems.add(name + ": threshold " + t.name() + " declared twice");
                }
                if (t.description().isBlank()) {
                    problems.add(name + ": threshold " + t.name() + " has no description");
                }
                if (t.name().equals("enabled") || t.name().startsWith(h.id() + ".")) {
                    problems.add(name + ": threshold " + t.name() + " (give the name without the id; enabled is added)");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void declaredThresholdsAreTheDefaultsAndEachHeuristicHasASwitch() {
        HeuristicConfig cfg = HeuristicConfig.defaults();
        Set<String> declared = new TreeSet<>();
        for (Heuristic h : builtIns()) {
            declared.add(h.id() + ".enabled");
            for (Threshold t : h.thresholds()) {
                declared.add(t.key(h.id()));
                assertEquals(t.defaultValue(), cfg.defaultValues().get(t.key(h.id())), t.key(h.id()));
            }
        }
        assertEquals(declared, cfg.defaultValues().keySet());
        assertTrue(cfg.enabled("StageSkew"));
        assertEquals(3.0, cfg.threshold("StageSkew.ratio.low"));
    }

    @Test
    void declaredCausesNameHeuristicsOfTheCatalogue() {
        Set<String> ids = builtInIds();
        for (Heuristic h : builtIns()) {
            for (String cause : h.causes()) {
                assertTrue(ids.contains(cause) && !cause.equals(h.id()), h.id() + " names cause " + cause);
            }
            for (Map.Entry<String, DetailLabel> e : h.detailLabels().entrySet()) {
                assertFalse(e.getKey().isBlank() || e.getValue().text().isBlank(), h.id() + ": " + e);
            }
        }
    }

    /** A heuristic's own malformed default is named with the key and the heuristic, not found at its first run. */
    @Test
    void aMalformedDeclaredDefaultIsNamed() {
        Heuristic bad = new Heuristic() {
            @Override
            public String id() {
                return "BadDefaults";
            }

            @Override
            public List<Threshold> thresholds() {
                return List.of(new Threshold("ratio.low", "0.9", "LOW from"), new Threshold("ratio.high", "0.5", "HIGH from"));
            }

            @Override
            public List<Finding> evaluate(io.sparkscope.core.model.AppSnapshot app, HeuristicConfig cfg) {
                return List.of();
            }
        };
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> HeuristicEngine.of(List.of(bad)).defaultConfig());
        assertTrue(e.getMessage().contains("BadDefaults.ratio.low") && e.getMessage().contains("BadDefaults.ratio.high"),
                e.getMessage());
        assertDoesNotThrow(() -> HeuristicEngine.of(List.of(new JobFailure())).defaultConfig());
        assertEquals(Map.of("JobFailure.enabled", "true"),
                HeuristicEngine.of(List.of(new JobFailure())).defaultConfig().defaultValues());
    }
}
