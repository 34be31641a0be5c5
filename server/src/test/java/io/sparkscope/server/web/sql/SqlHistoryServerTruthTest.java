package io.sparkscope.server.web.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.server.web.api.SqlJson;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.SnapshotWriter;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.history.FsHistoryProvider;
import org.apache.spark.deploy.history.HistoryServer;
import org.apache.spark.deploy.history.HistoryServer$;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sparkscope's SQL executions — status, jobs, plan, graph nodes and edges, and every node's metric texts — as
 * stored in PostgreSQL and read back, equal Spark's own History Server's answer to {@code /api/v1/applications/{id}/sql?details=true}, with the History Server
 * (Spark 4.0) started in this JVM on the same logs: the SQL logs of ../shared/eventlogs (read in place through
 * links; skipped with a message when absent) and logs this test writes with local Spark SQL jobs.
 */
class SqlHistoryServerTruthTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SHARED = List.of(
            "spark-events-sql/local-1596020211915", "spark-events/app-20200706201101-0003",
            "spark-events/local-1642039451826", "other/spark-rapids-tools/aqeshuffle_eventlog",
            "other/spark-rapids-tools/complex_dec_eventlog", "other/spark-rapids-tools/customshuffle_eventlog",
            "other/spark-rapids-tools/dsAndDf_eventlog", "other/spark-rapids-tools/eventlog-gpu-dsv1",
            "other/spark-rapids-tools/eventlog_4nodes_8cores_dynamic_alloc",
            "other/spark-rapids-tools/eventlog_minimal_events", "other/spark-rapids-tools/gpu_oom_eventlog.zstd",
            "other/spark-rapids-tools/java_udf_eventlog", "other/spark-rapids-tools/jdbc_eventlog",
            "other/spark-rapids-tools/malformed_json_eventlog",
            "other/spark-rapids-tools/multiple_attempts_attempt_1_eventlog",
            "other/spark-rapids-tools/rapids_join_eventlog", "other/spark-rapids-tools/rapids_join_eventlog2",
            "other/spark-rapids-tools/rp_sql_eventlog", "other/spark-rapids-tools/spark2-eventlog",
            "other/spark-rapids-tools/tasks_executors_fail_compressed_eventlog.zstd",
            "other/spark-rapids-tools/truncated_eventlog");

    @TempDir
    static Path dir;
    /** One History Server per group of logs whose application ids differ (two shared logs share an id). */
    private static final List<Group> groups = new ArrayList<>();
    private static int sharedLogs;
    private static int allLogs;

    private record Group(Path dir, HistoryServer server, FsHistoryProvider provider, String url,
                         Map<Path, AppSnapshot> logs) {
    }

    @BeforeAll
    static void start() throws Exception {
        List<Path> candidates = new ArrayList<>();
        Path shared = io.sparkscope.core.testing.SharedData.eventLogs().orElse(null);
        if (shared == null) {
            System.out.println("SKIPPED (shared part): ../shared/eventlogs not found (set SPARKSCOPE_SHARED); only the "
                    + "logs this test writes are compared with the History Server");
        } else {
            for (String name : SHARED) {
                Path src = shared.resolve(name);
                if (Files.exists(src)) {
                    candidates.add(src.toAbsolutePath());
                    sharedLogs++;
                }
            }
        }
        javax.sql.DataSource db = io.sparkscope.store.TestDb.migrated();
        Path written = Files.createDirectories(dir.resolve("written"));
        SqlWorkloads.run(written, "sql truth aqe", true, SqlWorkloads::queries);
        SqlWorkloads.run(written, "sql truth no aqe", false, SqlWorkloads::queries);
        SqlWorkloads.run(written, "sql truth failing", true, SqlWorkloads::failing);
        try (var files = Files.list(written)) {
            candidates.addAll(files.sorted().toList());
        }
        List<Map<String, Path>> byKey = new ArrayList<>();
        List<Map<Path, AppSnapshot>> analysed = new ArrayList<>();
        for (Path log : candidates) {
            AppSnapshot fresh = EventLogAnalysis.analyze(EventLogReader.discover(log).get(0),
                    RecorderOptions.DEFAULTS, p -> { }).snapshot();
            // compared as the web API serves it: stored in PostgreSQL and read back
            // overwrite: two shared logs carry one application id, the later must not be skipped as stale
            new SnapshotWriter().overwrite(db, fresh, List.of());
            AppSnapshot s = SnapshotReader.read(db, fresh.appId(), fresh.attemptId()).orElseThrow();
            String key = s.appId() + "/" + s.attemptId();
            int g = 0;
            while (g < byKey.size() && byKey.get(g).containsKey(key)) {
                g++;
            }
            if (g == byKey.size()) {
                byKey.add(new HashMap<>());
                analysed.add(new java.util.LinkedHashMap<>());
            }
            byKey.get(g).put(key, log);
            analysed.get(g).put(log, s);
            allLogs++;
        }
        for (int g = 0; g < analysed.size(); g++) {
            Path logDir = Files.createDirectories(dir.resolve("shs-" + g));
            for (Path log : analysed.get(g).keySet()) {
                // the shared logs are read in place, through a link
                Files.createSymbolicLink(logDir.resolve(log.getFileName().toString()), log);
            }
            SparkConf conf = new SparkConf()
                    .set("spark.history.fs.logDirectory", logDir.toUri().toString())
                    .set("spark.history.fs.update.interval", "1s")
                    .set("spark.history.ui.port", "0");
            FsHistoryProvider provider = new FsHistoryProvider(conf);
            HistoryServer server = new HistoryServer(conf, provider,
                    HistoryServer$.MODULE$.createSecurityManager(conf), 0);
            server.initialize();
            server.bind();
            provider.start();
            groups.add(new Group(logDir, server, provider, "http://127.0.0.1:" + server.boundPort(),
                    analysed.get(g)));
        }
    }

    @AfterAll
    static void stop() {
        for (Group g : groups) {
            g.server().stop();
            g.provider().stop();
        }
    }

    @Test
    void everySqlExecutionEqualsTheHistoryServers() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        List<String> mismatches = new ArrayList<>();
        int executions = 0;
        int nodesWithMetrics = 0;
        int skipped = 0;
        for (Group group : groups) {
            for (Map.Entry<Path, AppSnapshot> entry : group.logs().entrySet()) {
                Path log = entry.getKey();
                AppSnapshot s = entry.getValue();
                String path = "/api/v1/applications/" + s.appId() + (s.attemptId() == null ? "" : "/" + s.attemptId())
                        + "/sql?details=true&planDescription=true&length=100000";
                JsonNode theirs = await(http, group.url() + path);
                if (theirs == null) {
                    // Spark's own reader gives up on this log (e.g. a malformed line): nothing to compare with
                    System.out.println("SKIPPED " + log.getFileName() + ": the History Server does not serve it");
                    skipped++;
                    continue;
                }
                Map<Long, JsonNode> byId = new HashMap<>();
                theirs.forEach(n -> byId.put(n.get("id").asLong(), n));
                Map<Integer, JobSummary> jobs = new HashMap<>();
                s.jobs().forEach(j -> jobs.put(j.jobId(), j));
                if (byId.size() != s.sqlExecutions().size()) {
                    mismatches.add(log.getFileName() + ": " + byId.size() + " SQL executions in Spark's answer, "
                            + s.sqlExecutions().size() + " in ours");
                }
                for (SqlExecutionSummary sql : s.sqlExecutions()) {
                    executions++;
                    JsonNode expected = byId.get(sql.executionId());
                    if (expected == null) {
                        mismatches.add(log.getFileName() + " execution " + sql.executionId() + ": not in Spark's");
                        continue;
                    }
                    JsonNode ours = JSON.readTree(JSON.writeValueAsString(SqlJson.execution(sql, jobs, true, true,
                            System.currentTimeMillis())));
                    if (sql.endTime() < 0) {
                        // still running when the log ends: both count up to their own "now"
                        ((ObjectNode) ours).remove("duration");
                        ((ObjectNode) expected).remove("duration");
                    }
                    for (JsonNode n : expected.get("nodes")) {
                        nodesWithMetrics += n.get("metrics").isEmpty() ? 0 : 1;
                    }
                    if (!ours.equals(expected)) {
                        mismatches.add(log.getFileName() + " execution " + sql.executionId() + ": "
                                + diff(expected, ours));
                    }
                }
            }
        }
        System.out.println("SQL executions compared with the History Server: " + executions + " in " + allLogs
                + " logs (" + sharedLogs + " shared), " + nodesWithMetrics + " nodes with metrics");
        mismatches.forEach(m -> System.out.println("MISMATCH " + m));
        assertTrue(skipped <= 1, "the History Server serves all logs but the malformed one");
        assertTrue(executions >= 12, "the written logs alone hold a dozen executions");
        assertTrue(nodesWithMetrics > 50);
        assertEquals(List.of(), mismatches);
    }

    /** Spark's answer, or null when the History Server still does not know the application after a minute. */
    private static JsonNode await(HttpClient http, String u) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(u)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                return JSON.readTree(r.body());
            }
            Thread.sleep(500);
        }
        return null;
    }

    /** The first difference, as a path and both values. */
    private static String diff(JsonNode expected, JsonNode actual) {
        return diff("", expected, actual);
    }

    private static String diff(String path, JsonNode e, JsonNode a) {
        if (e == null || a == null) {
            return path + ": expected " + e + ", got " + a;
        }
        if (e.isObject() && a.isObject()) {
            for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!e.get(f).equals(a.get(f))) {
                    return diff(path + "." + f, e.get(f), a.get(f));
                }
            }
            for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!e.has(f)) {
                    return path + "." + f + ": not in Spark's answer, ours " + a.get(f);
                }
            }
        }
        if (e.isArray() && a.isArray()) {
            for (int i = 0; i < Math.max(e.size(), a.size()); i++) {
                if (i >= e.size() || i >= a.size() || !e.get(i).equals(a.get(i))) {
                    return diff(path + "[" + i + "]", e.get(i), a.get(i));
                }
            }
        }
        String es = e.toString();
        String as = a.toString();
        return path + ": expected " + (es.length() > 400 ? es.substring(0, 400) + "…" : es) + ", got "
                + (as.length() > 400 ? as.substring(0, 400) + "…" : as);
    }
}
