package io.sparkscope.server.cli;

import io.sparkscope.core.testing.ExampleEventLogs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sparkscope analyze} as a user runs it: on the event log the examples module wrote (shipped in
 * examples/eventlogs) and on broken input, where it must say what was wrong and where, never with a stack trace.
 */
class AnalyzeCommandTest {
    /** Large string limit: the huge-line test prints its 50 MB configuration value back. */
    private static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                    .maxStringLength(200_000_000).build()).build());
    private static final Path SHIPPED = ExampleEventLogs.DIR;

    private static final String APP_START = "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"tiny\","
            + "\"App ID\":\"app-tiny\",\"Timestamp\":1000,\"User\":\"u\"}";
    private static final String STAGE_SUBMITTED = "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{"
            + "\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"s\",\"Number of Tasks\":1,\"RDD Info\":[],"
            + "\"Parent IDs\":[],\"Details\":\"\",\"Submission Time\":1000,\"Accumulables\":[]}}";
    private static final String TASK_END = "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,"
            + "\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":1,"
            + "\"Index\":0,\"Attempt\":0,\"Launch Time\":1000,\"Executor ID\":\"1\",\"Host\":\"h\",\"Locality\":\"ANY\","
            + "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":1500,\"Failed\":false,\"Killed\":false},"
            + "\"Task Metrics\":{\"Executor Run Time\":400,\"Executor Deserialize Time\":10}}";
    private static final String APP_END = "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2000}";

    @Test
    void helpListsTheCommands() {
        CliRun run = CliRun.of("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("analyze"), run.out());
    }

    @Test
    void reportOnTheShippedExampleLogNamesTheSkewedStage() {
        CliRun run = CliRun.of("analyze", SHIPPED.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Sparkscope report: skewed-join"), run.out());
        assertTrue(run.out().contains("StageSkew"), run.out());
    }

    @Test
    void jsonHasSparksShapeAndRequestedQuantiles() throws IOException {
        CliRun run = CliRun.of("analyze", SHIPPED.toString(), "--json", "--quantiles", "0.1,0.5,0.9");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode app = JSON.readTree(run.out());
        assertEquals("skewed-join", app.get("appName").asText());
        assertTrue(app.get("complete").asBoolean());
        JsonNode stage = app.get("stages").get(0);
        assertEquals(3, stage.get("taskSummary").get("quantiles").size());
        assertEquals(3, stage.get("taskSummary").get("shuffleReadMetrics").get("readBytes").size());
        assertTrue(stage.get("totals").has("executorRunTime"));
        assertTrue(app.get("findings").isArray() && app.get("findings").size() > 0);
        assertTrue(app.get("findings").get(0).has("recommendation"));
    }

    @Test
    void pricesGiveTheApplicationsCostAndABadPriceIsNamed() throws IOException {
        JsonNode unpriced = JSON.readTree(CliRun.of("analyze", SHIPPED.toString(), "--json").out()).get("efficiency");
        assertTrue(unpriced.get("coreHoursAllocated").asDouble() > 0, unpriced.toString());
        assertTrue(unpriced.get("cost").isNull(), "no prices, no cost: " + unpriced.get("cost"));

        CliRun run = CliRun.of("analyze", SHIPPED.toString(), "--json", "--cost-core-hour", "0.04",
                "--cost-gb-hour", "0.005", "--currency", "EUR");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode efficiency = JSON.readTree(run.out()).get("efficiency");
        JsonNode cost = efficiency.get("cost");
        assertEquals("EUR", cost.get("currency").asText(), cost.toString());
        double expected = efficiency.get("coreHoursAllocated").asDouble() * 0.04
                + efficiency.get("gbHoursAllocated").asDouble() * 0.005;
        assertEquals(expected, cost.get("allocated").asDouble(), 1e-5, "core-hours x price + GB-hours x price");
        assertTrue(cost.get("allocated").asDouble() > 0, cost.toString());

        CliRun text = CliRun.of("analyze", SHIPPED.toString(), "--cost-core-hour", "0.04", "--currency", "EUR");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("EUR"), text.out());

        CliRun bad = CliRun.of("analyze", SHIPPED.toString(), "--cost-core-hour", "cheap");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--cost-core-hour") && bad.err().contains("cheap"), bad.err());
        assertNoStackTrace(bad);
    }

    @Test
    void jsonOpensWithTheFixFirstList() throws IOException {
        CliRun run = CliRun.of("analyze", SHIPPED.toString(), "--json");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode app = JSON.readTree(run.out());
        JsonNode fix = app.get("fixFirst");
        assertTrue(fix.isArray() && fix.size() >= 1 && fix.size() <= 3, fix.toString());
        JsonNode first = fix.get(0);
        String id = first.get("findingId").asText();
        JsonNode finding = null;
        for (JsonNode f : app.get("findings")) {
            if (f.get("id").asText().equals(id)) {
                finding = f;
            }
        }
        assertTrue(finding != null, "the fix-first item names a finding of the list: " + id);
        assertTrue(finding.get("causedBy").isNull(), "a root cause");
        assertTrue(first.get("impact").get("wallMs").asLong() > 0, first.toString());
        assertEquals(finding.get("impact").get("wallMs").asLong(), first.get("impact").get("wallMs").asLong());
        assertTrue(first.get("sentence").asText().contains("could save about"), first.toString());
        assertTrue(first.get("knockOns").isArray());
        assertTrue(finding.get("advice").isArray(), "structured setting advice with each finding");
    }

    @Test
    void severalLogsGiveAnArray(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("a"), List.of(APP_START, STAGE_SUBMITTED, TASK_END, APP_END));
        Files.write(dir.resolve("b"), List.of(APP_START.replace("app-tiny", "app-other"), APP_END));
        CliRun run = CliRun.of("analyze", dir.toString(), "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(2, JSON.readTree(run.out()).size());
    }

    @Test
    void missingPathIsOneLineAndNonZero() {
        CliRun run = CliRun.of("analyze", "/no/such/log");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("/no/such/log"), run.err());
        assertNoStackTrace(run);
        assertEquals(1, run.err().strip().lines().count(), run.err());
    }

    @Test
    void directoryWithoutLogs(@TempDir Path dir) {
        CliRun run = CliRun.of("analyze", dir.toString());
        assertTrue(run.exitCode() != 0);
        assertTrue(run.err().contains(dir.toString()), run.err());
        assertNoStackTrace(run);
    }

    @Test
    void badQuantileNamesTheParameter() {
        CliRun run = CliRun.of("analyze", SHIPPED.toString(), "--quantiles", "0.5,1.7");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--quantiles") && run.err().contains("1.7"), run.err());
        assertNoStackTrace(run);
    }

    @Test
    void unknownHeuristicKeyIsNamed(@TempDir Path dir) throws IOException {
        Path cfg = Files.writeString(dir.resolve("h.properties"), "StageSkew.nonsense=3\n");
        CliRun run = CliRun.of("analyze", SHIPPED.toString(), "--heuristics-config", cfg.toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("StageSkew.nonsense"), run.err());
        assertNoStackTrace(run);
    }

    @Test
    void brokenLogsAreReportedAndTheRestIsStillAnalyzed(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("empty"), new byte[0]);
        byte[] garbage = new byte[4096];
        new java.util.Random(7).nextBytes(garbage);
        Files.write(dir.resolve("garbage.bin"), garbage);
        Files.write(dir.resolve("plain-named.zstd"), List.of(APP_START.replace("app-tiny", "app-zstd"), APP_END));
        Files.write(dir.resolve("good"), List.of(APP_START, "{not json at all", STAGE_SUBMITTED,
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0}", TASK_END, APP_END));
        CliRun run = CliRun.of("analyze", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("app-tiny"), run.out());
        assertTrue(run.out().contains("app-zstd"), "a plain log with a wrong suffix is still read: " + run.out());
        assertTrue(run.err().contains("good:2"), "malformed line named with file and line: " + run.err());
        assertTrue(run.err().contains("good:4"), "event with missing fields named: " + run.err());
        assertNoStackTrace(run);
    }

    @Test
    void hugeLineIsSkippedWithAWarning(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("huge");
        try (OutputStream out = Files.newOutputStream(log)) {
            out.write((APP_START + "\n").getBytes(StandardCharsets.UTF_8));
            out.write("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{\"k\":\"".getBytes());
            byte[] chunk = new byte[1 << 20];
            java.util.Arrays.fill(chunk, (byte) 'x');
            for (int i = 0; i < 50; i++) {
                out.write(chunk);
            }
            out.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
            out.write((APP_END + "\n").getBytes(StandardCharsets.UTF_8));
        }
        CliRun run = CliRun.of("analyze", log.toString(), "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(JSON.readTree(run.out()).get("complete").asBoolean(), "events after the huge line are read");
        assertNoStackTrace(run);
    }

    @Test
    void truncatedLogIsMarkedIncomplete(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("cut");
        Files.writeString(log, APP_START + "\n" + STAGE_SUBMITTED + "\n" + TASK_END.substring(0, 80));
        CliRun run = CliRun.of("analyze", log.toString(), "--json");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode app = JSON.readTree(run.out());
        assertFalse(app.get("complete").asBoolean());
        assertTrue(run.err().contains("cut"), run.err());
    }

    private static void assertNoStackTrace(CliRun run) {
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception in"), "stack trace: " + run.err());
    }
}
