package io.sparkscope.server.notify;

import com.sun.net.httpserver.HttpServer;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.Notifications;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The poller's rounds and claims, with short backoffs, on a real PostgreSQL and a local receiver. */
class WebhookPollerTest {

    /** A failed job: JobFailure, HIGH. */
    private static AppSnapshot failed(String appId) {
        var s = SnapshotBuilder.syntheticSpec(appId, "nightly", "alice", 1_795_000_000_000L, 60_000);
        return SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(s.appId(), null, s.name(), s.user(),
                s.start(), s.durationMs(), true, s.conf(), 1, 2, 10, "disk full", 0, 7));
    }

    private static void write(DataSource ds, AppSnapshot s) throws Exception {
        new SnapshotWriter().write(ds, s, Diagnoser.defaults().diagnose(s));
    }

    private static WebhookPoller.Options options(String url, int maxRounds) {
        return options(url, maxRounds, Duration.ofMillis(300));
    }

    private static WebhookPoller.Options options(String url, int maxRounds, Duration firstBackoff) {
        return new WebhookPoller.Options(url, null, Duration.ofSeconds(10), null, Duration.ZERO, 1, 0,
                Duration.ofSeconds(5), WebhookPoller.DEFAULT_LEASE, maxRounds, firstBackoff, 20);
    }

    private static void awaitSettled(WebhookPoller p) throws InterruptedException {
        for (int i = 0; i < 200 && p.inFlight() > 0; i++) {
            Thread.sleep(25);
        }
        assertEquals(0, p.inFlight(), "deliveries settled");
    }

    /** Runs one due round to its end and returns how long that took, in ms. */
    private static long roundTook(WebhookPoller poller) throws Exception {
        long start = System.nanoTime();
        assertEquals(1, poller.poll(), "one notification due");
        awaitSettled(poller);
        return (System.nanoTime() - start) / 1_000_000;
    }

    /**
     * The failed round's pause, read from what the poller stored rather than from sleeps (a loaded machine stretches
     * any sleep): the next attempt is due the backoff after the failure, which came after the round's claim and
     * within the time the round took.
     */
    private static void assertBackoff(DataSource ds, long backoffMs, long roundMs, String what) throws Exception {
        long gap = TestDb.count(ds, "SELECT round(extract(epoch FROM next_attempt_at - claimed_at) * 1000)::bigint"
                + " FROM notification");
        assertTrue(gap >= backoffMs && gap <= backoffMs + roundMs + 5, what + ": next attempt " + gap
                + " ms after the claim, the round took " + roundMs + " ms");
    }

    private static long msUntilDue(DataSource ds) throws Exception {
        return TestDb.count(ds, "SELECT round(extract(epoch FROM next_attempt_at - now()) * 1000)::bigint"
                + " FROM notification");
    }

    /** Before its next attempt is due, a poll sends nothing (checked while comfortably before it). */
    private static void notDueYet(DataSource ds, WebhookPoller poller) throws Exception {
        // Polling when it is nearly due could send it, and the round the test drives next would find nothing. On a
        // loaded machine a poll can start a few hundred ms after the check, so only a wide margin is checked.
        long before = msUntilDue(ds);
        if (before > 400) {
            assertEquals(0, poller.poll(), "not due before its backoff (" + before + " ms left)");
        }
    }

    private static void awaitDue(DataSource ds) throws Exception {
        for (int i = 0; i < 400 && msUntilDue(ds) > 0; i++) {
            Thread.sleep(10);
        }
    }

    @Test
    void aFailedRoundIsRetriedAfterItsBackoffUntilDelivered() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        AtomicInteger failures = new AtomicInteger(2);
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", ex -> {
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(failures.getAndDecrement() > 0 ? 503 : 200, -1);
            ex.close();
        });
        receiver.start();
        String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
        DataSource ds = TestDb.migrated();
        // Pauses of 1 s and 2 s: long enough that "not due yet" is checked with a wide margin even on a busy machine.
        WebhookPoller poller = new WebhookPoller(ds, options(url, 5, Duration.ofSeconds(1)));
        try {
            poller.prepare(); // nothing scheduled: the test drives poll()
            write(ds, failed("app-failed"));
            long spent = roundTook(poller);
            assertEquals(1, bodies.size());
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification WHERE state = 'FAILED' AND rounds = 1"));
            assertBackoff(ds, 1_000, spent, "round 1 failed: the next waits 1 s");
            notDueYet(ds, poller);
            awaitDue(ds);
            spent = roundTook(poller);
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification WHERE state = 'FAILED' AND rounds = 2"));
            assertBackoff(ds, 2_000, spent, "round 3 waits twice as long (2 s)");
            notDueYet(ds, poller);
            awaitDue(ds);
            assertEquals(1, poller.poll());
            awaitSettled(poller);
            assertEquals(3, bodies.size());
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification WHERE state = 'SENT' AND rounds = 3"));
            assertEquals(0, poller.poll());
            assertTrue(bodies.stream().allMatch(b -> b.equals(bodies.get(0))), "the same notification each round");
        } finally {
            poller.close();
            receiver.stop(0);
        }
    }

    @Test
    void aRedirectToAnotherHostIsAFailedRoundNotASentOne() throws Exception {
        AtomicInteger elsewhere = new AtomicInteger();
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        other.createContext("/", ex -> {
            elsewhere.incrementAndGet();
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        other.start();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().add("Location", "http://localhost:" + other.getAddress().getPort() + "/hook");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        receiver.start();
        DataSource ds = TestDb.migrated();
        WebhookPoller poller = new WebhookPoller(ds, options("http://127.0.0.1:" + receiver.getAddress().getPort()
                + "/hook", 5));
        try {
            poller.prepare();
            write(ds, failed("app-redirected"));
            roundTook(poller);
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification WHERE state = 'FAILED' AND rounds = 1"),
                    "a 302 is no delivery: the round failed and will be tried again");
            assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM notification WHERE state = 'SENT'"));
            assertEquals(0, elsewhere.get(), "nothing went to the other host");
        } finally {
            poller.close();
            receiver.stop(0);
            other.stop(0);
        }
    }

    @Test
    void aClaimLeftByADeadServerIsTakenOverAfterTheLease() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", ex -> {
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.start();
        String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
        DataSource ds = TestDb.migrated();
        WebhookPoller poller = new WebhookPoller(ds, options(url, 5));
        try {
            poller.prepare();
            write(ds, failed("app-crashed-claim"));
            write(ds, failed("app-fresh-claim"));
            // Another server claimed both and died; one claim is 20 minutes old (past the 15-minute lease).
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO notification (app_pk, target, state, claimed_by, claimed_at)"
                            + " SELECT app_pk, ?, 'CLAIMED', 'dead-host:1', now() - (CASE WHEN app_id = 'app-crashed-claim'"
                            + " THEN interval '20 minutes' ELSE interval '1 minute' END) FROM application")) {
                ps.setString(1, Notifications.target(url));
                assertEquals(2, ps.executeUpdate());
            }
            assertEquals(1, poller.poll());
            awaitSettled(poller);
            assertEquals(1, bodies.size());
            assertTrue(bodies.get(0).contains("\"appId\":\"app-crashed-claim\""), bodies.get(0));
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification n JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = 'app-crashed-claim' AND n.state = 'SENT' AND n.rounds = 2"));
            assertEquals(0, poller.poll(), "the fresh claim is still its owner's");
        } finally {
            poller.close();
            receiver.stop(0);
        }
    }
}
