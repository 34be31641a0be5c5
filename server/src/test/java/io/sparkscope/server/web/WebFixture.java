package io.sparkscope.server.web;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SnapshotWriter;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * One embedded PostgreSQL and one server over a known data set, shared by the web test classes (read-only tests),
 * started on first use. The clock is fixed so "last day", running and incomplete are deterministic.
 */
final class WebFixture {
    static final long NOW = 1_795_000_000_000L;
    static final long HOUR = 3600_000L;
    static final long DAY = 24 * HOUR;
    static final String XSS1 = "<script>alert(1)</script>";
    static final String XSS2 = "\"><img src=x onerror=alert(1)>";
    static final String SHS = "http://shs.example:18080";
    /** Runs of "etl-daily", oldest first; run 5 (index 4) is much slower than the runs before it. */
    static final List<Long> ETL_DURATIONS = List.of(600_000L, 660_000L, 540_000L, 600_000L, 1_800_000L, 610_000L);
    static final int FILLERS = 55;

    private static DataSource data;
    private static WebServer server;
    private static int port;
    static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private WebFixture() {
    }

    /** A fresh, migrated database in the test JVM's one embedded PostgreSQL (store's TestDb). */
    static DataSource newDatabase() {
        return io.sparkscope.store.TestDb.migrated();
    }

    static synchronized DataSource data() {
        if (data == null) {
            data = newDatabase();
            fill(data);
        }
        return data;
    }

    static synchronized int port() {
        if (server == null) {
            server = new WebServer(data(), new WebServer.Options(SHS, null), () -> NOW);
            port = server.start("127.0.0.1", 0);
        }
        return port;
    }

    static String base() {
        return "http://127.0.0.1:" + port();
    }

    static void write(DataSource ds, AppSnapshot s) {
        try {
            // Synthetic apps shuffle a few MB, below the RDD size at which SerializerConfig speaks: lower it here.
            new SnapshotWriter().write(ds, s, Diagnoser.withOverrides(
                    java.util.Map.of("SerializerConfig.minRddBytes", "0"), "web fixture").diagnose(s));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void fill(DataSource ds) {
        long t = NOW - 10 * DAY;
        for (int i = 0; i < ETL_DURATIONS.size(); i++) {
            var spec = SnapshotBuilder.syntheticSpec("app-etl-" + i, "etl-daily", "alice", t + i * DAY,
                    ETL_DURATIONS.get(i));
            if (i == ETL_DURATIONS.size() - 1) {
                spec = spec.withConf("spark.sql.shuffle.partitions", "800");
            }
            write(ds, SnapshotBuilder.synthetic(spec));
        }
        // Red: 40 GiB executors (MemoryConfig HIGH) and a Java serializer (SerializerConfig LOW), bob, 2 h ago.
        write(ds, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-bigmem", "big-memory job", "bob",
                NOW - 2 * HOUR, 300_000)
                .withConf("spark.master", "yarn").withConf("spark.yarn.queue", "etl")
                .withConf("spark.executor.memory", "40g")
                .withConf("spark.serializer", "org.apache.spark.serializer.JavaSerializer")));
        // The XSS names as name, user, config value and failure reason.
        var x1 = SnapshotBuilder.syntheticSpec("app-xss-1", XSS1, XSS2, NOW - 3 * HOUR,
                120_000).withConf("spark.custom.note", XSS1);
        write(ds, SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(x1.appId(), null, x1.name(), x1.user(),
                x1.start(), x1.durationMs(), true, x1.conf(), 2, 2, 10, XSS2, 0, 1)));
        var x2 = SnapshotBuilder.syntheticSpec("app-xss-2", XSS2, XSS1, NOW - 4 * HOUR,
                130_000).withConf("spark.custom.note", XSS2);
        write(ds, SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(x2.appId(), null, x2.name(), x2.user(),
                x2.start(), x2.durationMs(), true, x2.conf(), 2, 2, 10, XSS1, 0, 2)));
        // Running (events 10 minutes ago) and incomplete (silent for 2 days).
        var run = SnapshotBuilder.syntheticSpec("app-running", "streaming thing", "carol", NOW - HOUR, 50 * 60_000L);
        write(ds, SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(run.appId(), null, run.name(),
                run.user(), run.start(), run.durationMs(), false, run.conf(), 1, 2, 5, null, 0, 3)));
        var inc = SnapshotBuilder.syntheticSpec("app-incomplete", "crashed thing", "carol", NOW - 3 * DAY,
                20 * 60_000L);
        write(ds, SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(inc.appId(), null, inc.name(),
                inc.user(), inc.start(), inc.durationMs(), false, inc.conf(), 1, 2, 5, null, 0, 4)));
        // One application with two attempts (YARN style).
        for (int a = 1; a <= 2; a++) {
            var y = SnapshotBuilder.syntheticSpec("application_1795_0001", "yarn job", "dave",
                    NOW - 5 * DAY + a * HOUR, 200_000L * a);
            write(ds, SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(y.appId(), String.valueOf(a),
                    y.name(), y.user(), y.start(), y.durationMs(), true, y.conf(), 1, 2, 5, null,
                    a == 1 ? 50_000_000L : 0, 10 + a)));
        }
        for (int i = 0; i < FILLERS; i++) {
            write(ds, SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec("app-filler-" + i, null,
                    "filler " + i, "erin", NOW - 20 * DAY - i * HOUR, 60_000 + i * 1000L, true,
                    SnapshotBuilder.syntheticSpec("x", "x", "erin", 0, 0).conf(), 1, 1, 3, null, 0, 100 + i)));
        }
    }

    static final int TOTAL_APPS = 6 + 1 + 2 + 2 + 2 + FILLERS;

    record Response(int status, String body, java.net.http.HttpHeaders headers) {
    }

    static Response get(String pathAndQuery, String... headers) {
        return getAt(base(), pathAndQuery, headers);
    }

    static Response getAt(String base, String pathAndQuery, String... headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(20));
            for (int i = 0; i < headers.length; i += 2) {
                b.header(headers[i], headers[i + 1]);
            }
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
