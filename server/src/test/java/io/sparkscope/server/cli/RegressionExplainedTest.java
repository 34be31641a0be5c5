package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.server.web.WebServer;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recurring job's runs, written as event logs here and imported into a real PostgreSQL: a run that read twice the
 * input in twice the time is no Regression and its history says the input grew; a run slowed by a setting is a
 * Regression that names the setting, on the history page, in the API and on the run's own page.
 */
class RegressionExplainedTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long DAY = 86_400_000L;
    private static final long T0 = 1_764_400_000_000L;
    static final long GB = 1L << 30;

    private WebServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    /**
     * A complete run of 'nightly' with its Spark settings and two stages (no job events: stages matched by name):
     * "load" reads the input in a quarter of the executor time, "aggregate" the rest.
     */
    static Path log(Path dir, String appId, long start, long durationMs, long inputBytes, Map<String, String> conf)
            throws Exception {
        return log(dir, appId, start, durationMs, inputBytes, conf, 0, null);
    }

    /**
     * @param gcMs JVM GC time of the "aggregate" stage's task
     * @param plan the operators of one SQL query run at the start, as "Root(Child,Child(Grandchild))"; null for none
     */
    static Path log(Path dir, String appId, long start, long durationMs, long inputBytes, Map<String, String> conf,
                    long gcMs, String plan) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"nightly\",\"App ID\":\"" + appId
                + "\",\"Timestamp\":" + start + ",\"User\":\"u\"}");
        lines.add("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{},\"Spark Properties\":"
                + JSON.writeValueAsString(conf) + ",\"Hadoop Properties\":{},\"System Properties\":{},"
                + "\"Classpath Entries\":{}}");
        if (plan != null) {
            lines.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\","
                    + "\"executionId\":0,\"description\":\"q\",\"details\":\"\",\"physicalPlanDescription\":\"\","
                    + "\"sparkPlanInfo\":" + planJson(plan) + ",\"time\":" + start + "}");
            lines.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\","
                    + "\"executionId\":0,\"time\":" + (start + durationMs - 1) + "}");
        }
        long run = durationMs * 8 / 10;
        String[] names = {"load at Nightly.scala:10", "aggregate at Nightly.scala:20"};
        long[] runTimes = {run / 4, run - run / 4};
        for (int s = 0; s < 2; s++) {
            lines.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":" + s
                    + ",\"Stage Attempt ID\":0,\"Stage Name\":\"" + names[s] + "\",\"Number of Tasks\":1,"
                    + "\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\",\"Submission Time\":" + start
                    + ",\"Accumulables\":[]}}");
            lines.add("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + s + ",\"Stage Attempt ID\":0,"
                    + "\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{"
                    + "\"Task ID\":" + (s + 1) + ",\"Index\":0,\"Attempt\":0,\"Launch Time\":" + start
                    + ",\"Executor ID\":\"1\",\"Host\":\"h\",\"Locality\":\"ANY\",\"Speculative\":false,"
                    + "\"Getting Result Time\":0,\"Finish Time\":" + (start + runTimes[s] + 10)
                    + ",\"Failed\":false,\"Killed\":false},\"Task Metrics\":{\"Executor Run Time\":" + runTimes[s]
                    + ",\"Executor Deserialize Time\":10" + (s == 1 ? ",\"JVM GC Time\":" + gcMs : "") + (s == 0 ? ",\"Input Metrics\":{\"Bytes Read\":"
                    + inputBytes + ",\"Records Read\":1000}" : "") + "}}");
        }
        lines.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + (start + durationMs) + "}");
        return Files.writeString(dir.resolve(appId), String.join("\n", lines) + "\n");
    }

    /** "A(B,C(D))" as Spark's sparkPlanInfo JSON. */
    static String planJson(String plan) {
        int open = plan.indexOf('(');
        String name = open < 0 ? plan : plan.substring(0, open);
        List<String> children = new ArrayList<>();
        if (open >= 0) {
            String inner = plan.substring(open + 1, plan.length() - 1);
            int depth = 0;
            int from = 0;
            for (int i = 0; i < inner.length(); i++) {
                char c = inner.charAt(i);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                if (c == ',' && depth == 0) {
                    children.add(planJson(inner.substring(from, i)));
                    from = i + 1;
                }
            }
            children.add(planJson(inner.substring(from)));
        }
        return "{\"nodeName\":\"" + name + "\",\"simpleString\":\"" + name + "\",\"children\":["
                + String.join(",", children) + "],\"metadata\":{},\"metrics\":[]}";
    }

    static Map<String, String> conf(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Three usual runs of 1 GiB in about 10 s (with {@code plan}, or none), then {@code fourth}. */
    static List<String> importArgs(Path dir, Path fourth, String plan) throws Exception {
        Map<String, String> usual = conf("spark.sql.shuffle.partitions", "200");
        List<String> args = new ArrayList<>(List.of("import"));
        long[] durations = {10_000, 10_500, 9_500};
        for (int i = 0; i < durations.length; i++) {
            args.add(log(dir, "app-night-" + (i + 1), T0 + i * DAY, durations[i], GB, usual, 0, plan).toString());
        }
        args.add(fourth.toString());
        return args;
    }

    static String imported(Path dir, Path fourth) throws Exception {
        return imported(dir, fourth, null);
    }

    static String imported(Path dir, Path fourth, String usualPlan) throws Exception {
        String db = TestDb.newDatabaseName();
        List<String> args = importArgs(dir, fourth, usualPlan);
        args.addAll(List.of("--db", TestDb.url(db)));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        return db;
    }

    static List<String> regressions(DataSource ds) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("select a.app_id from finding f join application a"
                     + " using (app_pk) where f.heuristic = 'Regression' order by a.app_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private String get(DataSource ds, String path) throws Exception {
        if (server == null) {
            server = new WebServer(ds, new WebServer.Options(null, null), System::currentTimeMillis);
        }
        int port = server.start("127.0.0.1", 0);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path);
        // numeric character references back to characters, so the test reads the text a browser shows
        return java.util.regex.Pattern.compile("&#(\\d+);").matcher(r.body())
                .replaceAll(m -> String.valueOf((char) Integer.parseInt(m.group(1))));
    }

    /** The part of a page from {@code marker} on, short enough for a failure message. */
    static String excerpt(String page, String marker) {
        int i = Math.max(0, page.indexOf(marker));
        return page.substring(i, Math.min(page.length(), i + 3000));
    }

    @Test
    void twiceTheInputInTwiceTheTimeIsNoRegressionAndTheHistorySaysTheInputGrew(@TempDir Path dir)
            throws Exception {
        Path doubled = log(dir, "app-night-4", T0 + 3 * DAY, 21_000, 2 * GB,
                conf("spark.sql.shuffle.partitions", "200"));
        DataSource ds = TestDb.dataSource(imported(dir, doubled));
        assertEquals(List.of(), regressions(ds), "2.1× the time for 2× the input is no regression");

        String page = get(ds, "/history?name=nightly");
        assertTrue(page.contains("input grew 2.0× (wall time per byte 1.1× the usual): not a regression"),
                excerpt(page, "history-table"));
        assertFalse(page.contains("▲ slow"), "not marked slow either");
        JsonNode runs = JSON.readTree(get(ds, "/api/v1/history?name=nightly")).get("runs");
        JsonNode last = runs.get(runs.size() - 1);
        assertEquals("app-night-4", last.get("appId").asText());
        assertEquals(2.0, last.get("inputGrowth").asDouble(), 1e-9);
        assertFalse(last.get("slow").asBoolean());
    }

    @Test
    void aSettingChangedForTheWorseIsARegressionThatNamesIt(@TempDir Path dir) throws Exception {
        Path slower = log(dir, "app-night-4", T0 + 3 * DAY, 22_000, GB,
                conf("spark.sql.shuffle.partitions", "4000"));
        DataSource ds = TestDb.dataSource(imported(dir, slower));
        assertEquals(List.of("app-night-4"), regressions(ds));

        JsonNode runs = JSON.readTree(get(ds, "/api/v1/history?name=nightly")).get("runs");
        JsonNode regression = runs.get(runs.size() - 1).get("regression");
        assertNotNull(regression, runs.toString());
        assertEquals("HIGH", regression.get("severity").asText());
        JsonNode setting = regression.get("details").get("settingsChanged").get(0);
        assertEquals("spark.sql.shuffle.partitions", setting.get("key").asText());
        assertEquals("200", setting.get("before").asText());
        assertEquals("4000", setting.get("after").asText());
        assertEquals("app-night-3", regression.get("details").get("baselineAppId").asText());
        assertEquals(1.0, regression.get("details").get("inputRatio").asDouble(), 1e-9, "the same input");
        assertEquals("no job: aggregate at Nightly.scala:20",
                regression.get("details").get("stagesGrown").get(0).get("stage").asText(), "the stage that grew most");
        assertTrue(regression.get("message").asText().contains(
                "Settings changed since app-night-3: spark.sql.shuffle.partitions 200 → 4000."),
                regression.get("message").asText());

        String history = get(ds, "/history?name=nightly");
        assertTrue(history.contains("settings changed: spark.sql.shuffle.partitions 200 → 4000"),
                excerpt(history, "history-table"));
        assertTrue(history.contains("HIGH regression: 2.2× the median wall time"), excerpt(history, "history-table"));
        String app = get(ds, "/apps/app-night-4");
        assertTrue(app.contains("Settings changed since that run"), "the finding's details on the run's page");
        assertTrue(app.contains("spark.sql.shuffle.partitions"), excerpt(app, "Settings changed"));
    }

    @Test
    void aChangedPlanIsARegressionThatNamesTheOperatorsAddedAndRemoved(@TempDir Path dir) throws Exception {
        String usual = "SortMergeJoin(Exchange(Scan parquet),Exchange(Scan parquet))";
        Path slower = log(dir, "app-night-4", T0 + 3 * DAY, 22_000, GB, conf("spark.sql.shuffle.partitions", "200"),
                0, "BroadcastNestedLoopJoin(Scan parquet,BroadcastExchange(Scan parquet))");
        DataSource ds = TestDb.dataSource(imported(dir, slower, usual));
        assertEquals(List.of("app-night-4"), regressions(ds));
        JsonNode runs = JSON.readTree(get(ds, "/api/v1/history?name=nightly")).get("runs");
        JsonNode details = runs.get(runs.size() - 1).get("regression").get("details");
        assertEquals("{\"BroadcastExchange\":1,\"BroadcastNestedLoopJoin\":1}", details.get("operatorsAdded").toString());
        assertEquals("{\"Exchange\":2,\"SortMergeJoin\":1}", details.get("operatorsRemoved").toString());
        assertFalse(details.has("settingsChanged"), "no setting changed");
        String history = get(ds, "/history?name=nightly");
        assertTrue(history.contains("plan changed: +1 BroadcastExchange, +1 BroadcastNestedLoopJoin, −2 Exchange,"
                + " −1 SortMergeJoin"), excerpt(history, "history-table"));
    }

    /** Two runs: the first spends a third of its task time in GC on 4g executors, the second runs on {@code memory}. */
    private String importTwo(Path dir, String memory, long secondMs, long secondGcMs) throws Exception {
        Map<String, String> first = conf("spark.master", "yarn", "spark.executor.memory", "4g");
        Map<String, String> second = conf("spark.master", "yarn", "spark.executor.memory", memory);
        String db = TestDb.newDatabaseName();
        CliRun run = CliRun.of("import", log(dir, "app-gc-1", T0, 100_000, GB, first, 30_000, null).toString(),
                log(dir, "app-gc-2", T0 + DAY, secondMs, GB, second, secondGcMs, null).toString(), "--db",
                TestDb.url(db));
        assertEquals(0, run.exitCode(), run.err());
        return db;
    }

    private static JsonNode advice(JsonNode history, String key, String givenIn) {
        for (JsonNode e : history.get("advice")) {
            if (e.get("key").asText().equals(key) && e.get("givenIn").asText().equals(givenIn)) {
                return e;
            }
        }
        throw new AssertionError("no advice of " + key + " given in " + givenIn + ": " + history.get("advice"));
    }

    @Test
    void adviceAppliedInTheNextRunIsInTheLedgerWithWhatItSavedAgainstThePromise(@TempDir Path dir)
            throws Exception {
        DataSource ds = TestDb.dataSource(importTwo(dir, "6g", 70_000, 1_000));
        JsonNode e = advice(JSON.readTree(get(ds, "/api/v1/history?name=nightly")), "spark.executor.memory",
                "app-gc-1");
        assertEquals("6g", e.get("recommendedValue").asText(), "ExecutorGc advised 1.5× the heap");
        assertTrue(e.get("applied").asBoolean());
        assertEquals("app-gc-2", e.get("appliedIn").asText());
        assertTrue(e.get("asAdvised").asBoolean());
        assertEquals("HELPED", e.get("outcome").asText());
        assertEquals(30_000, e.get("savedWallMs").asLong());
        assertEquals(0.3, e.get("perByteSavedShare").asDouble(), 1e-9, "the same input, 30 % less time per byte");
        assertTrue(e.get("promisedWallMs").asLong() > 0, e.toString());

        String page = get(ds, "/history?name=nightly");
        assertTrue(page.contains("Advice given and what it did"), excerpt(page, "history-table"));
        assertTrue(page.contains("spark.executor.memory=6g (was 4g), advised by ExecutorGc in app-gc-1: applied in"
                + " app-gc-2; wall time 30.0 s less"), excerpt(page, "advice-ledger"));
    }

    @Test
    void adviceAppliedThatDidNotHelpSaysSoAndComesLastInTheLaterRunsFixFirst(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.dataSource(importTwo(dir, "6g", 110_000, 33_000));
        JsonNode e = advice(JSON.readTree(get(ds, "/api/v1/history?name=nightly")), "spark.executor.memory",
                "app-gc-1");
        assertEquals("DID_NOT_HELP", e.get("outcome").asText());
        assertEquals(-10_000, e.get("savedWallMs").asLong());
        assertTrue(e.get("sentence").asText().endsWith("it did not help."), e.get("sentence").asText());

        // the second run is still in GC and advises more heap again: said to have been tried, and put last
        JsonNode fix = JSON.readTree(get(ds, "/api/v1/apps/app-gc-2")).get("fixFirst");
        JsonNode gc = null;
        for (JsonNode f : fix) {
            if (f.get("heuristic").asText().equals("ExecutorGc")) {
                gc = f;
            }
        }
        assertNotNull(gc, fix.toString());
        assertEquals(gc, fix.get(fix.size() - 1), "after the others");
        assertTrue(gc.get("sentence").asText().contains("Put after the others: tried on an earlier run of this job,"
                + " spark.executor.memory=6g (was 4g)"), gc.get("sentence").asText());
        String app = get(ds, "/apps/app-gc-2");
        assertTrue(app.contains("Put after the others: tried on an earlier run of this job"), excerpt(app, "fix-first"));
        JsonNode first = JSON.readTree(get(ds, "/api/v1/apps/app-gc-1")).get("fixFirst");
        assertFalse(first.toString().contains("Put after the others"), "the run that gave the advice is unchanged");
    }
}
