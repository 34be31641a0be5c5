package io.sparkscope.ingest.fetch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code fetch} against a local History Server stand-in that misbehaves: a body trickled after prompt headers, a body
 * larger than the cap, a redirect to another host, an application ending in the year 9999, and a long listing that
 * must be read as it comes.
 */
class MisbehavingServerTest {
    private HttpServer server;
    private HttpServer other;
    private final AtomicInteger otherHits = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "misbehaving-shs");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        other.createContext("/", ex -> {
            try (ex) {
                otherHits.incrementAndGet();
                byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
        });
        other.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        other.stop(0);
    }

    private void on(String path, HttpHandler h) {
        server.createContext(path, ex -> {
            try (ex) {
                h.handle(ex);
            } catch (IOException ignored) {
                // the client hung up, as it should when it gives up
            }
        });
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private HistoryClient client(Duration timeout, long maxBody) {
        return new HistoryClient(base(), Duration.ofSeconds(2), timeout, 0, 5, maxBody);
    }

    @Test
    void aBodyTrickledAfterPromptHeadersIsCutAtTheDeadline() {
        on("/api/v1/applications", ex -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            // One byte every 200 ms, for a minute: every read gets something, none ever ends.
            for (int i = 0; i < 300; i++) {
                out.write(i == 0 ? '[' : ' ');
                out.flush();
                sleep(200);
            }
        });
        HistoryClient c = client(Duration.ofSeconds(1), HistoryClient.DEFAULT_MAX_BODY_BYTES);
        HistoryServerException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(HistoryServerException.class, () -> c.getJson("applications")));
        assertEquals("cannot reach " + base() + "/api/v1/applications: no complete answer within 1 s", e.getMessage());
    }

    @Test
    void aBodyOverTheCapFailsNamingTheCapAndTheOption(@TempDir Path tmp) {
        byte[] chunk = new byte[64 * 1024];
        on("/api/v1/applications/app-1/logs", ex -> {
            ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
            ex.sendResponseHeaders(200, 0); // chunked: the size is only known by reading
            for (int i = 0; i < 64; i++) { // 4 MiB
                ex.getResponseBody().write(chunk);
            }
        });
        Path zip = tmp.resolve("logs.zip");
        HistoryClient c = client(Duration.ofSeconds(10), 1L << 20);
        HistoryServerException e = assertThrows(HistoryServerException.class,
                () -> c.download("applications/app-1/logs", zip));
        assertEquals(base() + "/api/v1/applications/app-1/logs: the answer is larger, over the 1 MiB allowed for one "
                + "answer (--max-body-mb); raise it if this application's data really is that large", e.getMessage());
        assertTrue(zip.toFile().length() <= (1L << 20) + chunk.length, "stopped writing at the cap: "
                + zip.toFile().length());
    }

    @Test
    void aDeclaredLengthOverTheCapFailsBeforeReading() {
        on("/api/v1/applications", ex -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 3L << 20);
            ex.getResponseBody().write("[".getBytes(StandardCharsets.UTF_8));
        });
        HistoryServerException e = assertThrows(HistoryServerException.class,
                () -> client(Duration.ofSeconds(5), 1L << 20).getJson("applications"));
        assertTrue(e.getMessage().startsWith(base() + "/api/v1/applications: the answer declares 3 MiB, over the 1 MiB "
                + "allowed for one answer (--max-body-mb)"), e.getMessage());
    }

    @Test
    void aRedirectToAnotherHostIsRefusedAndOneOnTheSameHostFollowed() {
        String elsewhere = "http://localhost:" + other.getAddress().getPort();
        on("/api/v1/applications", ex -> {
            ex.getResponseHeaders().set("Location", elsewhere + "/api/v1/applications");
            ex.sendResponseHeaders(302, -1);
        });
        on("/api/v1/version", ex -> {
            ex.getResponseHeaders().set("Location", "/api/v1/version2");
            ex.sendResponseHeaders(301, -1);
        });
        on("/api/v1/version2", ex -> {
            byte[] body = "{\"spark\":\"3.5.1\"}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
        });
        HistoryClient c = client(Duration.ofSeconds(5), HistoryClient.DEFAULT_MAX_BODY_BYTES);
        HistoryServerException e = assertThrows(HistoryServerException.class, () -> c.getJson("applications"));
        assertEquals(base() + "/api/v1/applications redirected to another host (" + elsewhere + "); not followed: "
                + "give that address as --history-server if it is the History Server", e.getMessage());
        assertEquals(0, otherHits.get(), "nothing was asked of the other host");
        assertEquals("3.5.1", c.getJson("version").get("spark").asText());
    }

    @Test
    void aListingIsHandedOverAsItIsRead() {
        CountDownLatch firstSeen = new CountDownLatch(1);
        on("/api/v1/applications", ex -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.write(("[" + app("app-1", 1_000) + ",").getBytes(StandardCharsets.UTF_8));
            out.flush();
            // The rest only comes once the first application reached the caller: a client that waits for the
            // whole answer before parsing never gets it.
            try {
                if (!firstSeen.await(20, TimeUnit.SECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            out.write((app("app-2", 2_000) + "]").getBytes(StandardCharsets.UTF_8));
        });
        HistoryClient c = client(Duration.ofSeconds(30), HistoryClient.DEFAULT_MAX_BODY_BYTES);
        List<String> ids = new ArrayList<>();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> c.forEachInArray("applications", a -> {
            ids.add(a.get("id").asText());
            firstSeen.countDown();
        }));
        assertEquals(List.of("app-1", "app-2"), ids);
    }

    @Test
    void anEndTimeInTheFutureIsRememberedAsNow() {
        long year9999 = 253_402_300_799_000L;
        List<String> queries = new java.util.concurrent.CopyOnWriteArrayList<>();
        on("/api/v1/applications", ex -> {
            queries.add(String.valueOf(ex.getRequestURI().getQuery()));
            byte[] body = ("[" + app("app-1", 1_000) + "," + app("app-broken-clock", year9999) + "]")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
        });
        HistoryClient c = client(Duration.ofSeconds(5), HistoryClient.DEFAULT_MAX_BODY_BYTES);
        FetchOptions options = new FetchOptions(FetchSource.REST, 1, RecorderOptions.DEFAULTS, 0, -1, false);
        long before = System.currentTimeMillis();
        // Both already stored: nothing is fetched, only the listing and the end time to remember matter.
        FetchReport r = new Fetcher(c, options, null).run(OptionalLong.empty(),
                ids -> Set.of(storedKey("app-1"), storedKey("app-broken-clock")),
                s -> { throw new AssertionError("nothing to store"); },
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(2, r.listed());
        long remembered = r.newestEndTime().orElseThrow();
        assertTrue(remembered >= before && remembered <= System.currentTimeMillis(),
                "the next run lists from now at the latest, not from the year 9999: " + remembered);
        assertFalse(remembered >= year9999);

        // A database that already remembers the year 9999 (an earlier version kept it) lists from now, not from then.
        new Fetcher(c, options, null).run(OptionalLong.of(year9999), ids -> Set.of(storedKey("app-1"),
                        storedKey("app-broken-clock")), s -> { throw new AssertionError("nothing to store"); },
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(2, queries.size());
        assertTrue(queries.get(1).startsWith("status=completed&minEndDate=" + java.time.Year.now(
                java.time.ZoneOffset.UTC)), queries.get(1));
    }

    /** One application of an {@code /applications} answer, completed, ending at {@code end}. */
    private static String app(String id, long end) {
        return "{\"id\":\"" + id + "\",\"name\":\"n\",\"attempts\":[{\"startTimeEpoch\":500,\"endTimeEpoch\":" + end
                + ",\"completed\":true,\"sparkUser\":\"u\",\"appSparkVersion\":\"3.5.1\"}]}";
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The stored-attempt key the fetcher compares with. */
    private static String storedKey(String appId) {
        return Fetcher.key(new ListedApp(appId, null, "n", "u", "3.5.1", 500, 0, true));
    }
}
