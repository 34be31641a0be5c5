package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Regression findings from stored runs and the import's webhook, on a real PostgreSQL. */
class ImportRegressionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A tiny complete application: one task whose run time is 80 % of the wall time. */
    static Path log(Path dir, String appId, long start, long durationMs) throws Exception {
        long end = start + durationMs;
        String lines = String.join("\n",
                "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"nightly\",\"App ID\":\"" + appId
                        + "\",\"Timestamp\":" + start + ",\"User\":\"u\"}",
                "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,"
                        + "\"Stage Name\":\"s\",\"Number of Tasks\":1,\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\","
                        + "\"Submission Time\":" + start + ",\"Accumulables\":[]}}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\","
                        + "\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":1,\"Index\":0,"
                        + "\"Attempt\":0,\"Launch Time\":" + start + ",\"Executor ID\":\"1\",\"Host\":\"h\","
                        + "\"Locality\":\"ANY\",\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":"
                        + (start + durationMs * 9 / 10) + ",\"Failed\":false,\"Killed\":false},"
                        + "\"Task Metrics\":{\"Executor Run Time\":" + (durationMs * 8 / 10)
                        + ",\"Executor Deserialize Time\":10}}",
                "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + end + "}") + "\n";
        return Files.writeString(dir.resolve(appId), lines);
    }

    static List<String[]> regressions(DataSource ds) throws Exception {
        List<String[]> out = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select a.app_id, f.severity from finding f join application a"
                     + " on a.app_pk = f.app_pk where f.heuristic = 'Regression' order by a.app_id")) {
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        return out;
    }

    @Test
    void theFourthRunAt2point2TimesIsAHighRegressionAndNotified(@TempDir Path dir) throws Exception {
        long day = 86_400_000L;
        long t0 = 1_764_400_000_000L;
        List<String> args = new ArrayList<>(List.of("import"));
        long[] durations = {10_000, 10_500, 9_500, 22_000};
        for (int i = 0; i < durations.length; i++) {
            args.add(log(dir, "app-run-" + (i + 1), t0 + i * day, durations[i]).toString());
        }
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", ex -> {
            received.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.start();
        try {
            String db = TestDb.newDatabaseName();
            args.addAll(List.of("--db", TestDb.url(db), "--webhook-url",
                    "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook", "--ui-url", "http://ui:7070"));
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.err());
            DataSource ds = TestDb.dataSource(db);
            List<String[]> r = regressions(ds);
            assertEquals(1, r.size(), "only the slow run: " + r.stream().map(a -> a[0]).toList());
            assertEquals("app-run-4", r.get(0)[0]);
            assertEquals("HIGH", r.get(0)[1]);
            assertEquals("HIGH", TestDb.count(ds, "select count(*) from application where app_id = 'app-run-4'"
                    + " and worst_severity = 'HIGH'") == 1 ? "HIGH" : "not HIGH");

            // the import waits for its notifications before it returns
            JsonNode hook = received.stream().map(ImportRegressionTest::parse)
                    .filter(p -> p.get("appId").asText().equals("app-run-4")).findFirst()
                    .orElseThrow(() -> new AssertionError("no notification for the regression: " + received));
            assertEquals("nightly", hook.get("appName").asText());
            assertEquals(22_000, hook.get("durationMs").asLong());
            assertEquals("http://ui:7070/apps/app-run-4", hook.get("link").asText());
            boolean hasRegression = false;
            for (JsonNode f : hook.get("findings")) {
                hasRegression |= f.get("heuristic").asText().equals("Regression")
                        && f.get("severity").asText().equals("HIGH");
            }
            assertTrue(hasRegression, hook.toString());

            // reanalyze follows the factor: at 2.5× the 2.2× run is no regression; at the default it is HIGH again
            CliRun again = CliRun.of("reanalyze", "--db", TestDb.url(db), "--regression-factor", "2.5");
            assertEquals(0, again.exitCode(), again.err());
            assertEquals(0, regressions(ds).size(), "2.2× is below a 2.5× factor");
            again = CliRun.of("reanalyze", "--db", TestDb.url(db));
            assertEquals(0, again.exitCode(), again.err());
            r = regressions(ds);
            assertEquals(1, r.size());
            assertEquals("app-run-4", r.get(0)[0]);
            assertEquals("HIGH", r.get(0)[1]);
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void aFactorBelowOneIsAUsageError(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("import", log(dir, "app-x", 1_000, 1_000).toString(), "--db",
                TestDb.url(TestDb.newDatabaseName()), "--regression-factor", "0.5");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("--regression-factor"), run.err());
    }

    private static JsonNode parse(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
