package io.sparkscope.core.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Our stage totals and task summaries against Spark's own History Server golden files, for every case that
 * {@code CASES.md} maps to a stage list, a stage, a stage attempt or a task summary. Read in place from
 * {@code ../shared}; skipped with a message when it is absent (as on a user's fresh clone).
 */
class SparkExpectationsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** | # | case name | `REST path` | expectation file | present | logs | version | */
    private static final Pattern CASE_ROW =
            Pattern.compile("^\\|\\s*(\\d+)\\s*\\|[^|]*\\|\\s*`([^`]+)`\\s*\\|\\s*(\\S+\\.json)\\s*\\|\\s*yes\\s*\\|");
    private static final Pattern STAGE_PATH = Pattern.compile(
            "applications/([^/]+)(?:/(\\d+))?/stages(?:/(\\d+)(?:/(\\d+))?)?(/taskSummary)?/?(?:\\?(.*))?");
    private static final DateTimeFormatter SPARK_DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'GMT'");

    private final Map<String, AppSnapshot> cache = new HashMap<>();

    @TestFactory
    Stream<DynamicTest> stageNumbersEqualSparkHistoryServer() throws IOException {
        Path expectations = SharedData.sparkExpectations().orElse(null);
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(expectations != null && logs != null,
                "SKIPPED: ../shared/spark-expectations or ../shared/eventlogs not found (set SPARKSCOPE_SHARED); "
                        + "Spark golden-file comparison not run");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Files.readAllLines(expectations.resolve("CASES.md"))) {
            Matcher row = CASE_ROW.matcher(line);
            if (!row.find()) {
                continue;
            }
            Matcher path = STAGE_PATH.matcher(row.group(2));
            if (!path.matches()) {
                continue;
            }
            String name = "case " + row.group(1) + ": " + row.group(2);
            Path expected = expectations.resolve(row.group(3));
            tests.add(DynamicTest.dynamicTest(name, () -> check(path, expected, logs.resolve("spark-events"))));
        }
        assertTrue(tests.size() >= 19, "expected the stage and task-summary cases of CASES.md, found " + tests.size());
        return tests.stream();
    }

    private void check(Matcher path, Path expectedFile, Path logDir) throws Exception {
        String appId = path.group(1);
        String attempt = path.group(2);
        Integer stageId = path.group(3) == null ? null : Integer.valueOf(path.group(3));
        Integer stageAttempt = path.group(4) == null ? null : Integer.valueOf(path.group(4));
        boolean taskSummary = path.group(5) != null;
        Map<String, String> query = query(path.group(6));
        JsonNode expected = JSON.readTree(expectedFile.toFile());

        if (taskSummary) {
            double[] qs = query.containsKey("quantiles")
                    ? parseQuantiles(query.get("quantiles")) : TaskDistributions.SPARK_DEFAULT_QUANTILES;
            AppSnapshot app = app(logDir, appId, attempt, qs);
            StageSummary stage = stage(app, stageId, stageAttempt);
            assertDistributions(expected, stage.taskSummary().restrictTo(qs), "taskSummary");
            return;
        }
        boolean withSummaries = "true".equals(query.get("withSummaries"));
        double[] summaryQs = {0.0, 0.25, 0.5, 0.75, 1.0};
        AppSnapshot app = app(logDir, appId, attempt, withSummaries ? summaryQs : TaskDistributions.SPARK_DEFAULT_QUANTILES);
        if (expected.isArray()) {
            int compared = 0;
            for (JsonNode stageJson : expected) {
                StageSummary ours = stage(app, stageJson.get("stageId").asInt(), stageJson.get("attemptId").asInt());
                assertStage(stageJson, ours);
                compared++;
            }
            if (stageId == null && !query.containsKey("status")) {
                assertEquals(compared, app.stages().size(), "number of stage attempts");
            }
            if (query.containsKey("status")) {
                String status = query.get("status").toUpperCase();
                assertEquals(compared, app.stages().stream().filter(s -> s.status().name().equals(status)).count(),
                        "stages with status " + status);
            }
        } else {
            StageSummary ours = stage(app, stageId, stageAttempt);
            assertStage(expected, ours);
            if (withSummaries) {
                assertDistributions(expected.get("taskMetricsDistributions"),
                        ours.taskSummary().restrictTo(summaryQs), "taskMetricsDistributions");
            }
        }
    }

    private AppSnapshot app(Path logDir, String appId, String attempt, double[] qs) throws Exception {
        String key = appId + "/" + attempt + "/" + java.util.Arrays.toString(qs);
        AppSnapshot cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.list(logDir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                for (var source : EventLogReader.discover(f)) {
                    AppSnapshot s = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS.withQuantiles(qs),
                            problems::add).snapshot();
                    if (appId.equals(s.appId()) && (attempt == null || attempt.equals(s.attemptId()))) {
                        cache.put(key, s);
                        return s;
                    }
                }
            }
        }
        fail("no event log in " + logDir + " holds " + appId + (attempt == null ? "" : " attempt " + attempt));
        return null;
    }

    private static StageSummary stage(AppSnapshot app, int stageId, int attemptId) {
        return app.stages().stream().filter(s -> s.stageId() == stageId && s.attemptId() == attemptId).findFirst()
                .orElseThrow(() -> new AssertionError("no stage " + stageId + "." + attemptId + " in " + app.appId()));
    }

    private static void assertStage(JsonNode expected, StageSummary ours) {
        String where = "stage " + ours.key() + " ";
        assertEquals(expected.get("status").asText(), ours.status().name(), where + "status");
        assertEquals(expected.get("name").asText(), ours.name(), where + "name");
        for (String count : List.of("numTasks", "numActiveTasks", "numCompleteTasks", "numFailedTasks",
                "numKilledTasks", "numCompletedIndices")) {
            long ourValue = switch (count) {
                case "numTasks" -> ours.numTasks();
                case "numActiveTasks" -> ours.numActiveTasks();
                case "numCompleteTasks" -> ours.numCompleteTasks();
                case "numFailedTasks" -> ours.numFailedTasks();
                case "numKilledTasks" -> ours.numKilledTasks();
                default -> ours.numCompletedIndices();
            };
            assertEquals(expected.get(count).asLong(), ourValue, where + count);
        }
        int metrics = 0;
        for (Map.Entry<String, Long> total : ours.totals().asSparkFields().entrySet()) {
            JsonNode e = expected.get(total.getKey());
            assertNotNull(e, where + "Spark has no field " + total.getKey());
            assertEquals(e.asLong(), total.getValue().longValue(), where + total.getKey());
            metrics++;
        }
        assertTrue(metrics >= 30, "all StageData totals compared");
        assertTime(expected, "submissionTime", ours.submissionTime(), where);
        assertTime(expected, "completionTime", ours.completionTime(), where);
        assertTime(expected, "firstTaskLaunchedTime", ours.firstTaskLaunchedTime(), where);
    }

    private static void assertTime(JsonNode expected, String field, long ours, String where) {
        JsonNode e = expected.get(field);
        if (e == null || e.isNull()) {
            assertTrue(ours <= 0, where + field + " should be unknown, was " + ours);
            return;
        }
        long millis = LocalDateTime.parse(e.asText(), SPARK_DATE).toInstant(ZoneOffset.UTC).toEpochMilli();
        assertEquals(millis, ours, where + field);
    }

    private static void assertDistributions(JsonNode expected, TaskDistributions ours, String where) {
        assertNotNull(expected, where + " missing in expectation");
        assertArrayClose(expected.get("quantiles"), ours.quantiles(), where + ".quantiles");
        int compared = 0;
        for (DistributionMetric m : DistributionMetric.values()) {
            JsonNode node = expected;
            for (String part : m.path.split("\\.")) {
                node = node.get(part);
                assertNotNull(node, where + ": Spark has no " + m.path);
            }
            assertArrayClose(node, ours.values(m), where + "." + m.path);
            compared++;
        }
        // Every metric Spark reports must be one we compared.
        assertEquals(countLeaves(expected) - 1, compared, where + ": metrics in Spark's distribution");
    }

    private static int countLeaves(JsonNode node) {
        if (node.isArray()) {
            return 1;
        }
        int n = 0;
        for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
            n += countLeaves(it.next());
        }
        return n;
    }

    private static void assertArrayClose(JsonNode expected, double[] ours, String where) {
        assertEquals(expected.size(), ours.length, where + " length");
        for (int i = 0; i < ours.length; i++) {
            assertEquals(expected.get(i).asDouble(), ours[i], 1e-9, where + "[" + i + "]");
        }
    }

    private static Map<String, String> query(String q) {
        Map<String, String> out = new HashMap<>();
        if (q != null) {
            for (String kv : q.split("&")) {
                int eq = kv.indexOf('=');
                out.put(eq < 0 ? kv : kv.substring(0, eq), eq < 0 ? "" : kv.substring(eq + 1));
            }
        }
        return out;
    }

    private static double[] parseQuantiles(String s) {
        return java.util.Arrays.stream(s.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
