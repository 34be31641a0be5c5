package io.sparkscope.core.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The webhook against a local HTTP receiver: payload, retry after a 500, nothing for a clean application. */
class WebhookNotifierTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    /** Status codes to answer, in order; 200 once they are used up. */
    private final List<Integer> answers = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", ex -> {
            requests.incrementAndGet();
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            contentTypes.add(ex.getRequestHeaders().getFirst("Content-Type"));
            int code = answers.isEmpty() ? 200 : answers.remove(0);
            ex.sendResponseHeaders(code, -1);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook?token=secret";
    }

    private WebhookNotifier notifier() {
        return new WebhookNotifier(url(), "http://ui.example:8080/", 3, 50, Duration.ofSeconds(5), warnings::add);
    }

    static AppSnapshot app(String id, boolean complete) {
        return AppSnapshot.builder().appId(id).attemptId("1").appName("nightly etl").sparkUser("u")
                .sparkVersion("3.5.1").startTime(1_000).endTime(complete ? 61_000 : -1).lastEventTime(61_000)
                .complete(complete).driverGcTimeMs(0).driverMaxMemory(0).eventCount(10).build();
    }

    static Finding finding(String heuristic, Severity severity) {
        return Finding.builder(heuristic, severity).title(heuristic + " title").message(heuristic + " message")
                .build();
    }

    @Test
    void postsThePayloadForAHighFinding() throws Exception {
        try (WebhookNotifier n = notifier()) {
            List<Finding> findings = List.of(finding("StageSkew", Severity.HIGH), finding("GcTime", Severity.LOW));
            assertTrue(n.notifyFinished(app("app-1", true), findings).get(10, TimeUnit.SECONDS));
        }
        assertEquals(1, bodies.size());
        assertEquals("application/json", contentTypes.get(0));
        JsonNode p = JSON.readTree(bodies.get(0));
        assertEquals("app-1", p.get("appId").asText());
        assertEquals("1", p.get("attemptId").asText());
        assertEquals("nightly etl", p.get("appName").asText());
        assertEquals("COMPLETE", p.get("status").asText());
        assertEquals(60_000, p.get("durationMs").asLong());
        assertEquals("http://ui.example:8080/apps/app-1/1", p.get("link").asText());
        assertEquals(2, p.get("findings").size());
        JsonNode f = p.get("findings").get(0);
        assertEquals("StageSkew", f.get("heuristic").asText());
        assertEquals("HIGH", f.get("severity").asText());
        assertEquals("StageSkew title", f.get("title").asText());
        assertEquals("StageSkew message", f.get("message").asText());
    }

    @Test
    void aLowRegressionIsEnoughAndTheLinkIsNullWithoutUi() throws Exception {
        try (WebhookNotifier n = new WebhookNotifier(url(), null, 3, 50, Duration.ofSeconds(5), warnings::add)) {
            List<Finding> findings = List.of(finding(RegressionCheck.HEURISTIC, Severity.LOW));
            assertTrue(n.notifyFinished(app("app-2", true), findings).get(10, TimeUnit.SECONDS));
            // once per application attempt
            assertFalse(n.notifyFinished(app("app-2", true), findings).get(10, TimeUnit.SECONDS));
        }
        assertEquals(1, requests.get());
        assertTrue(JSON.readTree(bodies.get(0)).get("link").isNull());
    }

    @Test
    void retriesAfterA500() throws Exception {
        answers.add(500);
        try (WebhookNotifier n = notifier()) {
            assertTrue(n.notifyFinished(app("app-3", true), List.of(finding("X", Severity.HIGH)))
                    .get(10, TimeUnit.SECONDS));
        }
        assertEquals(2, requests.get());
        assertEquals(bodies.get(0), bodies.get(1));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void givesUpAfterThreeAttemptsAndLogsOnce() throws Exception {
        for (int i = 0; i < 6; i++) {
            answers.add(503);
        }
        try (WebhookNotifier n = notifier()) {
            assertFalse(n.notifyFinished(app("a", true), List.of(finding("X", Severity.HIGH))).get(10, TimeUnit.SECONDS));
            assertFalse(n.notifyFinished(app("b", true), List.of(finding("X", Severity.HIGH))).get(10, TimeUnit.SECONDS));
        }
        assertEquals(6, requests.get());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("HTTP 503"), warnings.get(0));
        assertFalse(warnings.get(0).contains("secret"), "the URL's query (a token) is not logged");
    }

    @Test
    void nothingForACleanOrRunningApplication() throws Exception {
        try (WebhookNotifier n = notifier()) {
            assertFalse(n.notifyFinished(app("clean", true), List.of(finding("GcTime", Severity.LOW)))
                    .get(10, TimeUnit.SECONDS));
            assertFalse(n.notifyFinished(app("clean2", true), List.of()).get(10, TimeUnit.SECONDS));
            assertFalse(n.notifyFinished(app("running", false), List.of(finding("X", Severity.HIGH)))
                    .get(10, TimeUnit.SECONDS));
            assertTrue(n.awaitIdle(5_000));
        }
        Thread.sleep(100);
        assertEquals(0, requests.get());
    }

    @Test
    void anUnreachableReceiverNeverBlocksTheCaller() throws Exception {
        server.stop(0);
        try (WebhookNotifier n = notifier()) {
            long t0 = System.nanoTime();
            var done = n.notifyFinished(app("x", true), List.of(finding("X", Severity.HIGH)));
            assertTrue(System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(200), "queued, not sent inline");
            assertFalse(done.get(20, TimeUnit.SECONDS));
        }
        assertEquals(1, warnings.size(), warnings.toString());
    }

    /** A receiver on another host name that records what reaches it and answers 200. */
    private static HttpServer otherHost(List<String> methods) throws IOException {
        // "localhost" is another host than "127.0.0.1" by name, which is what a redirect check compares.
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        other.createContext("/", ex -> {
            methods.add(ex.getRequestMethod() + " " + ex.getRequestBody().readAllBytes().length);
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        other.start();
        return other;
    }

    @Test
    void aRedirectToAnotherHostIsNotFollowedAndIsAFailure() throws Exception {
        List<String> reached = new CopyOnWriteArrayList<>();
        HttpServer other = otherHost(reached);
        server.createContext("/moved", ex -> {
            requests.incrementAndGet();
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().add("Location", "http://localhost:" + other.getAddress().getPort() + "/hook");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        String moved = "http://127.0.0.1:" + server.getAddress().getPort() + "/moved?token=secret";
        try (WebhookNotifier n = new WebhookNotifier(moved, null, 2, 10, Duration.ofSeconds(5), warnings::add)) {
            assertFalse(n.notifyFinished(app("r", true), List.of(finding("X", Severity.HIGH))).get(10, TimeUnit.SECONDS),
                    "a 3xx is not a delivery");
        } finally {
            other.stop(0);
        }
        assertEquals(2, requests.get(), "each attempt POSTs to the configured URL once");
        assertEquals(List.of(), reached, "nothing reaches the other host");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("HTTP 302 redirect to another host (localhost), not followed"),
                warnings.get(0));
    }

    @Test
    void aRedirectOnTheSameHostIsPostedAgainWithTheBody() throws Exception {
        server.createContext("/old", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().add("Location", "/hook");
            ex.sendResponseHeaders(301, -1);
            ex.close();
        });
        String old = "http://127.0.0.1:" + server.getAddress().getPort() + "/old";
        try (WebhookNotifier n = new WebhookNotifier(old, null, 1, 10, Duration.ofSeconds(5), warnings::add)) {
            assertTrue(n.notifyFinished(app("s", true), List.of(finding("X", Severity.HIGH))).get(10, TimeUnit.SECONDS));
        }
        assertEquals(1, requests.get());
        assertEquals("s", JSON.readTree(bodies.get(0)).get("appId").asText(), "the POST body follows the redirect");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }
}
