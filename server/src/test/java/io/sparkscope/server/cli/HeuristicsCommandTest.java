package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.Threshold;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sparkscope heuristics}: the catalogue read from the heuristics themselves. */
class HeuristicsCommandTest {

    @Test
    void listsEveryHeuristicWithItsDescriptionAndThresholds() {
        CliRun run = CliRun.of("heuristics");
        assertEquals(0, run.exitCode(), run.err());
        for (Heuristic h : Diagnoser.defaults().heuristics()) {
            assertTrue(run.out().contains("\n" + h.id() + "\n") || run.out().startsWith(h.id() + "\n"), h.id());
            assertTrue(run.out().contains(h.id() + ".enabled"), h.id());
            for (Threshold t : h.thresholds()) {
                assertTrue(run.out().contains(t.key(h.id())), t.key(h.id()));
                assertTrue(run.out().contains(t.description()), t.description());
            }
        }
        assertTrue(run.out().contains("slowest / median task run time at or above which a stage is LOW"), run.out());
        assertTrue(run.out().matches("(?s).*StageSkew\\.ratio\\.low +3 +slowest.*"), "key, value, description");
        assertTrue(run.out().contains("the stage and its cores wait for the straggler"), "the catalogue text");
    }

    @Test
    void showsOverriddenValuesWithTheirDefaultAndMarkdown(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("mine.properties");
        Files.writeString(file, "StageSkew.ratio.low=4\n");
        CliRun run = CliRun.of("heuristics", "--markdown", "--heuristics-config", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("### StageSkew\n"), run.out());
        assertTrue(run.out().contains("| `StageSkew.ratio.low` | 4 (default 3) | slowest / median task run time"),
                run.out());
        assertTrue(run.out().contains("| `StageSkew.ratio.high` | 10 |"), run.out());
    }

    @Test
    void aBadOverrideNamesTheKey(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("typo.properties");
        Files.writeString(file, "StageSkew.ration.low=4\n");
        CliRun run = CliRun.of("heuristics", "--heuristics-config", file.toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("'StageSkew.ration.low'") && run.err().contains("StageSkew.ratio.low"), run.err());
    }
}
