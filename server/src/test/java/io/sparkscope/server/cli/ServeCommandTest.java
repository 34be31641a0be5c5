package io.sparkscope.server.cli;

import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sparkscope serve} as a user starts it: its own JVM, the command line, a real database and HTTP. */
class ServeCommandTest {
    private static final Pattern LISTENING = Pattern.compile("sparkscope serve: http://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void servesPagesFromTheCommandLineAndStopsOnSignal() throws Exception {
        String db = TestDb.newDatabaseName();
        String shipped = ExampleEventLogs.DIR.toString();
        assertEquals(0, CliRun.of("import", shipped, "--db", TestDb.url(db)).exitCode());

        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.sparkscope.server.cli.Main", "serve", "--db", TestDb.url(db), "--port", "0",
                "--max-concurrent-requests", "2")
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String port = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (String line; port == null && System.nanoTime() < deadline && (line = out.readLine()) != null; ) {
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port = m.group(1);
                }
            }
            assertNotNull(port, "serve printed the address it listens on");
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (String path : List.of("/healthz", "/", "/apps", "/api/v1/apps")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), path);
            }
            String apps = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/apps")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(apps.contains("\"total\":1"), apps);
        } finally {
            p.destroy(); // SIGTERM: the shutdown hook stops Jetty and the pool
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "serve exits on SIGTERM");
        }
    }

    @Test
    void badOptionsAreOneLineErrors() {
        CliRun r = CliRun.of("serve", "--db", TestDb.url(TestDb.newDatabaseName()), "--max-concurrent-requests", "-1");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--max-concurrent-requests: -1 is outside 0…10000"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");

        r = CliRun.of("serve", "--db", TestDb.url(TestDb.newDatabaseName()), "--port", "70000");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--port: 70000 is not a TCP port"), r.err());

        // the Airflow link's base is put in pages: only an http(s) address
        r = CliRun.of("serve", "--db", TestDb.url(TestDb.newDatabaseName()), "--airflow-url", "javascript:alert(1)");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--airflow-url: expected an http(s) URL, got 'javascript:alert(1)'"), r.err());

        r = CliRun.of("serve", "--db", "jdbc:postgresql://127.0.0.1:1/nowhere", "--port", "0");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("cannot connect to jdbc:postgresql://127.0.0.1:1/nowhere"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
