package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.cli.Durations;
import io.sparkscope.cli.LogLocationOptions;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.ingest.cli.WatchCommand;
import io.sparkscope.ingest.watch.LogWatcher;
import io.sparkscope.server.metrics.JobGauges;
import io.sparkscope.server.metrics.ServerMetrics;
import io.sparkscope.server.notify.WebhookPoller;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.server.web.WebServer;
import io.sparkscope.server.web.model.SchedulerLinks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** {@code serve}: the web UI and JSON API over the Sparkscope database, until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the web UI and JSON API over the Sparkscope database, until stopped (Ctrl-C).",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:stopped (Ctrl-C or SIGTERM)",
                "2:usage error, the port is already in use, or the database could not be used"})
public final class ServeCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions db;

    @Option(names = "--port", defaultValue = "7070", paramLabel = "<port>", description = "HTTP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "<address>",
            description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0 exposes it).")
    String bind;

    @Option(names = "--history-server-url", paramLabel = "<url>",
            description = "Spark History Server base URL, for 'open in History Server' links.")
    String historyServerUrl;

    @Option(names = "--airflow-url", paramLabel = "<url>",
            description = "Airflow web server base URL, for 'open in Airflow' links from applications an Airflow task"
                    + " started (spark.openlineage.parentJobName or the driver's dag_id/task_id labels).")
    String airflowUrl;

    @Option(names = "--auth-token", paramLabel = "<token>",
            description = "Require this token on every request (Authorization: Bearer, or ?token= once, kept in a cookie). "
                    + "Default: the SPARKSCOPE_AUTH_TOKEN environment variable, if set.")
    String authToken;

    @Option(names = "--mcp", description = "Also serve the MCP server for AI agents (streamable HTTP, read-only) at "
            + "/mcp, behind the same --auth-token (see docs/mcp.md).")
    boolean mcp;

    @Option(names = "--pool-size", defaultValue = "10", paramLabel = "<n>",
            description = "Database connections (default: ${DEFAULT-VALUE}).")
    int poolSize;

    @Option(names = "--max-concurrent-requests", paramLabel = "<n>",
            description = "Requests handled at once; more wait in arrival order (default: 2 per CPU core, here "
                    + "${sys:sparkscope.defaultConcurrency}; 0 = no limit).")
    Integer maxConcurrentRequests;

    @Option(names = "--sql-cache-mb", defaultValue = "64", paramLabel = "<MB>",
            description = "Memory for completed applications' rendered SQL pages and SQL answers, kept until their "
                    + "data is rewritten (default: ${DEFAULT-VALUE} MB; 0 = render every request).")
    int sqlCacheMb;

    static {
        System.setProperty("sparkscope.defaultConcurrency", String.valueOf(WebServer.Options.defaultConcurrency()));
    }

    @Option(names = "--webhook-url", paramLabel = "<url>",
            description = "POST a JSON notification here when an application finishes with a HIGH finding or a "
                    + "Regression (once per application, also with several servers and across restarts).")
    String webhookUrl;

    @Option(names = "--webhook-poll-interval", paramLabel = "<duration>",
            description = "How often to look for finished applications, e.g. 10s, 500ms, 1m (default: 10s).")
    String webhookPollInterval;

    @Option(names = "--webhook-since", paramLabel = "<time>",
            description = "Also notify applications that finished since this time: 2026-11-29, 2026-11-29T08:00:00Z, "
                    + "epoch ms, or a span back from now (24h, 7d). Default: only those finishing after the start.")
    String webhookSince;

    @Option(names = {"--public-url", "--ui-url"}, paramLabel = "<url>",
            description = "This server's address as users reach it, for the webhook's links "
                    + "(default: http://<bind>:<port>).")
    String publicUrl;

    @Option(names = "--watch", paramLabel = "<dir-or-uri>",
            description = "Also keep the database current from this event-log directory (as the watch command "
                    + "does, with the default heuristics), in a thread of this server.")
    String watch;

    @Mixin
    WatchCommand.Settings watchSettings;

    @Option(names = "--metrics-jobs", defaultValue = "50", paramLabel = "<n>",
            description = "Jobs with their own series on /metrics: the n with the most runs in --metrics-job-window "
                    + "(default: ${DEFAULT-VALUE}; 0 = none).")
    int metricsJobs;

    @Option(names = "--metrics-job-window", defaultValue = "7d", paramLabel = "<duration>",
            description = "Runs started this far back rank the most active jobs on /metrics (default: "
                    + "${DEFAULT-VALUE}).")
    String metricsJobWindow;

    @Mixin
    LogLocationOptions locations;

    @Mixin
    CostOptions cost;

    @Override
    public Integer call() throws InterruptedException {
        Running running = start();
        System.err.printf("sparkscope serve: http://%s:%d/ (database %s)%s%s%n", bind.contains(":") ? "[" + bind + "]" : bind,
                running.port(), db.url(), running.token ? ", access token required" : "",
                running.poller == null ? "" : "; webhook " + hostOnly(webhookUrl) + " for applications finished since "
                        + running.poller.since());
        if (running.watcher != null) {
            System.err.println("sparkscope serve: watching " + running.watcher.where() + " every "
                    + running.watcher.interval().toMillis() / 1000.0 + " s");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    /** What {@code serve} runs: the web server and, with {@code --webhook-url}, the webhook poller. */
    static final class Running implements AutoCloseable {
        private final HikariDataSource dataSource;
        private final WebServer server;
        private final WebhookPoller poller;
        private final int port;
        private final boolean token;
        private WatchThread watcher;

        private Running(HikariDataSource dataSource, WebServer server, WebhookPoller poller, int port, boolean token) {
            this.dataSource = dataSource;
            this.server = server;
            this.poller = poller;
            this.port = port;
            this.token = token;
        }

        int port() {
            return port;
        }

        WebhookPoller poller() {
            return poller;
        }

        WatchThread watcher() {
            return watcher;
        }

        @Override
        public void close() {
            if (watcher != null) {
                watcher.close();
            }
            if (poller != null) {
                poller.close();
            }
            server.stop();
            dataSource.close();
        }
    }

    /** Validates the options, opens the database, starts serving (and polling); the caller closes what it gets. */
    Running start() {
        if (port < 0 || port > 65535) {
            throw new Main.UsageError("--port: " + port + " is not a TCP port (0…65535)");
        }
        if (poolSize < 1 || poolSize > 200) {
            throw new Main.UsageError("--pool-size: " + poolSize + " is outside 1…200");
        }
        if (historyServerUrl != null) {
            httpUrl("--history-server-url", historyServerUrl);
        }
        if (publicUrl != null) {
            httpUrl("--public-url", publicUrl);
        }
        if (airflowUrl != null) {
            httpUrl("--airflow-url", airflowUrl);
        }
        int concurrency = maxConcurrentRequests == null ? WebServer.Options.defaultConcurrency() : maxConcurrentRequests;
        if (concurrency < 0 || concurrency > 10_000) {
            throw new Main.UsageError("--max-concurrent-requests: " + concurrency + " is outside 0…10000");
        }
        if (sqlCacheMb < 0 || sqlCacheMb > 1_000_000) {
            throw new Main.UsageError("--sql-cache-mb: " + sqlCacheMb + " is outside 0…1000000");
        }
        if (metricsJobs < 0 || metricsJobs > 10_000) {
            throw new Main.UsageError("--metrics-jobs: " + metricsJobs + " is outside 0…10000");
        }
        Duration jobWindow = duration("--metrics-job-window", metricsJobWindow);
        if (jobWindow.toMinutes() < 1 || jobWindow.toDays() > 366) {
            throw new Main.UsageError("--metrics-job-window: " + metricsJobWindow + " is outside 1m…366d");
        }
        Prices prices = cost.prices();
        String token = authToken != null ? authToken : System.getenv("SPARKSCOPE_AUTH_TOKEN");
        if (token != null && token.isBlank()) {
            throw new Main.UsageError("--auth-token: empty token");
        }
        Duration pollInterval = WebhookPoller.DEFAULT_POLL_INTERVAL;
        Instant since = null;
        if (webhookUrl == null) {
            if (webhookPollInterval != null || webhookSince != null) {
                throw new Main.UsageError((webhookSince != null ? "--webhook-since" : "--webhook-poll-interval")
                        + " needs --webhook-url");
            }
        } else {
            httpUrl("--webhook-url", webhookUrl);
            if (webhookPollInterval != null) {
                pollInterval = duration("--webhook-poll-interval", webhookPollInterval);
                if (pollInterval.toMillis() < 100 || pollInterval.compareTo(Duration.ofHours(1)) > 0) {
                    throw new Main.UsageError("--webhook-poll-interval: " + webhookPollInterval
                            + " is outside 100ms…1h");
                }
            }
            if (webhookSince != null) {
                since = since(webhookSince, Instant.now());
            }
        }
        HikariDataSource ds = db.open(poolSize);
        ServerMetrics metrics = new ServerMetrics();
        metrics.pool(ds);
        if (metricsJobs > 0) {
            metrics.jobs(new JobGauges(metrics, ds, metricsJobs, jobWindow, JobGauges.DEFAULT_MAX_AGE,
                    System::currentTimeMillis));
        }
        WebServer server = new WebServer(ds, new WebServer.Options(historyServerUrl, token, concurrency, prices,
                        (long) sqlCacheMb << 20),
                System::currentTimeMillis).schedulerLinks(new SchedulerLinks(airflowUrl)).metrics(metrics);
        if (mcp) {
            server.withMcp();
        }
        int bound;
        try {
            bound = server.start(bind, port);
        } catch (WebServer.PortInUse e) {
            ds.close();
            throw new Main.UsageError(e.getMessage());
        }
        WebhookPoller poller = null;
        if (webhookUrl != null) {
            String link = publicUrl != null ? publicUrl : "http://" + linkHost(bind) + ":" + bound;
            poller = new WebhookPoller(ds, WebhookPoller.Options.of(webhookUrl, link, pollInterval, since));
            metrics.webhook(poller);
            try {
                poller.start();
            } catch (SQLException e) {
                poller.close(0);
                server.stop();
                ds.close();
                throw new Main.UsageError("--webhook-url: cannot read the database clock: "
                        + DatabaseOptions.firstLine(e.getMessage()));
            }
        }
        Running running = new Running(ds, server, poller, bound, token != null);
        if (watch != null) {
            try {
                running.watcher = WatchThread.start(watch, locations, watchSettings, db, metrics.watcher());
            } catch (RuntimeException e) {
                running.close();
                throw e;
            }
        }
        return running;
    }

    /** {@code --watch}: a {@link LogWatcher} on its own small pool, scanning in a daemon thread until closed. */
    static final class WatchThread implements AutoCloseable {
        private final HikariDataSource dataSource;
        private final String where;
        private final Duration interval;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        private WatchThread(HikariDataSource dataSource, String where, Duration interval, LogWatcher watcher,
                            Consumer<LogWatcher.Scan> scanned) {
            this.dataSource = dataSource;
            this.where = where;
            this.interval = interval;
            this.thread = new Thread(() -> {
                try {
                    watcher.run(stop::get, scanned);
                } catch (InterruptedException e) {
                    watcher.close();
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    System.err.println("sparkscope serve: the watcher stopped: " + e);
                }
            }, "sparkscope-watch");
            thread.setDaemon(true);
        }

        static WatchThread start(String location, LogLocationOptions locations, WatchCommand.Settings settings,
                                 DatabaseOptions db, Consumer<LogWatcher.Scan> scanned) {
            LogWatcher.Options options = settings.options(RecorderOptions.DEFAULTS);
            Path dir = WatchCommand.directory(locations, location);
            HikariDataSource ds = db.open(2);
            LogWatcher watcher = new LogWatcher(dir, WatchCommand.defaultIngest(ds, System.err),
                    new LogWatchStates(ds, WatchCommand.owner(), options.lease()), options, System.err::println);
            WatchThread t = new WatchThread(ds, LogLocations.mask(dir.toString()), options.interval(), watcher,
                    scanned);
            t.thread.start();
            return t;
        }

        String where() {
            return where;
        }

        Duration interval() {
            return interval;
        }

        @Override
        public void close() {
            stop.set(true);
            try {
                thread.join(Math.max(5_000, interval.toMillis() * 2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            dataSource.close();
        }
    }

    private static void httpUrl(String option, String value) {
        try {
            URI u = URI.create(value.trim());
            if (!"http".equalsIgnoreCase(u.getScheme()) && !"https".equalsIgnoreCase(u.getScheme()) || u.getHost() == null) {
                throw new IllegalArgumentException("not http(s)");
            }
        } catch (IllegalArgumentException e) {
            throw new Main.UsageError(option + ": expected an http(s) URL, got '" + value + "'");
        }
    }

    /** {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 7d}; a bare number is seconds. */
    static Duration duration(String option, String value) {
        return Durations.parse(option, value);
    }

    /** {@code --webhook-since}: ISO date or date-time, epoch milliseconds, or a span back from {@code now}. */
    static Instant since(String value, Instant now) {
        String v = value.trim();
        if (v.matches("\\d{10,15}")) {
            return Instant.ofEpochMilli(Long.parseLong(v));
        }
        if (v.matches("\\d{1,9}\\s*(ms|s|m|h|d)")) {
            return now.minus(duration("--webhook-since", v));
        }
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException ignored) {
            // try the next form
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException ignored) {
            // try the next form
        }
        try {
            return LocalDate.parse(v).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new Main.UsageError("--webhook-since: '" + value + "' is not a time: use 2026-11-29, "
                    + "2026-11-29T08:00:00Z, epoch milliseconds or a span such as 24h or 7d");
        }
    }

    /** The host for default links: the bind address, or this machine's name when bound to every interface. */
    private static String linkHost(String bind) {
        String b = bind.trim();
        if (b.equals("0.0.0.0") || b.equals("::") || b.equals("[::]")) {
            try {
                return InetAddress.getLocalHost().getCanonicalHostName();
            } catch (Exception e) {
                return "localhost";
            }
        }
        return b.contains(":") && !b.startsWith("[") ? "[" + b + "]" : b;
    }

    /** scheme://host[:port] only: a webhook URL's path or query may hold its secret. */
    private static String hostOnly(String url) {
        URI u = URI.create(url.trim());
        return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "");
    }
}
