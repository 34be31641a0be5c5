package io.sparkscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnalysisOptionsTest {
    @Command(name = "probe")
    static final class Probe {
        @Mixin
        AnalysisOptions analysis;
    }

    private static AnalysisOptions parse(String... args) {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.analysis;
    }

    @Test
    void defaultsWithoutOptions() {
        AnalysisOptions o = parse();
        o.check();
        assertEquals(10_000, o.tasksPerStage());
        assertEquals(1.5, o.regression().factor());
        assertTrue(o.heuristics().overrides().isEmpty());
        assertNull(o.heuristics().source());
        assertEquals(10_000, o.recorderOptions().tasksPerStage());
    }

    @Test
    void heuristicsFileIsReadTrimmedAndChecked(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("thresholds.properties");
        Files.writeString(file, " StageSkew.ratio.low = 4 \n", StandardCharsets.UTF_8);
        AnalysisOptions o = parse("--heuristics-config", file.toString(), "--tasks-per-stage", "50",
                "--regression-factor", "2");
        o.check();
        assertEquals(Map.of("StageSkew.ratio.low", "4"), o.heuristics().overrides());
        assertEquals(file.toString(), o.heuristics().source());
        assertEquals("4", o.diagnoser().config().values().get("StageSkew.ratio.low"));
        assertEquals(50, o.tasksPerStage());
        assertEquals(2.0, o.regression().factor());
    }

    @Test
    void badValuesNameTheOption(@TempDir Path dir) throws Exception {
        assertEquals("--tasks-per-stage must be >= 0, got -1",
                assertThrows(UsageError.class, () -> parse("--tasks-per-stage", "-1").check()).getMessage());
        assertEquals("--regression-factor must be a number of at least 1, got 0.5",
                assertThrows(UsageError.class, () -> parse("--regression-factor", "0.5").check()).getMessage());
        assertTrue(assertThrows(UsageError.class, () -> parse("--regression-factor", "NaN").check())
                .getMessage().startsWith("--regression-factor"));

        Path missing = dir.resolve("missing.properties");
        assertEquals("--heuristics-config: cannot read " + missing,
                assertThrows(UsageError.class, () -> parse("--heuristics-config", missing.toString()).check())
                        .getMessage());

        Path unknown = dir.resolve("unknown.properties");
        Files.writeString(unknown, "NoSuchHeuristic.limit=1\n", StandardCharsets.UTF_8);
        String message = assertThrows(UsageError.class,
                () -> parse("--heuristics-config", unknown.toString()).check()).getMessage();
        assertTrue(message.startsWith("--heuristics-config: Unknown heuristics setting 'NoSuchHeuristic.limit'"),
                message);
        assertTrue(message.contains(unknown.toString()), message);
    }
}
