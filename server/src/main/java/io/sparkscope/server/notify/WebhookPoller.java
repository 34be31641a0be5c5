package io.sparkscope.server.notify;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.notify.WebhookNotifier;
import io.sparkscope.store.Notifications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.net.InetAddress;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The webhook of {@code serve --webhook-url}. The server only reads the database, so a background
 * thread looks every poll interval for applications that became COMPLETE since the poller started (or
 * {@code --webhook-since}) with a HIGH finding or a Regression, claims each in the database ({@link Notifications})
 * and POSTs it through {@link WebhookNotifier} — the listener's payload, retries and backoff.
 *
 * <p>Nothing here blocks page serving: one scheduler thread, one pooled connection at a time, the POSTs on the
 * notifier's own daemon thread. A delivery that fails all its attempts is a failed <em>round</em>: the claim is kept
 * as FAILED and taken again after {@code roundBackoff × 2^(round−1)} (at most an hour), up to {@code maxRounds}.
 * A failing receiver or database is logged once, until it works again.
 */
public final class WebhookPoller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookPoller.class);

    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(10);
    /** A listener rewrites its final snapshot when late events arrive (within 3 s): notify once it is quiet. */
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(3);
    /** Far longer than one round can take (3 attempts × 10 s timeout + 3 s backoff) with the queue full. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(15);
    public static final int DEFAULT_MAX_ROUNDS = 6;
    public static final Duration DEFAULT_ROUND_BACKOFF = Duration.ofMinutes(1);
    private static final Duration MAX_ROUND_BACKOFF = Duration.ofHours(1);
    /** Claims not yet settled, at most: bounds the queue so no claim waits anywhere near the lease. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 20;

    /**
     * @param url            where to POST
     * @param publicUrl      this server's base URL for the payload's link, or null
     * @param pollInterval   pause between polls
     * @param since          notify applications completed at or after this; null = the database's clock at start
     * @param settle         an application must be unchanged this long before it is sent
     * @param attempts       POST attempts per round, {@code backoffMs} before the second, doubled after
     * @param requestTimeout per POST
     * @param lease          a claim not settled after this is taken over (its server died)
     * @param maxRounds      rounds per notification before giving up
     * @param roundBackoff   wait after the first failed round, doubled per round
     * @param maxInFlight    unsettled claims at most
     */
    public record Options(String url, String publicUrl, Duration pollInterval, Instant since, Duration settle,
                          int attempts, long backoffMs, Duration requestTimeout, Duration lease, int maxRounds,
                          Duration roundBackoff, int maxInFlight) {
        public Options {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(pollInterval, "pollInterval");
        }

        /** The defaults for {@code serve}: the listener's attempts and backoff, the constants above. */
        public static Options of(String url, String publicUrl, Duration pollInterval, Instant since) {
            return new Options(url, publicUrl, pollInterval, since, DEFAULT_SETTLE, WebhookNotifier.DEFAULT_ATTEMPTS,
                    WebhookNotifier.DEFAULT_BACKOFF_MS, Duration.ofSeconds(10), DEFAULT_LEASE, DEFAULT_MAX_ROUNDS,
                    DEFAULT_ROUND_BACKOFF, DEFAULT_MAX_IN_FLIGHT);
        }
    }

    private final Notifications store;
    private final Options options;
    private final ScheduledExecutorService scheduler;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failedRounds = new AtomicLong();
    private final AtomicBoolean receiverFailing = new AtomicBoolean();
    private final AtomicBoolean databaseFailing = new AtomicBoolean();
    private volatile Instant since;

    /** Validates the URL (IllegalArgumentException with a one-line reason); nothing runs before {@link #start}. */
    public WebhookPoller(DataSource dataSource, Options options) {
        // Fails early on a bad URL, with the notifier's own message.
        new WebhookNotifier(options.url(), options.publicUrl(), 1, 0, Duration.ofSeconds(1), m -> { }).close();
        this.options = options;
        this.store = new Notifications(dataSource, options.url(), claimer());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sparkscope-webhook-poller");
            t.setDaemon(true);
            return t;
        });
    }

    /** Fixes the start (the database's clock unless given) and schedules the polls, the first one now. */
    public void start() throws SQLException {
        prepare();
        scheduler.scheduleWithFixedDelay(this::pollQuietly, 0, options.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Fixes the start without scheduling anything (tests call {@link #poll} themselves). */
    void prepare() throws SQLException {
        since = options.since() != null ? options.since() : store.now();
    }

    /** Applications completed at or after this are notified. */
    public Instant since() {
        return since;
    }

    /** Claims not yet settled (being sent, or queued to be). */
    public int inFlight() {
        return inFlight.get();
    }

    /** Notifications delivered (a 2xx answer) since this poller started. */
    public long delivered() {
        return delivered.get();
    }

    /** Rounds that ended without a 2xx answer since this poller started (each is retried later, up to the limit). */
    public long failedRounds() {
        return failedRounds.get();
    }

    private void pollQuietly() {
        try {
            poll();
            if (databaseFailing.compareAndSet(true, false)) {
                LOG.info("Sparkscope webhook: the database answers again");
            }
        } catch (Exception e) {
            if (databaseFailing.compareAndSet(false, true)) {
                LOG.warn("Sparkscope webhook: cannot look for finished applications ({}); trying again every {} ms, "
                        + "not logged again until it works", oneLine(e), options.pollInterval().toMillis());
            }
        }
    }

    /** One poll: due retries first, then newly completed applications; returns how many were handed to the notifier. */
    int poll() throws SQLException {
        int room = options.maxInFlight() - inFlight.get();
        if (room <= 0) {
            return 0;
        }
        List<Notifications.Due> due = new ArrayList<>(store.claimRetries(options.lease(), options.maxRounds(), room));
        if (room > due.size()) {
            due.addAll(store.claimNew(since, options.settle(), room - due.size()));
        }
        if (due.isEmpty()) {
            return 0;
        }
        // A notifier per poll with work: WebhookNotifier sends each application at most once per instance, and a
        // retried round must be able to send it again. Closing it lets the queued POSTs finish on its daemon thread.
        Consumer<String> warn = this::receiverFailed;
        try (WebhookNotifier notifier = new WebhookNotifier(options.url(), options.publicUrl(), options.attempts(),
                options.backoffMs(), options.requestTimeout(), warn)) {
            for (Notifications.Due d : due) {
                send(notifier, d);
            }
        }
        return due.size();
    }

    private void send(WebhookNotifier notifier, Notifications.Due d) throws SQLException {
        List<Finding> findings = d.findings();
        if (!d.complete() || !WebhookNotifier.worthNotifying(findings)) {
            store.release(d.appPk()); // rewritten between the scan and now (e.g. reanalyzed): nothing to say
            return;
        }
        inFlight.incrementAndGet();
        notifier.notifyFinished(header(d), findings).whenComplete((ok, error) -> {
            try {
                settle(d, Boolean.TRUE.equals(ok));
            } finally {
                inFlight.decrementAndGet();
            }
        });
    }

    private void settle(Notifications.Due d, boolean delivered) {
        try {
            if (delivered) {
                this.delivered.incrementAndGet();
                store.markSent(d.appPk());
                if (receiverFailing.compareAndSet(true, false)) {
                    LOG.info("Sparkscope webhook: delivering again");
                }
                return;
            }
            receiverFailing.set(true);
            failedRounds.incrementAndGet();
            long backoff = options.roundBackoff().toMillis() << Math.min(20, Math.max(0, d.rounds() - 1));
            Duration retryAfter = Duration.ofMillis(Math.min(backoff, MAX_ROUND_BACKOFF.toMillis()));
            store.markFailed(d.appPk(), retryAfter, "no 2xx answer after " + options.attempts() + " attempt(s) in round "
                    + d.rounds() + (d.rounds() >= options.maxRounds() ? " (last round)" : ""));
        } catch (SQLException e) {
            // The claim stays CLAIMED: after the lease it is taken again (at-least-once).
            if (databaseFailing.compareAndSet(false, true)) {
                LOG.warn("Sparkscope webhook: cannot record the notification of {} ({})", d.appId(), oneLine(e));
            }
        }
    }

    private void receiverFailed(String message) {
        if (receiverFailing.compareAndSet(false, true)) {
            Duration pause = options.roundBackoff();
            LOG.warn("{}; the server tries again in later rounds (up to {}, pauses doubling from {})", message,
                    options.maxRounds(), pause.toMillis() % 1000 == 0 ? pause.toSeconds() + " s" : pause.toMillis() + " ms");
        }
    }

    /**
     * The payload reads only the header (ids, name, status, duration) of the snapshot: the stored row has it, so the
     * application's stages and tasks are not read back for it.
     */
    static AppSnapshot header(Notifications.Due d) {
        return AppSnapshot.builder().appId(d.appId()).attemptId(d.attemptId()).appName(d.appName())
                .startTime(d.startTime()).endTime(d.endTime()).lastEventTime(d.lastEventTime()).complete(d.complete())
                .build();
    }

    /** Who claims, for the operator reading the notification table: host:pid plus a few random characters. */
    private static String claimer() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                host = "localhost";
            }
        }
        return host + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /**
     * Stops polling and waits up to {@code waitMs} for POSTs under way. Claims still unsettled stay CLAIMED and are
     * taken over after the lease by whichever server polls next.
     */
    public void close(long waitMs) {
        scheduler.shutdown();
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            scheduler.awaitTermination(waitMs, TimeUnit.MILLISECONDS);
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler.shutdownNow();
    }

    @Override
    public void close() {
        close(5_000);
    }
}
