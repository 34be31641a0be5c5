package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP client on a scripted local server: what is retried, what is not, and what the one-line errors say. */
class HistoryClientTest {
    private HttpServer server;
    /** Answers in order; the last one repeats. */
    private final Queue<Answer> script = new ConcurrentLinkedQueue<>();
    private final AtomicInteger requests = new AtomicInteger();
    private Answer last;

    private record Answer(int status, String type, String body, long delayMs) {
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange ex) throws IOException {
        try (ex) {
            requests.incrementAndGet();
            Answer a = script.poll();
            if (a == null) {
                a = last;
            }
            last = a;
            if (a.delayMs() > 0) {
                try {
                    Thread.sleep(a.delayMs());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", a.type());
            ex.sendResponseHeaders(a.status(), body.length);
            ex.getResponseBody().write(body);
        } catch (IOException ignored) {
            // the client gave up (timeout test)
        }
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private HistoryClient client(int retries) {
        return new HistoryClient(base(), Duration.ofSeconds(2), Duration.ofMillis(500), retries, 5);
    }

    @Test
    void serverErrorsAreRetriedUntilAnAnswer() {
        script.add(new Answer(503, "text/plain", "busy", 0));
        script.add(new Answer(502, "text/html", "<html>gateway</html>", 0));
        script.add(new Answer(200, "application/json", "[{\"id\":\"app-1\"}]", 0));
        JsonNode json = client(2).getJson("applications");
        assertEquals("app-1", json.get(0).get("id").asText());
        assertEquals(3, requests.get());
    }

    @Test
    void retriesUsedUpGiveOneLineNamingTheUrl() {
        script.add(new Answer(500, "text/plain", "java.lang.NullPointerException\n\tat somewhere", 0));
        HistoryServerException e = assertThrows(HistoryServerException.class,
                () -> client(1).getJson("applications/app-1/jobs"));
        assertEquals(base() + "/api/v1/applications/app-1/jobs answered 500 Internal Server Error: "
                + "java.lang.NullPointerException (after 2 attempts)", e.getMessage());
        assertEquals(2, requests.get());
        assertEquals(500, e.status());
    }

    @Test
    void notFoundIsNotRetried() {
        script.add(new Answer(404, "text/plain;charset=utf-8", "no such app: app-9", 0));
        HistoryServerException e = assertThrows(HistoryServerException.class,
                () -> client(3).getJson("applications/app-9/jobs"));
        assertEquals(base() + "/api/v1/applications/app-9/jobs answered 404 Not Found: no such app: app-9",
                e.getMessage());
        assertEquals(1, requests.get());
        assertTrue(e.refused());
    }

    @Test
    void aWebPageIsNotTakenForTheApi() {
        script.add(new Answer(200, "text/html;charset=utf-8", "<html><body>Spark Master</body></html>", 0));
        HistoryServerException e = assertThrows(HistoryServerException.class,
                () -> client(3).getJson("applications"));
        assertTrue(e.getMessage().contains("with a web page"), e.getMessage());
        assertEquals(1, requests.get());
    }

    @Test
    void aSlowAnswerTimesOut() {
        script.add(new Answer(200, "application/json", "[]", 3000));
        HistoryServerException e = assertThrows(HistoryServerException.class,
                () -> client(0).getJson("applications"));
        assertEquals("cannot reach " + base() + "/api/v1/applications: no answer within 0.5 s", e.getMessage());
    }

    @Test
    void addressesAreNormalised() {
        assertEquals("http://shs:18080", HistoryClient.normalise("http://shs:18080/"));
        assertEquals("http://shs:18080", HistoryClient.normalise(" http://shs:18080/api/v1/ "));
        assertEquals("https://gw.example.com/shs", HistoryClient.normalise("HTTPS://gw.example.com/shs//"));
        for (String bad : new String[]{"shs:18080", "ftp://shs", "http://shs:18080/?x=1", ""}) {
            assertThrows(IllegalArgumentException.class, () -> HistoryClient.normalise(bad), bad);
        }
        assertEquals("a%20b%2Fc", HistoryClient.segment("a b/c"));
    }
}
