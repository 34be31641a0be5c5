package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sparkscope.store.Notifications;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.sql.DataSource;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code serve --webhook-url} end to end: the real command (options, database, web server, poller), applications
 * imported by the real {@code import} command while it runs, and a local HTTP receiver.
 */
class ServeWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long DAY = 86_400_000L;
    private static final long T0 = 1_764_400_000_000L;

    /** A webhook receiver on a free port that answers 500 to the first {@code failFirst} requests, then 204. */
    static final class Receiver implements AutoCloseable {
        final List<String> bodies = new CopyOnWriteArrayList<>();
        private final HttpServer server;
        private final AtomicInteger failures;

        Receiver(int failFirst) throws Exception {
            failures = new AtomicInteger(failFirst);
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", ex -> {
                bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                ex.sendResponseHeaders(failures.getAndDecrement() > 0 ? 500 : 204, -1);
                ex.close();
            });
            server.start();
        }

        /** With a secret in the path, as Slack-style webhook URLs have. */
        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/T0/s3cret";
        }

        List<JsonNode> posts() {
            List<JsonNode> out = new ArrayList<>();
            for (String b : bodies) {
                try {
                    out.add(JSON.readTree(b));
                } catch (Exception e) {
                    throw new AssertionError("not JSON: " + b, e);
                }
            }
            return out;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static ServeCommand.Running serve(String db, String webhookUrl, String... extra) {
        List<String> args = new ArrayList<>(List.of("--db", TestDb.url(db), "--port", "0", "--webhook-url", webhookUrl,
                "--webhook-poll-interval", "200ms", "--public-url", "http://sparkscope.example:7070/"));
        args.addAll(List.of(extra));
        ServeCommand cmd = new ServeCommand();
        new CommandLine(cmd).parseArgs(args.toArray(String[]::new));
        return cmd.start();
    }

    private static void importRun(Path dir, String db, String appId, long start, long durationMs) throws Exception {
        CliRun run = CliRun.of("import", ImportRegressionTest.log(dir, appId, start, durationMs).toString(),
                "--db", TestDb.url(db));
        assertEquals(0, run.exitCode(), run.err());
    }

    private static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        fail("timed out waiting for: " + what);
    }

    /** Long enough for the settle time (3 s) and several polls: what was not sent by then is not going to be. */
    private static void quietPeriod() throws InterruptedException {
        Thread.sleep(4_500);
    }

    private static boolean hasHighRegression(JsonNode post) {
        for (JsonNode f : post.get("findings")) {
            if (f.get("heuristic").asText().equals("Regression") && f.get("severity").asText().equals("HIGH")) {
                return true;
            }
        }
        return false;
    }

    @Test
    void anApplicationFinishingWhileServingIsPostedOnceEvenAcrossRestarts(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        // Before the server: three normal runs and a slow one (a HIGH Regression) — old news, not to be sent.
        importRun(dir, db, "app-run-1", T0, 10_000);
        importRun(dir, db, "app-run-2", T0 + DAY, 10_500);
        importRun(dir, db, "app-run-3", T0 + 2 * DAY, 9_500);
        importRun(dir, db, "app-old-slow", T0 + 3 * DAY, 22_000);
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-old-slow'"
                + " AND worst_severity = 'HIGH'"), "the old slow run is worth a notification");

        try (Receiver receiver = new Receiver(0)) {
            try (ServeCommand.Running serving = serve(db, receiver.url())) {
                assertTrue(serving.port() > 0);
                quietPeriod();
                assertEquals(List.of(), receiver.bodies, "no notification for what finished before the start");

                importRun(dir, db, "app-slow", T0 + 4 * DAY, 25_000);
                waitFor("the POST for app-slow", () -> !receiver.bodies.isEmpty());
                importRun(dir, db, "app-green", T0 + 5 * DAY, 10_000);
                assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-green'"
                        + " AND worst_severity = 'HIGH'"), "the green run has no HIGH finding");
                quietPeriod();

                List<JsonNode> posts = receiver.posts();
                assertEquals(1, posts.size(), "exactly one POST: " + receiver.bodies);
                JsonNode p = posts.get(0);
                assertEquals("app-slow", p.get("appId").asText());
                assertTrue(p.get("attemptId").isNull());
                assertEquals("nightly", p.get("appName").asText());
                assertEquals("COMPLETE", p.get("status").asText());
                assertEquals(25_000, p.get("durationMs").asLong());
                assertEquals("http://sparkscope.example:7070/apps/app-slow", p.get("link").asText());
                assertTrue(hasHighRegression(p), p.toString());
                for (JsonNode f : p.get("findings")) {
                    assertTrue(f.has("title") && f.has("message"), f.toString());
                }
                waitFor("the notification recorded as sent", () -> TestDb.count(ds,
                        "SELECT count(*) FROM notification WHERE state = 'SENT'") == 1);
            }

            // A restart reaching back an hour: app-old-slow (finished before the first start) is now due, app-slow
            // was sent already and is not sent again.
            try (ServeCommand.Running again = serve(db, receiver.url(), "--webhook-since", "1h")) {
                waitFor("the POST for app-old-slow", () -> receiver.bodies.size() >= 2);
                quietPeriod();
                List<String> ids = receiver.posts().stream().map(n -> n.get("appId").asText()).toList();
                assertEquals(List.of("app-slow", "app-old-slow"), ids);
            }
            waitFor("both recorded as sent", () -> TestDb.count(ds, "SELECT count(*) FROM notification"
                    + " WHERE state = 'SENT' AND target = '" + Notifications.target(receiver.url()) + "'") == 2);
        }
    }

    @Test
    void aReceiverAnswering500IsRetriedAndThenSucceeds(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        importRun(dir, db, "app-run-1", T0, 10_000);
        importRun(dir, db, "app-run-2", T0 + DAY, 10_000);
        try (Receiver receiver = new Receiver(1); ServeCommand.Running serving = serve(db, receiver.url())) {
            importRun(dir, db, "app-slow", T0 + 2 * DAY, 30_000);
            waitFor("the retried POST", () -> receiver.bodies.size() >= 2);
            quietPeriod();
            assertEquals(2, receiver.bodies.size(), "one failed attempt, one retry: " + receiver.bodies);
            assertEquals(receiver.bodies.get(0), receiver.bodies.get(1), "the same notification");
            assertEquals("app-slow", receiver.posts().get(1).get("appId").asText());
            DataSource ds = TestDb.dataSource(db);
            waitFor("recorded as sent", () -> TestDb.count(ds,
                    "SELECT count(*) FROM notification WHERE state = 'SENT' AND rounds = 1") == 1);
        }
    }

    @Test
    void badWebhookOptionsAreOneLineUsageErrors() {
        String db = TestDb.url(TestDb.newDatabaseName());
        CliRun run = CliRun.of("serve", "--db", db, "--webhook-url", "ftp://example.com/hook");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("sparkscope serve: --webhook-url: expected an http(s) URL, got 'ftp://example.com/hook'",
                run.err().strip());
        run = CliRun.of("serve", "--db", db, "--webhook-url", "http://h/x", "--webhook-poll-interval", "soon");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("--webhook-poll-interval: 'soon' is not a duration"), run.err());
        run = CliRun.of("serve", "--db", db, "--webhook-url", "http://h/x", "--webhook-poll-interval", "10ms");
        assertTrue(run.err().contains("outside 100ms…1h"), run.err());
        run = CliRun.of("serve", "--db", db, "--webhook-since", "7d");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("--webhook-since needs --webhook-url"), run.err());
        run = CliRun.of("serve", "--db", db, "--webhook-url", "http://h/x", "--webhook-since", "yesterday");
        assertTrue(run.err().contains("--webhook-since: 'yesterday' is not a time"), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
    }

    @Test
    void sinceAcceptsDatesInstantsEpochAndSpans() {
        java.time.Instant now = java.time.Instant.parse("2026-11-29T12:00:00Z");
        assertEquals(java.time.Instant.parse("2026-11-29T00:00:00Z"), ServeCommand.since("2026-11-29", now));
        assertEquals(java.time.Instant.parse("2026-11-29T08:00:00Z"), ServeCommand.since("2026-11-29T10:00:00+02:00", now));
        assertEquals(java.time.Instant.ofEpochMilli(1_795_000_000_000L), ServeCommand.since("1795000000000", now));
        assertEquals(now.minus(Duration.ofDays(7)), ServeCommand.since("7d", now));
        assertEquals(now.minus(Duration.ofHours(24)), ServeCommand.since("24h", now));
    }
}
