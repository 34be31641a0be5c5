package io.sparkscope.listener;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sparkscope.store.TestDb;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Regressions and the webhook at the listener, with real Spark applications in local mode,
 * the embedded PostgreSQL and a local HTTP receiver: a run much slower than the previous ones of its name is stored
 * with a Regression and posted once; a receiver that is slow or down never holds {@code spark.stop()} up.
 */
class ListenerWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Records every POST body as it arrives, then waits {@code delayMs} before answering 204. */
    static final class Receiver implements AutoCloseable {
        final List<String> bodies = new CopyOnWriteArrayList<>();
        private final HttpServer server;
        private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-receiver");
            t.setDaemon(true);
            return t;
        });

        Receiver(long delayMs) throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(threads); // a slow answer must not stop the receiver from taking the next request
            server.createContext("/", ex -> {
                bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                try {
                    Thread.sleep(delayMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ex.sendResponseHeaders(204, -1);
                ex.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
        }

        List<JsonNode> posts() throws Exception {
            List<JsonNode> out = new ArrayList<>();
            for (String b : bodies) {
                out.add(JSON.readTree(b));
            }
            return out;
        }

        @Override
        public void close() {
            server.stop(0);
            threads.shutdownNow();
        }
    }

    private static Map<String, String> conf(String db, Path spool, String webhookUrl) {
        Map<String, String> c = new HashMap<>();
        c.put("spark.sparkscope.jdbc.url", TestDb.url(db));
        c.put("spark.sparkscope.spool.dir", spool.toString());
        c.put("spark.sparkscope.webhook.url", webhookUrl);
        c.put("spark.sparkscope.ui.url", "http://sparkscope.example:7070");
        c.put("spark.sparkscope.report.enabled", "false");
        return c;
    }

    /** Four tasks of 200 ms each, one of them {@code slowTaskMs} instead; returns the application id. */
    private static String run(String name, Map<String, String> conf, long slowTaskMs) {
        SparkSession spark = LocalSpark.start(name, conf);
        String appId = spark.sparkContext().applicationId();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        jsc.parallelize(Arrays.asList(1, 2, 3, 4), 4).map(x -> {
            Thread.sleep(x == 1 ? slowTaskMs : 200);
            return x;
        }).collect();
        spark.stop();
        return appId;
    }

    private static List<String> heuristics(DataSource ds, String appId) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT f.heuristic"
                + " FROM finding f JOIN application a USING (app_pk) WHERE a.app_id = ? AND a.status = 'COMPLETE'")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static List<Long> durations(DataSource ds) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT duration_ms FROM application ORDER BY start_time"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    @Test
    void aRunSlowerThanItsPredecessorsIsStoredAsARegressionAndPostedOnce(@TempDir Path spool) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        try (Receiver receiver = new Receiver(0)) {
            Map<String, String> conf = conf(db, spool, receiver.url());
            List<String> fast = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                fast.add(run("nightly-report", conf, 200));
            }
            String slow = run("nightly-report", conf, 6_000);

            // The final snapshot is written before stop() returns; the POST follows on the notifier's thread.
            ListenerOutageTest.waitFor("a POST naming the slow run", Duration.ofSeconds(30), () ->
                    receiver.bodies.stream().anyMatch(b -> b.contains("\"appId\":\"" + slow + "\"")));
            assertTrue(heuristics(ds, slow).contains("Regression"), "stored: " + heuristics(ds, slow));
            System.out.println("durations (ms), fast runs then the slow one: " + durations(ds));
            for (String f : fast) {
                assertTrue(!heuristics(ds, f).contains("Regression"), f + " is no regression: " + heuristics(ds, f));
            }
            Thread.sleep(1_000); // a second POST would come right behind the first
            List<JsonNode> aboutSlow = receiver.posts().stream()
                    .filter(p -> p.get("appId").asText().equals(slow)).toList();
            assertEquals(1, aboutSlow.size(), "one POST for the slow run: " + receiver.bodies);
            JsonNode p = aboutSlow.get(0);
            assertEquals("nightly-report", p.get("appName").asText());
            assertEquals("COMPLETE", p.get("status").asText());
            assertEquals("http://sparkscope.example:7070/apps/" + slow, p.get("link").asText());
            boolean regression = false;
            for (JsonNode f : p.get("findings")) {
                regression |= f.get("heuristic").asText().equals("Regression");
            }
            assertTrue(regression, p.toString());
            assertTrue(receiver.posts().stream().noneMatch(x -> fast.contains(x.get("appId").asText())
                    && x.toString().contains("\"Regression\"")), "no Regression posted for a fast run");
        }
    }

    /** A failed job (JobFailure, HIGH: worth a POST); returns how long {@code spark.stop()} took, in ms. */
    private static long failingRunStopMs(String name, Map<String, String> conf, String[] appId) {
        SparkSession spark = LocalSpark.start(name, conf);
        appId[0] = spark.sparkContext().applicationId();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        try {
            jsc.parallelize(Arrays.asList(1, 2), 2).map(x -> {
                if (x == 2) {
                    throw new IllegalStateException("fails on purpose");
                }
                return x;
            }).collect();
        } catch (Exception expected) {
            // the failed job is the point
        }
        long t0 = System.nanoTime();
        spark.stop();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void aSlowOrDeadReceiverDoesNotHoldStopBeyondTheFlushTimeout(@TempDir Path spool) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        long flushTimeoutMs = 2_000;
        // Spark's own stop() (scheduler, block manager, listener bus) on a busy test machine, on top of the timeout.
        long sparkStopAllowanceMs = 4_000;
        try (Receiver slowReceiver = new Receiver(60_000)) {
            Map<String, String> conf = conf(db, spool.resolve("a"), slowReceiver.url());
            conf.put("spark.sparkscope.flush.timeoutMs", String.valueOf(flushTimeoutMs));
            String[] appId = new String[1];
            long stopMs = failingRunStopMs("webhook-slow-receiver", conf, appId);
            System.out.println("spark.stop() with a receiver answering after 60 s: " + stopMs + " ms");
            assertTrue(stopMs < flushTimeoutMs + sparkStopAllowanceMs, "stop() took " + stopMs + " ms");
            ListenerOutageTest.waitFor("the POST reached the slow receiver", Duration.ofSeconds(20),
                    () -> slowReceiver.bodies.stream().anyMatch(b -> b.contains(appId[0])));
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = '" + appId[0]
                    + "' AND status = 'COMPLETE' AND worst_severity = 'HIGH'"), "written before stop() returned");
        }

        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort(); // closed again: connections are refused
        }
        Map<String, String> conf = conf(db, spool.resolve("b"), "http://127.0.0.1:" + deadPort + "/hook");
        conf.put("spark.sparkscope.flush.timeoutMs", String.valueOf(flushTimeoutMs));
        String[] appId = new String[1];
        long stopMs = failingRunStopMs("webhook-dead-receiver", conf, appId);
        System.out.println("spark.stop() with the receiver down: " + stopMs + " ms");
        assertTrue(stopMs < flushTimeoutMs + sparkStopAllowanceMs, "stop() took " + stopMs + " ms");
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = '" + appId[0]
                + "' AND status = 'COMPLETE'"));
    }
}
