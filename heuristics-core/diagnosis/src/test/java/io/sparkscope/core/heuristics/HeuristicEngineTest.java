package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeuristicEngineTest {
    /**
     * The built-in heuristics plus a second "jar": a folder whose services file names {@link TestOnlyHeuristic}. It
     * is not on the test classpath itself, so the modules that use this module's test-jar never load it.
     */
    static HeuristicEngine withTestOnlyPlugin() {
        URL plugin = HeuristicEngineTest.class.getResource("/test-only-plugin/");
        assertNotNull(plugin, "test-only-plugin/ in the test resources");
        return HeuristicEngine.load(new URLClassLoader(new URL[] {plugin}, HeuristicEngineTest.class.getClassLoader()));
    }

    @Test
    void serviceLoaderFindsTheCatalogueAndATestOnlyHeuristic() {
        HeuristicEngine engine = withTestOnlyPlugin();
        Set<String> ids = engine.heuristics().stream().map(Heuristic::id).collect(Collectors.toSet());
        Set<String> catalogue = HeuristicCatalogueTest.builtInIds();
        assertTrue(catalogue.size() >= 27, catalogue.toString());
        assertTrue(ids.containsAll(catalogue), ids.toString());
        assertTrue(ids.contains(TestOnlyHeuristic.ID), ids.toString());
        assertEquals(catalogue.size() + 1, ids.size());
        assertEquals(List.of(), engine.loadErrors());
    }

    @Test
    void customHeuristicThresholdsAreRegisteredAndOverridable() {
        HeuristicEngine engine = withTestOnlyPlugin();
        HeuristicConfig cfg = engine.defaultConfig().withOverrides(Map.of("TestOnly.minNameLength", "2"));
        List<Finding> findings = engine.run(app().build(), cfg).findings();
        assertTrue(findings.stream().anyMatch(f -> f.heuristic().equals(TestOnlyHeuristic.ID)));
        assertFalse(engine.run(app().build(), engine.defaultConfig().withOverrides(Map.of("TestOnly.enabled", "false")
                , "test")).findings().stream().anyMatch(f -> f.heuristic().equals(TestOnlyHeuristic.ID)));
        assertThrows(IllegalArgumentException.class,
                () -> HeuristicConfig.defaults().withOverrides(Map.of("TestOnly.minNameLength", "2")));
    }

    @Test
    void aThrowingHeuristicIsReportedAndTheOthersStillRun() {
        Heuristic broken = new Heuristic() {
            @Override
            public String id() {
                return "Broken";
            }

            @Override
            public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
                throw new IllegalStateException("no luck");
            }
        };
        HeuristicEngine engine = HeuristicEngine.of(List.of(broken, new io.sparkscope.core.heuristics.builtin.JobFailure(),
                new io.sparkscope.core.heuristics.builtin.SerializerConfig()));
        HeuristicEngine.Result result = engine.run(rddAppWithFailedJob(), engine.defaultConfig());
        assertEquals(List.of(new HeuristicEngine.HeuristicError("Broken", "java.lang.IllegalStateException", "no luck")),
                result.errors());
        assertEquals(List.of("JobFailure", "SerializerConfig"), result.findings().stream().map(Finding::heuristic).toList());
    }

    @Test
    void findingsComeHighFirstAndDisabledHeuristicsDoNotRun() {
        HeuristicEngine engine = HeuristicEngine.load();
        AppSnapshot app = rddAppWithFailedJob();
        HeuristicEngine.Result result = engine.run(app, engine.defaultConfig());
        assertEquals(Severity.HIGH, result.worst());
        assertEquals("SerializerConfig", result.findings().get(result.findings().size() - 1).heuristic());
        HeuristicEngine.Result quiet = engine.run(app, engine.defaultConfig()
                .withOverrides(Map.of("JobFailure.enabled", "false", "SerializerConfig.enabled", "false")));
        assertEquals(List.of(), quiet.findings());
    }

    /** A failed RDD job that shuffled 100 MiB with Java serialization: JobFailure HIGH, SerializerConfig LOW. */
    private static AppSnapshot rddAppWithFailedJob() {
        return app().job(0, JobStatus.FAILED, "x")
                .stage(0).tasks(10, i -> task().runTime(115_000).shuffleWrite(10 * Units.MiB)).done().build();
    }

    @Test
    void duplicateIdsAreRejected() {
        assertThrows(IllegalStateException.class, () -> HeuristicEngine.of(List.of(
                new io.sparkscope.core.heuristics.builtin.YarnQueue(), new io.sparkscope.core.heuristics.builtin.YarnQueue())));
    }

    /** A well-configured local job of a few minutes must stay green: nothing HIGH. */
    @Test
    void cleanLocalJobHasNoHighFinding() {
        AppSnapshot app = app().master("local[4]").durationMs(180_000).driverGcMs(3_000)
                .conf("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .executor("driver", 4, 600_000)
                .stage(0).startAt(2_000).slots(4).tasks(200, i -> task().runTime(3_000 + i % 7 * 100).schedulerDelay(5)
                        .input(64 * Units.MiB).shuffleWrite(8 * Units.MiB).gc(60)).done()
                .stage(1).startAt(155_000).slots(4).tasks(200, i -> task().runTime(400 + i % 5 * 20).schedulerDelay(3)
                        .shuffleRead(8 * Units.MiB)).done()
                .build();
        HeuristicEngine.Result result = HeuristicEngine.load().run(app, HeuristicEngine.load().defaultConfig());
        assertEquals(List.of(), result.errors());
        assertTrue(result.findings().stream().noneMatch(f -> f.severity() == Severity.HIGH), result.findings().toString());
    }
}
