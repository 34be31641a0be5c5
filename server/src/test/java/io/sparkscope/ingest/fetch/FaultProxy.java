package io.sparkscope.ingest.fetch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * A tiny HTTP proxy in front of a real History Server that answers an error status (500, 403, …) to the requests a
 * function picks, so a test can make one application's endpoints fail while the others pass through untouched.
 */
final class FaultProxy implements AutoCloseable {
    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String target;
    /** Status to answer instead of forwarding, or 0 to forward. */
    private volatile ToIntFunction<String> failing;
    final AtomicInteger injected = new AtomicInteger();

    FaultProxy(String target, ToIntFunction<String> failing) throws IOException {
        this.target = target;
        this.failing = failing;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void failing(ToIntFunction<String> p) {
        failing = p;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String pathAndQuery = ex.getRequestURI().getRawPath()
                    + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery());
            int status = failing.applyAsInt(pathAndQuery);
            if (status != 0) {
                injected.incrementAndGet();
                byte[] body = "injected failure".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "text/plain");
                ex.sendResponseHeaders(status, body.length);
                ex.getResponseBody().write(body);
                return;
            }
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(target + pathAndQuery)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            r.headers().firstValue("Content-Type").ifPresent(v -> ex.getResponseHeaders().set("Content-Type", v));
            byte[] body = r.body();
            ex.sendResponseHeaders(r.statusCode(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
