package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.server.cli.CliRun;
import io.sparkscope.server.web.JsonTrees;
import io.sparkscope.server.web.WebServer;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spark's REST routes on Sparkscope's server, against Spark's own History Server on the same event logs: the logs
 * of two real local-mode applications are served by Spark's History Server and imported into a database that a
 * Sparkscope server serves. {@code sparkscope fetch} from either must store the same rows, and each route's answer
 * must be Spark's, apart from what the database does not keep (named per route below).
 */
class SparkRestApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String TOKEN = "s3cret-token";

    private static Path logDir;
    private static SparkHistory shs;
    private static String mixedId;
    private static String smallId;
    private static String imported;
    private static WebServer server;
    private static String sparkscope;

    @BeforeAll
    static void writeLogsImportAndServe() throws Exception {
        logDir = Files.createTempDirectory("sparkscope-restapi-");
        mixedId = SparkHistory.runApp(logDir, "rest-mixed", SparkHistory::mixedWorkload);
        smallId = SparkHistory.runApp(logDir, "rest-small", SparkHistory::smallWorkload);
        shs = SparkHistory.start(logDir);
        shs.awaitCompleted(2);
        imported = TestDb.newDatabaseName();
        CliRun imp = CliRun.of("import", logDir.toString(), "--db", TestDb.url(imported));
        assertEquals(0, imp.exitCode(), imp.err());
        server = new WebServer(TestDb.dataSource(imported), new WebServer.Options(null, null),
                System::currentTimeMillis);
        sparkscope = "http://127.0.0.1:" + server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        if (shs != null) {
            shs.close();
        }
        if (logDir != null) {
            try (Stream<Path> walk = Files.walk(logDir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    // ---- the proof: fetch from Spark's History Server and from Sparkscope store the same rows ----------------------

    @Test
    void fetchingFromSparkscopeStoresWhatFetchingFromSparkStores() throws Exception {
        CliRun fromSparkscope = fetchBothAndCompare(sparkscope, Map.of());
        assertTrue(fromSparkscope.err().contains("fetched 2 application(s), 0 already stored, 0 failed"),
                fromSparkscope.err());
        // The default source: Sparkscope answers …/logs with 404, so this exercises the fall-back to the REST path.
        assertTrue(fromSparkscope.err().contains("via REST API (event logs refused: 404): stored"),
                fromSparkscope.err());
    }

    /**
     * Past the recorder's per-stage cap ({@code --tasks-per-stage 2} here, on import and on both fetches) the stored
     * tasks are a sample, so a fetch from Sparkscope keeps the slowest of the sample where a fetch from Spark keeps
     * the slowest of all: the task rows, the stages' digest of them and a finding naming the slowest task differ.
     * Everything else must not: the per-executor sums of a sampled stage come from the stage's own totals when one
     * executor ran every task (as in local mode).
     */
    @Test
    void pastTheTaskCapOnlyTheKeptTasksDiffer() throws Exception {
        String b = TestDb.newDatabaseName();
        CliRun imp = CliRun.of("import", logDir.toString(), "--db", TestDb.url(b), "--tasks-per-stage", "2");
        assertEquals(0, imp.exitCode(), imp.err());
        assertTrue(TestDb.count(TestDb.dataSource(b), "select count(*) from stage_attempt where task_detail <> 'ALL'")
                > 0, "some stage went past the cap");
        WebServer capped = new WebServer(TestDb.dataSource(b), new WebServer.Options(null, null),
                System::currentTimeMillis);
        try {
            fetchBothAndCompare("http://127.0.0.1:" + capped.start("127.0.0.1", 0), Map.of("task", List.of("*"),
                    "stage_attempt", List.of("tasks_digest"), "finding", List.of("details")), "--tasks-per-stage", "2");
        } finally {
            capped.stop();
        }
    }

    /**
     * Fetches the applications from Spark's History Server (REST path) into one database and from the Sparkscope
     * server at {@code base} (default source) into another, asserts every row of every table equal apart from
     * {@code leftOut} (see {@link #rows}), and returns the second fetch.
     */
    private static CliRun fetchBothAndCompare(String base, Map<String, List<String>> leftOut, String... options)
            throws Exception {
        String a = TestDb.newDatabaseName();
        List<String> fromSparkArgs = new ArrayList<>(List.of("fetch", "--history-server", shs.url, "--db",
                TestDb.url(a), "--source", "rest"));
        fromSparkArgs.addAll(List.of(options));
        CliRun fromSpark = CliRun.of(fromSparkArgs.toArray(String[]::new));
        assertEquals(0, fromSpark.exitCode(), fromSpark.err());
        String c = TestDb.newDatabaseName();
        List<String> fromSparkscopeArgs = new ArrayList<>(List.of("fetch", "--history-server", base, "--db",
                TestDb.url(c)));
        fromSparkscopeArgs.addAll(List.of(options));
        CliRun fromSparkscope = CliRun.of(fromSparkscopeArgs.toArray(String[]::new));
        assertEquals(0, fromSparkscope.exitCode(), fromSparkscope.err());

        Map<String, List<String>> expected = rows(TestDb.dataSource(a), leftOut);
        Map<String, List<String>> actual = rows(TestDb.dataSource(c), leftOut);
        if (leftOut.containsKey("task")) {
            // Past the cap the fetcher cannot recompute what Spark's History Server takes over the wrong tasks of a
            // stage with failures (see withoutUnmasked), so Spark's values stay; whether they differ from the right
            // ones depends on how long the failed tasks happened to run.
            Set<String> withFailures = stagesWithFailures(TestDb.dataSource(a));
            expected.put("stage_statistics", withoutUnmaskedRows(expected.get("stage_statistics"), withFailures));
            actual.put("stage_statistics", withoutUnmaskedRows(actual.get("stage_statistics"), withFailures));
        }
        assertEquals(expected.keySet(), actual.keySet());
        assertTrue(expected.get("executor").size() >= 2 && expected.get("stage_statistics").size() > 10,
                "the comparison covers executors and task quantiles");
        assertTrue(expected.get("sql_execution").size() > 0, "and SQL executions");
        if (!leftOut.containsKey("task")) {
            assertTrue(expected.get("task").size() > 10, "and tasks: " + expected.get("task").size());
        }
        List<String> differences = new ArrayList<>();
        expected.forEach((table, rows) -> differences.addAll(differences(table, rows, actual.get(table))));
        assertTrue(differences.isEmpty(), String.join("\n", differences));
        return fromSparkscope;
    }

    /**
     * Tables left out: {@code fetch_state} (keyed by the server fetched from, which differs by design) and the
     * server's own bookkeeping ({@code log_watch}, {@code notification}, {@code task_prune}, the migrations' history).
     * Columns left out: {@code app_pk} (a surrogate key, numbered in the order applications were stored), the summary
     * tables' {@code shard} (app_pk modulo 16) and every
     * {@code timestamptz} column (when a row was written, not what it says about the application).
     *
     * @param alsoLeftOut per table, further columns to leave out ({@code *}: the whole table)
     */
    static Map<String, List<String>> rows(DataSource ds, Map<String, List<String>> alsoLeftOut) throws Exception {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Connection c = ds.getConnection()) {
            Map<String, List<String>> dropped = new LinkedHashMap<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT t.table_name,"
                    + " col.column_name, col.data_type FROM information_schema.tables t"
                    + " JOIN information_schema.columns col USING (table_schema, table_name)"
                    + " WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
                    + " AND t.table_name NOT IN ('fetch_state', 'log_watch', 'notification', 'task_prune')"
                    + " AND t.table_name NOT LIKE '%schema_history'"
                    // a partitioned table's rows are read through it, not again through each of its partitions
                    + " AND NOT (SELECT relispartition FROM pg_class WHERE oid = to_regclass(t.table_name))"
                    + " ORDER BY 1, col.ordinal_position")) {
                while (rs.next()) {
                    if (alsoLeftOut.getOrDefault(rs.getString(1), List.of()).contains("*")) {
                        continue;
                    }
                    List<String> d = dropped.computeIfAbsent(rs.getString(1), k -> new ArrayList<>(
                            alsoLeftOut.getOrDefault(k, List.of())));
                    // The summary tables spread their counters over shards by app_pk, so the same counts land in
                    // another shard's row when the two ways in number the applications differently.
                    if (rs.getString(2).equals("app_pk") || rs.getString(2).equals("shard")
                            || rs.getString(3).startsWith("timestamp")) {
                        d.add(rs.getString(2));
                    }
                }
            }
            for (var e : dropped.entrySet()) {
                List<String> rows = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT (to_jsonb(t) - ?::text[])::text FROM "
                        + e.getKey() + " t ORDER BY 1")) { // table names from the catalogue
                    ps.setArray(1, c.createArrayOf("text", e.getValue().toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows.add(rs.getString(1));
                        }
                    }
                }
                out.put(e.getKey(), rows);
            }
        }
        return out;
    }

    private static List<String> differences(String table, List<String> expected, List<String> actual) {
        List<String> out = new ArrayList<>();
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(expected);
        missing.stream().limit(3).forEach(r -> out.add(table + ": only via Spark:      " + r));
        extra.stream().limit(3).forEach(r -> out.add(table + ": only via Sparkscope: " + r));
        if (expected.size() != actual.size()) {
            out.add(table + ": " + expected.size() + " rows via Spark, " + actual.size() + " via Sparkscope");
        }
        return out;
    }

    // ---- each route's answer against Spark's ----------------------------------------------------------------------

    static JsonNode get(String base, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/" + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), base + "/api/v1/" + path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static void assertSame(String path, Set<String> ignored) throws Exception {
        JsonNode spark = withoutUnmasked(JsonTrees.without(get(shs.url, path), ignored));
        JsonNode ours = withoutUnmasked(JsonTrees.without(get(sparkscope, path), ignored));
        List<String> d = JsonTrees.differences(spark, ours);
        assertTrue(d.isEmpty(), path + ":\n" + String.join("\n", d));
    }

    /**
     * "stageId attemptId" of every stage attempt with failed or killed tasks, in any application (the statistics rows
     * compared carry no application, so a stage id with failures in one leaves out that id in both: fewer rows
     * compared, never a wrong one).
     */
    private static Set<String> stagesWithFailures(DataSource ds) throws Exception {
        Set<String> out = new TreeSet<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT stage_id, attempt_id FROM stage_attempt WHERE num_failed_tasks + num_killed_tasks > 0")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + " " + rs.getInt(2));
            }
        }
        return out;
    }

    private static List<String> withoutUnmaskedRows(List<String> rows, Set<String> stagesWithFailures)
            throws Exception {
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            JsonNode n = new ObjectMapper().readTree(row);
            boolean unmasked = UNMASKED.contains(n.path("metric").asText())
                    && stagesWithFailures.contains(n.path("stage_id").asInt() + " " + n.path("stage_attempt_id").asInt());
            if (!unmasked) {
                out.add(row);
            }
        }
        return out;
    }

    private static final Set<String> NONE = Set.of();
    /** Task quantiles Spark's History Server takes over every task, not the successful ones, when some failed. */
    private static final List<String> UNMASKED = List.of("duration", "gettingResultTime", "schedulerDelay");

    /**
     * Of a stage with failed or killed tasks, the quantiles of {@link #UNMASKED} left out: Spark's History Server
     * computes them over the wrong tasks (see {@code RestSnapshots}), Sparkscope over the successful ones, as Spark
     * computes every other metric.
     */
    private static JsonNode withoutUnmasked(JsonNode n) {
        if (n.isArray()) {
            n.forEach(SparkRestApiTest::withoutUnmasked);
        } else if (n.isObject() && n.has("taskMetricsDistributions")
                && n.path("numFailedTasks").asInt() + n.path("numKilledTasks").asInt() > 0) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) n.get("taskMetricsDistributions")).remove(UNMASKED);
        }
        return n;
    }

    @Test
    void applicationsAsSparkListsThem() throws Exception {
        // The History Server's "last updated" is its log file's modification time; Sparkscope has no file.
        Set<String> ignored = Set.of("lastUpdated", "lastUpdatedEpoch");
        assertSame("applications", ignored);
        assertSame("applications?status=completed", ignored);
        assertSame("applications?status=running", ignored);
        assertSame("applications?limit=1", ignored);
        JsonNode mixed = get(sparkscope, "applications/" + mixedId);
        long end = mixed.path("attempts").get(0).path("endTimeEpoch").asLong();
        String endText = mixed.path("attempts").get(0).path("endTime").asText();
        assertSame("applications?minEndDate=" + endText, ignored);
        assertSame("applications?maxEndDate=" + endText, ignored);
        assertSame("applications?minDate=2010-01-01&maxDate=3000-01-01", ignored);
        assertSame("applications?maxDate=2010-01-01", ignored);
        assertTrue(end > 0);
        assertSame("applications/" + mixedId, ignored);
        assertSame("applications/" + smallId, ignored);
        assertSame("version", NONE);
    }

    @Test
    void environmentAsSparkGivesIt() throws Exception {
        // Not kept: metrics properties, the classpath and resource profiles. The History Server lists the properties
        // in its own order; compared as sets.
        for (String id : List.of(mixedId, smallId)) {
            String path = "applications/" + id + "/environment";
            JsonNode spark = get(shs.url, path);
            JsonNode ours = get(sparkscope, path);
            assertEquals(spark.path("runtime"), ours.path("runtime"), path);
            for (String f : List.of("sparkProperties", "systemProperties", "hadoopProperties")) {
                assertEquals(pairs(spark.path(f)), pairs(ours.path(f)), path + " " + f);
            }
        }
    }

    private static Set<String> pairs(JsonNode list) {
        Set<String> out = new TreeSet<>();
        list.forEach(p -> out.add(p.toString()));
        return out;
    }

    /** Per stage, what Sparkscope does not keep: peak executor metrics, its RDDs and accumulators, log links. */
    private static final Set<String> STAGE_NOT_KEPT = Set.of("peakExecutorMetrics", "executorMetricsDistributions",
            "peakMemoryMetrics", "rddIds", "accumulatorUpdates", "executorLogs");

    @Test
    void stagesAsSparkGivesThem() throws Exception {
        String app = "applications/" + mixedId;
        assertFalse(get(shs.url, app + "/stages").findValues("description").isEmpty(),
                "the job group's description is its stages' description too");
        assertSame(app + "/stages", STAGE_NOT_KEPT);
        assertSame(app + "/stages?status=failed&status=skipped", STAGE_NOT_KEPT);
        assertSame(app + "/stages?details=true&withSummaries=true", STAGE_NOT_KEPT);
        for (JsonNode s : get(shs.url, app + "/stages")) {
            String stage = app + "/stages/" + s.path("stageId").asInt();
            String attempt = stage + "/" + s.path("attemptId").asInt();
            assertSame(stage, STAGE_NOT_KEPT);
            assertSame(attempt, STAGE_NOT_KEPT);
            assertSame(attempt + "?details=true&taskStatus=FAILED&withSummaries=true&quantiles=0.0,0.5,1.0",
                    STAGE_NOT_KEPT);
            if (s.path("numCompleteTasks").asInt() > 0) {
                Set<String> unmasked = s.path("numFailedTasks").asInt() + s.path("numKilledTasks").asInt() > 0
                        ? Set.copyOf(UNMASKED) : NONE;
                assertSame(attempt + "/taskSummary", unmasked);
                assertSame(attempt + "/taskSummary?quantiles=0.0,0.25,0.5,0.75,1.0", unmasked);
            }
            if (s.path("numCompleteTasks").asInt() + s.path("numFailedTasks").asInt() > 0) {
                assertSame(attempt + "/taskList?sortBy=-runtime&status=SUCCESS&status=FAILED&length=50",
                        STAGE_NOT_KEPT);
            }
        }
    }

    @Test
    void jobsExecutorsAndSqlAsSparkGivesThem() throws Exception {
        for (String id : List.of(mixedId, smallId)) {
            String app = "applications/" + id;
            // numActiveStages: the recorder's count goes below zero where Spark's History Server stays at 0 (a job
            // whose stage was skipped), a recorder difference outside these routes.
            assertSame(app + "/jobs", Set.of("numActiveStages"));
            assertSame(app + "/jobs/0", NONE);
            // Not kept: peak memory metrics as the History Server folds them, log links, attributes, resources,
            // storage memory; the driver's GC time is read from other events (see FetchFromHistoryServerTest).
            Set<String> notKept = Set.of("peakMemoryMetrics", "executorLogs", "attributes", "resources",
                    "memoryMetrics", "totalGCTime");
            assertSame(app + "/allexecutors", notKept);
            assertSame(app + "/executors", notKept);
            assertSame(app + "/sql?details=false&planDescription=true&offset=0&length=500", NONE);
        }
    }

    // ---- errors -----------------------------------------------------------------------------------------------------

    private static HttpResponse<String> send(String base, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/api/v1/" + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertAnswer(int status, String text, String path) throws Exception {
        HttpResponse<String> r = send(sparkscope, path, null);
        assertEquals(status, r.statusCode(), path + ": " + r.body());
        assertTrue(r.body().contains(text), path + ": " + r.body());
    }

    @Test
    void unknownThingsAre404InSparksWordsAndBadParameters400() throws Exception {
        // Spark's History Server answers 404 to these too.
        for (String path : List.of("applications/no-such-app", "applications/" + mixedId + "/stages/999",
                "applications/" + mixedId + "/stages/0/7")) {
            assertEquals(404, send(shs.url, path, null).statusCode(), path);
        }
        assertAnswer(404, "no such app: no-such-app", "applications/no-such-app");
        assertAnswer(404, "no such app: no-such-app", "applications/no-such-app/environment");
        assertAnswer(404, "no such app: no-such-app", "applications/no-such-app/jobs");
        assertAnswer(404, "no such app: no-such-app/2", "applications/no-such-app/2/stages");
        assertAnswer(404, "unknown app " + mixedId + ", attempt 9", "applications/" + mixedId + "/9");
        assertAnswer(404, "unknown stage: 999", "applications/" + mixedId + "/stages/999");
        assertAnswer(404, "unknown stage: 999", "applications/" + mixedId + "/stages/999/0");
        assertAnswer(404, "unknown attempt for stage 0.  Found attempts: [0]",
                "applications/" + mixedId + "/stages/0/7");
        assertAnswer(404, "unknown attempt for stage 0.  Found attempts: [0]",
                "applications/" + mixedId + "/stages/0/7/taskList");
        assertAnswer(404, "no event log", "applications/" + mixedId + "/logs");

        assertAnswer(400, "\"parameter\":\"status\"", "applications?status=done");
        assertAnswer(400, "\"parameter\":\"minDate\"", "applications?minDate=yesterday");
        assertAnswer(400, "\"parameter\":\"limit\"", "applications?limit=-1");
        assertAnswer(400, "\"parameter\":\"details\"", "applications/" + mixedId + "/stages/0/0?details=yes");
        assertAnswer(400, "\"parameter\":\"taskStatus\"", "applications/" + mixedId + "/stages/0/0?taskStatus=DONE");
        assertAnswer(400, "\"parameter\":\"quantiles\"",
                "applications/" + mixedId + "/stages/0/0/taskSummary?quantiles=0.5,x");
        assertAnswer(400, "\"parameter\":\"quantiles\"",
                "applications/" + mixedId + "/stages/0/0/taskSummary?quantiles=0.33");
        assertAnswer(400, "\"parameter\":\"stageId\"", "applications/" + mixedId + "/stages/x");
    }

    @Test
    void theSparkRoutesNeedTheTokenLikeTheRestOfTheApi() throws Exception {
        WebServer guarded = new WebServer(TestDb.dataSource(imported), new WebServer.Options(null, TOKEN),
                System::currentTimeMillis);
        String base = "http://127.0.0.1:" + guarded.start("127.0.0.1", 0);
        try {
            for (String path : List.of("applications", "version", "applications/" + mixedId + "/stages")) {
                assertEquals(401, send(base, path, null).statusCode(), path);
                assertEquals(200, send(base, path, TOKEN).statusCode(), path);
            }
        } finally {
            guarded.stop();
        }
    }
}
