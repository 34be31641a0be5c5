package io.sparkscope.server.metrics;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sparkscope.server.notify.WebhookPoller;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one {@code serve} process and their Prometheus text. Each part registers itself when it starts:
 * the request timer with the web server, the pool, the webhook poller and the watcher with their owners; the
 * per-job gauges are refreshed from the database by {@link JobGauges} when a scrape finds them stale.
 */
public final class ServerMetrics {
    /** Content type of the text format written by {@link #scrape}. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * Request-time buckets: a handful from a cached page (milliseconds) to a slow comparison (seconds), so each route
     * has a dozen bucket series rather than Micrometer's seventy.
     */
    private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private volatile JobGauges jobs;

    public ServerMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /**
     * One answered request. {@code route} is the route's template ({@code /api/v1/apps/{appId}/findings}), never
     * the path asked for, so the series stay as few as the routes whatever ids are requested.
     */
    public void request(String method, String route, int status, double millis) {
        Timer.builder("sparkscope.http.requests").description("HTTP requests answered, by route template")
                .tags("method", method, "route", route, "status", String.valueOf(status))
                .serviceLevelObjectives(BUCKETS)
                .register(registry).record((long) (millis * 1_000_000), TimeUnit.NANOSECONDS);
    }

    /** HikariCP's own meters for the pool that serves the pages (connections active, idle, pending, waits). */
    public void pool(HikariDataSource dataSource) {
        dataSource.setMetricRegistry(registry);
    }

    /** The webhook's queue: claims being sent, and rounds delivered or failed since the start. */
    public void webhook(WebhookPoller poller) {
        Gauge.builder("sparkscope.webhook.in.flight", poller, WebhookPoller::inFlight)
                .description("Webhook notifications claimed and not yet settled (being sent or queued)")
                .register(registry);
        FunctionCounter.builder("sparkscope.webhook.deliveries", poller, WebhookPoller::delivered)
                .description("Webhook notification rounds, by outcome").tag("outcome", "delivered").register(registry);
        FunctionCounter.builder("sparkscope.webhook.deliveries", poller, WebhookPoller::failedRounds)
                .description("Webhook notification rounds, by outcome").tag("outcome", "failed").register(registry);
    }

    /** The meters of {@code serve --watch}, to hand each scan to. */
    public WatcherMetrics watcher() {
        return new WatcherMetrics(registry);
    }

    /** The per-job gauges, refreshed by {@link #scrape} when stale. */
    public void jobs(JobGauges gauges) {
        this.jobs = gauges;
    }

    /** Every meter in Prometheus' text format (version 0.0.4), the per-job gauges refreshed first when stale. */
    public String scrape() {
        JobGauges j = jobs;
        if (j != null) {
            j.refreshIfStale();
        }
        return registry.scrape();
    }
}
