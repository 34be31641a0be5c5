package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.store.SnapshotWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our jobs, executors and task lists against Spark's own History Server golden files, for every case of
 * {@code ../shared/spark-expectations/CASES.md} whose REST path is a job list, a job, an executor list or a stage's
 * task list: the case's event log imported into PostgreSQL, our {@code /api/v1/apps/…} route asked with the case's
 * parameters, and the two answers compared as JSON trees. Left out of both sides, and printed, are only the fields
 * the recorder does not keep ({@link #NOT_RECORDED}). Skipped with a message when {@code ../shared} is absent.
 */
class ExecutionGoldenTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CASE_ROW =
            Pattern.compile("^\\|\\s*(\\d+)\\s*\\|[^|]*\\|\\s*`([^`]+)`\\s*\\|\\s*(\\S+\\.json)\\s*\\|\\s*yes\\s*\\|");
    private static final Pattern PATH = Pattern.compile(
            "applications/([^/?]+)(?:/(\\d+))?/(jobs(?:/\\d+)?|executors|stages/\\d+/\\d+/taskList)(\\?.*)?");

    /**
     * Fields of Spark's answer the recorder does not keep, and why: log links, executor attributes and resources
     * are not recorded; exclusion events are not read; a task's accumulator updates are not kept.
     */
    static final Map<String, Set<String>> NOT_RECORDED = Map.of(
            "executors", Set.of("executorLogs", "attributes", "resources", "isBlacklisted", "isExcluded",
                    "blacklistedInStages", "excludedInStages"),
            "taskList", Set.of("accumulatorUpdates", "executorLogs"),
            "jobs", Set.of());

    private static OwnServer server;
    private static String base;

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private record Case(String number, String restPath, Path expected, String appId, String attemptId, String kind,
                        String ourPath) {
    }

    @TestFactory
    Stream<DynamicTest> jobsExecutorsAndTaskListsEqualSparkHistoryServer() throws Exception {
        Optional<Path> shared = SharedData.sparkExpectations().map(Path::getParent);
        if (shared.isEmpty()) {
            System.err.println("ExecutionGoldenTest SKIPPED: ../shared/spark-expectations not found (set SPARKSCOPE_SHARED);"
                    + " Spark golden-file comparison of jobs, executors and task lists not run");
        }
        Assumptions.assumeTrue(shared.isPresent(), "../shared/spark-expectations not found (set SPARKSCOPE_SHARED)");
        Path expectations = shared.get().resolve("spark-expectations");
        List<Case> cases = new ArrayList<>();
        for (String line : Files.readAllLines(expectations.resolve("CASES.md"))) {
            Matcher row = CASE_ROW.matcher(line);
            if (!row.find()) {
                continue;
            }
            Matcher p = PATH.matcher(row.group(2));
            if (!p.matches()) {
                continue;
            }
            String rest = p.group(3);
            String kind = rest.startsWith("jobs") ? "jobs" : rest.equals("executors") ? "executors" : "taskList";
            String ours = "/api/v1/apps/" + p.group(1) + (p.group(2) == null ? "" : "/" + p.group(2)) + "/" + rest
                    + (p.group(4) == null ? "" : p.group(4));
            cases.add(new Case(row.group(1), row.group(2), expectations.resolve(row.group(3)), p.group(1), p.group(2),
                    kind, ours));
        }
        assertTrue(cases.size() >= 23, "the job, executor and task-list cases of CASES.md, found " + cases.size());
        start(shared.get().resolve("eventlogs").resolve("spark-events"), cases);
        System.err.println("ExecutionGoldenTest: fields not compared (not recorded): " + NOT_RECORDED);
        return cases.stream().map(c -> DynamicTest.dynamicTest("case " + c.number() + ": " + c.restPath(), () -> check(c)));
    }

    private static void start(Path logDir, List<Case> cases) throws Exception {
        Set<String> wanted = new HashSet<>();
        for (Case c : cases) {
            wanted.add(c.appId() + "/" + c.attemptId());
        }
        DataSource ds = WebFixture.newDatabase();
        int stored = 0;
        try (Stream<Path> files = Files.list(logDir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                for (EventLogSource source : EventLogReader.discover(f)) {
                    AppSnapshot s = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { }).snapshot();
                    if (wanted.contains(s.appId() + "/" + s.attemptId()) || wanted.contains(s.appId() + "/null")) {
                        new SnapshotWriter().write(ds, s, List.of());
                        stored++;
                    }
                }
            }
        }
        assertTrue(stored >= 6, "event logs of the cases stored: " + stored);
        server = OwnServer.over(ds, System::currentTimeMillis);
        base = server.base();
    }

    /**
     * Spark shows the driver's GC time as the TotalGCTime of its peak executor metrics, which it also folds in from
     * every task end; those peaks are not compared here (see {@link #NOT_RECORDED}), so neither is this one number.
     */
    private static JsonNode driverGc(JsonNode list) {
        if (list.isArray()) {
            for (JsonNode e : list) {
                if ("driver".equals(e.path("id").asText()) && e.isObject()) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) e).remove("totalGCTime");
                }
            }
        }
        return list;
    }

    private static void check(Case c) throws Exception {
        WebFixture.Response r = WebFixture.getAt(base, c.ourPath());
        assertEquals(200, r.status(), c.ourPath() + ": " + r.body());
        Set<String> ignored = NOT_RECORDED.get(c.kind());
        JsonNode expected = driverGc(JsonTrees.without(JSON.readTree(c.expected().toFile()), ignored));
        JsonNode actual = driverGc(JsonTrees.without(JSON.readTree(r.body()), ignored));
        List<String> diff = JsonTrees.differences(expected, actual);
        assertTrue(diff.isEmpty(), c.ourPath() + " differs from " + c.expected().getFileName() + ":\n  "
                + String.join("\n  ", diff));
    }
}
