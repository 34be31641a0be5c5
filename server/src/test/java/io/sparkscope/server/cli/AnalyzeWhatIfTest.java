package io.sparkscope.server.cli;

import io.sparkscope.core.testing.ExampleEventLogs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code analyze --what-if} on the shipped example log: text and JSON. */
class AnalyzeWhatIfTest {
    private static final Path SHIPPED = ExampleEventLogs.DIR;

    @Test
    void textReportEndsWithTheCurveAndTheModelError() {
        CliRun run = CliRun.of("analyze", SHIPPED.toString(), "--what-if");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("What-if (cores"), run.out());
        assertTrue(run.out().contains("(actual)"), run.out());
        assertTrue(run.out().contains("critical path"), run.out());
    }

    @Test
    void jsonCarriesWhatIfOnlyWhenAsked() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode with = json.readTree(CliRun.of("analyze", SHIPPED.toString(), "--json", "--what-if").out());
        JsonNode w = with.get("whatIf");
        assertTrue(w.get("curve").size() >= 5, w.toString());
        assertTrue(Math.abs(w.get("relativeError").asDouble()) <= 0.05, w.toString());
        assertTrue(w.get("localMode").asBoolean());
        JsonNode without = json.readTree(CliRun.of("analyze", SHIPPED.toString(), "--json").out());
        assertFalse(without.has("whatIf"));
    }
}
