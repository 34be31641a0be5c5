package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.metrics.PrometheusText;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** {@code serve}'s {@code /metrics}: scraped over HTTP from a served database and read with a strict parser. */
class ServeMetricsTest {
    private static final long DAY = 86_400_000L;
    private static final Pattern SERIES = Pattern.compile("\\b(?:sparkscope|hikaricp)_[a-z_]+");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void reportsRoutesPoolWatcherWebhookAndTheMostActiveJobs(@TempDir Path logs) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        io.sparkscope.store.SchemaManager.migrate(ds);
        long now = System.currentTimeMillis();
        // nightly: three complete runs and a newer one still running; its newest COMPLETE run has 40 GiB executors
        // (a HIGH finding). hourly: two runs. rare: one. ancient: five runs, all before the 7-day window.
        write(ds, spec("app-n1", "nightly", now - 3 * DAY, 600_000), "nightly");
        write(ds, spec("app-n2", "nightly", now - 2 * DAY, 660_000), "nightly");
        write(ds, spec("app-n3", "nightly", now - DAY, 720_000).withConf("spark.master", "yarn")
                .withConf("spark.executor.memory", "40g"), "nightly");
        var running = spec("app-n4", "nightly", now - 60_000, 30_000);
        write(ds, new SnapshotBuilder.SyntheticSpec(running.appId(), null, running.name(), running.user(),
                running.start(), running.durationMs(), false, running.conf(), 1, 2, 5, null, 0, 4), "nightly");
        write(ds, spec("app-h1", "=cmd|' /C calc'!A0", now - 5 * 3600_000L, 100_000), "hourly");
        write(ds, spec("app-h2", "=cmd|' /C calc'!A0", now - 4 * 3600_000L, 120_000), "hourly");
        write(ds, spec("app-r1", "rare", now - 2 * 3600_000L, 50_000), "rare");
        for (int i = 0; i < 5; i++) {
            write(ds, spec("app-a" + i, "ancient", now - 30 * DAY - i * DAY, 10_000), "ancient");
        }
        // A finished event log without any application in it: the watcher counts it as a failure and goes on.
        Files.writeString(logs.resolve("application_1764000000000_0999"),
                "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");

        try (ServeWebhookTest.Receiver receiver = new ServeWebhookTest.Receiver(0);
             ServeCommand.Running serving = ServeCostTest.serve(db, "--pool-size", "3", "--metrics-jobs", "2",
                     "--webhook-url", receiver.url(), "--webhook-poll-interval", "200ms", "--webhook-since", "7d",
                     "--watch", logs.toString(), "--interval", "200ms")) {
            String base = "http://127.0.0.1:" + serving.port();
            assertEquals(200, get(base + "/api/v1/apps/app-n1/findings", null).statusCode());
            assertEquals(200, get(base + "/api/v1/apps/app-h2/findings", null).statusCode());
            assertEquals(404, get(base + "/no/such/page-12345", null).statusCode());
            waitFor("a delivered webhook and two watcher scans", base, m ->
                    m.value("sparkscope_webhook_deliveries_total", "outcome", "delivered") >= 1
                            && m.value("sparkscope_watcher_scans_seconds_count") >= 2);

            HttpResponse<String> r = get(base + "/metrics", null);
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
            PrometheusText m = PrometheusText.parse(r.body());

            // Requests by route template: two applications, one series; the raw path of a miss is nowhere.
            assertEquals(2, m.value("sparkscope_http_requests_seconds_count", "method", "GET",
                    "route", "/api/v1/apps/{appId}/findings", "status", "200"));
            assertEquals(1, m.value("sparkscope_http_requests_seconds_count", "route", "none", "status", "404"));
            assertEquals("histogram", m.type("sparkscope_http_requests_seconds"));
            assertFalse(r.body().contains("app-n1") || r.body().contains("page-12345"), "no raw path in any label");

            // The pool of the pages, by HikariCP's own meters.
            assertEquals(3, m.value("hikaricp_connections_max", "pool", "sparkscope-store"));
            assertTrue(m.value("hikaricp_connections_active", "pool", "sparkscope-store") >= 0);

            // The watcher: scans, the broken file as a failure, a lag of well under a minute.
            assertTrue(m.value("sparkscope_watcher_log_failures_total") >= 1, r.body());
            assertEquals(0, m.value("sparkscope_watcher_scan_failures_total"));
            double lag = m.value("sparkscope_watcher_lag_seconds");
            assertTrue(lag >= 0 && lag < 60, "lag " + lag);

            // The webhook queue.
            assertEquals(0, m.value("sparkscope_webhook_deliveries_total", "outcome", "failed"));
            assertTrue(m.value("sparkscope_webhook_in_flight") >= 0);

            // Per job: the two with the most runs in the window, figures of their newest COMPLETE run.
            assertEquals(2, m.value("sparkscope_job_tracked"));
            // Many scrapes above, one read of the per-job figures: they are cached for a minute.
            assertEquals(1, m.value("sparkscope_job_refresh_seconds_count"));
            assertEquals(2, m.find("sparkscope_job_last_run_duration_seconds").size());
            assertEquals(720.0, m.value("sparkscope_job_last_run_duration_seconds", "job", "nightly",
                    "app_name", "nightly"));
            assertEquals(4, m.value("sparkscope_job_recent_runs", "job", "nightly"));
            long high = TestDb.count(ds, "SELECT count(*) FROM finding f JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = 'app-n3' AND f.severity = 'HIGH'");
            assertTrue(high >= 1, "the 40 GiB run has a HIGH finding");
            assertEquals(high, m.value("sparkscope_job_last_run_high_findings", "job", "nightly"));
            assertEquals(wasted(ds, "app-n3"), m.value("sparkscope_job_last_run_wasted_core_hours", "job", "nightly"),
                    1e-9);
            assertEquals(120.0, m.value("sparkscope_job_last_run_duration_seconds", "job", "hourly",
                    "app_name", "=cmd|' /C calc'!A0"));
            assertTrue(m.find("sparkscope_job_last_run_duration_seconds", "job", "rare").isEmpty());
            assertTrue(m.find("sparkscope_job_last_run_duration_seconds", "job", "ancient").isEmpty());

            // The example Grafana dashboard asks only for series this scrape has.
            Path dashboard = Path.of(System.getProperty("sparkscope.repo.root", "."),
                    "examples/grafana/sparkscope-dashboard.json");
            Set<String> asked = new TreeSet<>();
            for (JsonNode expr : new ObjectMapper().readTree(dashboard.toFile()).findValues("expr")) {
                Matcher name = SERIES.matcher(expr.asText());
                while (name.find()) {
                    asked.add(name.group());
                }
            }
            assertTrue(asked.size() >= 15, "the dashboard's series: " + asked);
            for (String name : asked) {
                assertFalse(m.find(name).isEmpty(), "the dashboard asks for " + name + ", which /metrics lacks");
            }
        }
    }

    @Test
    void metricsNeedTheTokenLikeEveryOtherRoute() throws Exception {
        String db = TestDb.newDatabaseName();
        io.sparkscope.store.SchemaManager.migrate(TestDb.dataSource(db));
        try (ServeCommand.Running serving = ServeCostTest.serve(db, "--auth-token", "s3cret-token")) {
            String url = "http://127.0.0.1:" + serving.port() + "/metrics";
            assertEquals(401, get(url, null).statusCode());
            assertEquals(401, get(url, "wrong").statusCode());
            HttpResponse<String> r = get(url, "s3cret-token");
            assertEquals(200, r.statusCode());
            PrometheusText m = PrometheusText.parse(r.body());
            // The refused requests were timed too, under no route (the token check ends them before one is chosen).
            assertEquals(2, m.value("sparkscope_http_requests_seconds_count", "route", "none", "status", "401"));
            assertEquals(0, m.value("sparkscope_job_tracked"));
        }
    }

    @Test
    void badMetricsOptionsAreOneLineErrors() {
        CliRun r = CliRun.of("serve", "--db", TestDb.url(TestDb.newDatabaseName()), "--metrics-jobs", "-1");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--metrics-jobs: -1 is outside 0…10000"), r.err());
        r = CliRun.of("serve", "--db", TestDb.url(TestDb.newDatabaseName()), "--metrics-job-window", "500d");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--metrics-job-window: 500d is outside 1m…366d"), r.err());
    }

    private static SnapshotBuilder.SyntheticSpec spec(String appId, String name, long start, long durationMs) {
        return SnapshotBuilder.syntheticSpec(appId, name, "alice", start, durationMs);
    }

    private static void write(DataSource ds, SnapshotBuilder.SyntheticSpec spec, String jobKey) throws Exception {
        AppSnapshot s = SnapshotBuilder.synthetic(spec.withConf("spark.sparkscope.jobKey", jobKey));
        new SnapshotWriter().write(ds, s, Diagnoser.withOverrides(Map.of(), "metrics test").diagnose(s));
    }

    private static double wasted(DataSource ds, String appId) throws Exception {
        try (var c = ds.getConnection(); var ps = c.prepareStatement(
                "SELECT core_hours_wasted FROM application WHERE app_id = ?")) {
            ps.setString(1, appId);
            try (var rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getDouble(1);
            }
        }
    }

    static HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void waitFor(String what, String base, java.util.function.Predicate<PrometheusText> ok)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            last = get(base + "/metrics", null).body();
            try {
                if (ok.test(PrometheusText.parse(last))) {
                    return;
                }
            } catch (AssertionError notYet) {
                // a series not registered yet
            }
            Thread.sleep(100);
        }
        fail("timed out waiting for " + what + ":\n" + last);
    }
}
