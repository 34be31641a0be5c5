package io.sparkscope.core.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Executor peaks against the History Server's {@code peakMemoryMetrics} in Spark's golden files, for every executor
 * list case of {@code CASES.md}. Spark shows all zeros for an executor whose task ends carried only Spark's
 * "nothing measured" placeholder; Sparkscope shows no peaks there. Every value Spark shows above 0 must be ours.
 */
class ExecutorPeaksGoldenTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CASE_ROW =
            Pattern.compile("^\\|\\s*(\\d+)\\s*\\|[^|]*\\|\\s*`applications/([^/`]+)/executors`\\s*\\|\\s*(\\S+\\.json)\\s*\\|\\s*yes\\s*\\|");

    @TestFactory
    Stream<DynamicTest> executorPeaksEqualSparkHistoryServer() throws Exception {
        Path expectations = SharedData.sparkExpectations().orElse(null);
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(expectations != null && logs != null,
                "SKIPPED: ../shared/spark-expectations or ../shared/eventlogs not found (set SPARKSCOPE_SHARED); "
                        + "executor peak comparison with Spark's golden files not run");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Files.readAllLines(expectations.resolve("CASES.md"))) {
            Matcher row = CASE_ROW.matcher(line);
            if (row.find()) {
                String appId = row.group(2);
                Path expected = expectations.resolve(row.group(3));
                tests.add(DynamicTest.dynamicTest("case " + row.group(1) + ": " + appId + " executors",
                        () -> check(JSON.readTree(expected.toFile()), read(logs.resolve("spark-events"), appId))));
            }
        }
        assertTrue(tests.size() >= 5, "expected the executor list cases of CASES.md, found " + tests.size());
        return tests.stream();
    }

    /** Also asserted on its own, so a change to CASES.md cannot silently drop the one log with real peaks. */
    @TestFactory
    Stream<DynamicTest> theLogWithExecutorMetricsHasThemAll() {
        Path expectations = SharedData.sparkExpectations().orElse(null);
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(expectations != null && logs != null,
                "SKIPPED: ../shared not found (set SPARKSCOPE_SHARED); executor peak golden check not run");
        return Stream.of(DynamicTest.dynamicTest("application_1553914137147_0018", () -> {
            JsonNode expected = JSON.readTree(expectations
                    .resolve("executor_list_with_executor_metrics_json_expectation.json").toFile());
            AppSnapshot app = read(logs.resolve("spark-events"), "application_1553914137147_0018");
            int compared = check(expected, app);
            assertEquals(4, compared, "driver and three executors with measured peaks");
            ExecutorSummary driver = executor(app, "driver");
            assertEquals(209_883_992L, driver.peakMetrics().get("JVMHeapMemory"));
        }));
    }

    /** @return the executors compared that have measured peaks */
    private static int check(JsonNode expected, AppSnapshot app) {
        int withPeaks = 0;
        for (JsonNode e : expected) {
            String id = e.get("id").asText();
            ExecutorSummary ours = executor(app, id);
            JsonNode peaks = e.get("peakMemoryMetrics");
            boolean sparkMeasured = false;
            if (peaks != null) {
                for (Iterator<Map.Entry<String, JsonNode>> it = peaks.fields(); it.hasNext(); ) {
                    if (it.next().getValue().asLong() > 0) {
                        sparkMeasured = true;
                    }
                }
            }
            if (peaks == null) {
                assertTrue(ours.peakMetrics().isEmpty(),
                        app.appId() + " executor " + id + ": Spark shows no peaks, ours " + ours.peakMetrics());
                continue;
            }
            if (!sparkMeasured) {
                // Spark shows them all 0 (a task end's sample taken before anything was measured): so do we
                assertTrue(!ours.peakMetrics().isEmpty() && ours.peakMetrics().values().stream().allMatch(v -> v == 0),
                        app.appId() + " executor " + id + ": Spark's peaks all 0, ours " + ours.peakMetrics());
                continue;
            }
            withPeaks++;
            for (Iterator<Map.Entry<String, JsonNode>> it = peaks.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> m = it.next();
                long sparkValue = m.getValue().asLong();
                Long ourValue = ours.peakMetrics().get(m.getKey());
                if (sparkValue > 0) {
                    assertEquals(sparkValue, ourValue, app.appId() + " executor " + id + " " + m.getKey());
                } else {
                    assertTrue(ourValue == null || ourValue == 0,
                            app.appId() + " executor " + id + " " + m.getKey() + ": Spark 0, ours " + ourValue);
                }
            }
        }
        return withPeaks;
    }

    private static ExecutorSummary executor(AppSnapshot app, String id) {
        ExecutorSummary found = app.executors().stream().filter(x -> x.executorId().equals(id)).findFirst()
                .orElse(null);
        assertNotNull(found, app.appId() + ": no executor " + id + " in " + app.executors().stream()
                .map(ExecutorSummary::executorId).toList());
        return found;
    }

    private static AppSnapshot read(Path logDir, String appId) throws Exception {
        List<String> problems = new ArrayList<>();
        Path file = logDir.resolve(appId);
        for (EventLogSource source : EventLogReader.discover(file)) {
            AppSnapshot s = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, problems::add).snapshot();
            if (appId.equals(s.appId())) {
                return s;
            }
        }
        throw new AssertionError("no log " + file + " for " + appId);
    }
}
