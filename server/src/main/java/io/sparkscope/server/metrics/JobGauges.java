package io.sparkscope.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.sparkscope.store.query.ActiveJobsQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Per-job gauges for the most active jobs: the last COMPLETE run's wall time, idle core-hours and HIGH findings. Only
 * the {@code limit} jobs with the most runs in the window get series, so a fleet of ten thousand jobs still writes a
 * bounded page; a job that drops out of the top loses its series at the next refresh. The figures are read from the
 * stored summaries at most once per {@code maxAge}, however often Prometheus scrapes.
 */
public final class JobGauges {
    private static final Logger LOG = LoggerFactory.getLogger(JobGauges.class);

    public static final int DEFAULT_LIMIT = 50;
    public static final Duration DEFAULT_WINDOW = Duration.ofDays(7);
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(60);

    private final ActiveJobsQuery query;
    private final int limit;
    private final Duration window;
    private final Duration maxAge;
    private final LongSupplier clock;
    private final MultiGauge duration;
    private final MultiGauge wasted;
    private final MultiGauge high;
    private final MultiGauge runs;
    private final Timer refreshes;
    private long refreshedAt = Long.MIN_VALUE;
    private volatile int tracked;
    private boolean failing;

    /**
     * @param limit  jobs with series at most (at least 1)
     * @param window runs started this far back count towards "most active"
     * @param maxAge a scrape reads the database again once the figures are this old
     * @param clock  now in epoch ms
     */
    public JobGauges(ServerMetrics metrics, DataSource dataSource, int limit, Duration window, Duration maxAge,
                     LongSupplier clock) {
        this.query = new ActiveJobsQuery(dataSource);
        this.limit = limit;
        this.window = window;
        this.maxAge = maxAge;
        this.clock = clock;
        var registry = metrics.registry();
        duration = MultiGauge.builder("sparkscope.job.last.run.duration").baseUnit("seconds")
                .description("Wall time of the job's newest complete run").register(registry);
        wasted = MultiGauge.builder("sparkscope.job.last.run.wasted.core.hours")
                .description("Executor core-hours the job's newest complete run held idle").register(registry);
        high = MultiGauge.builder("sparkscope.job.last.run.high.findings")
                .description("HIGH findings of the job's newest complete run").register(registry);
        runs = MultiGauge.builder("sparkscope.job.recent.runs")
                .description("Runs of the job started in the window that ranks the most active jobs")
                .register(registry);
        Gauge.builder("sparkscope.job.tracked", this, g -> g.tracked)
                .description("Jobs with per-job series (at most the configured number)").register(registry);
        refreshes = Timer.builder("sparkscope.job.refresh")
                .description("Reads of the most active jobs' figures from the database").register(registry);
    }

    /** Reads the figures again when older than {@code maxAge}; a failed read keeps the previous figures. */
    synchronized void refreshIfStale() {
        long now = clock.getAsLong();
        if (refreshedAt != Long.MIN_VALUE && now - refreshedAt < maxAge.toMillis()) {
            return;
        }
        refreshedAt = now;
        long t0 = System.nanoTime();
        List<ActiveJobsQuery.ActiveJob> jobs;
        try {
            jobs = query.mostActive(now - window.toMillis(), limit);
        } catch (SQLException e) {
            if (!failing) {
                LOG.warn("Sparkscope metrics: cannot read the most active jobs ({}); the per-job figures stay as"
                        + " they were until a read works", e.getMessage());
                failing = true;
            }
            return;
        } finally {
            refreshes.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        }
        failing = false;
        List<MultiGauge.Row<?>> d = new ArrayList<>();
        List<MultiGauge.Row<?>> w = new ArrayList<>();
        List<MultiGauge.Row<?>> h = new ArrayList<>();
        List<MultiGauge.Row<?>> r = new ArrayList<>();
        for (ActiveJobsQuery.ActiveJob j : jobs) {
            Tags tags = Tags.of("job", j.jobKey(), "app_name", j.lastRunName() == null ? "" : j.lastRunName());
            d.add(MultiGauge.Row.of(tags, j.durationMs() / 1000.0));
            if (j.coreHoursWasted() != null) {
                w.add(MultiGauge.Row.of(tags, j.coreHoursWasted()));
            }
            h.add(MultiGauge.Row.of(tags, j.highFindings()));
            r.add(MultiGauge.Row.of(tags, j.runs()));
        }
        // overwrite: a job whose figures changed gets its new value; one no longer in the top loses its series.
        duration.register(d, true);
        wasted.register(w, true);
        high.register(h, true);
        runs.register(r, true);
        tracked = jobs.size();
    }
}
