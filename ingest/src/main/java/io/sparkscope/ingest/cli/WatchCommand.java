package io.sparkscope.ingest.cli;

import io.sparkscope.cli.AnalysisOptions;
import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.cli.Durations;
import io.sparkscope.cli.LogLocationOptions;
import io.sparkscope.cli.UsageError;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.ingest.watch.LogWatcher;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.store.ingest.IngestService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code watch <dir-or-uri>}: keeps the database current from an event-log directory (local, HDFS, S3, …) until
 * stopped, as Spark's History Server keeps its listing; see {@link LogWatcher}.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Keep the database current from an event-log directory (spark.eventLog.dir): new, running "
                + "(.inprogress, rolling) and finished applications, read incrementally, every --interval. "
                + "Several watchers may share one directory.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:stopped (Ctrl-C or SIGTERM), or with --once every log was read",
                "1:with --once: some logs failed, each named on its own line",
                "2:usage error, or the database could not be reached at the start"})
public final class WatchCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<dir-or-uri>",
            description = "The event-log directory: a local path or a URI (file:, hdfs:, s3a:, abfs:, gs:).")
    String location;

    @Mixin
    DatabaseOptions db;

    @Mixin
    AnalysisOptions analysis;

    @Mixin
    LogLocationOptions locations;

    @Mixin
    Settings settings;

    @Option(names = "--once", description = "Scan once and exit (for cron, or a first catch-up).")
    boolean once;

    /** The watcher's own options, shared with {@code serve --watch} (public for the server's serve command). */
    public static final class Settings {
        @Option(names = "--interval", paramLabel = "<duration>", defaultValue = "10s",
                description = "Time between scans: 500ms, 10s, 2m; for serve, only with --watch (default: "
                        + "${DEFAULT-VALUE}).")
        String interval = "10s";

        @Option(names = "--max-open-logs", paramLabel = "N", defaultValue = "8",
                description = "Running logs kept open between scans, read on from where they stopped; past N the "
                        + "one that grew longest ago is read again from its start when it next grows "
                        + "; for serve, only with --watch (default: ${DEFAULT-VALUE}).")
        int maxOpenLogs = LogWatcher.Options.DEFAULT_MAX_OPEN_LOGS;

        public LogWatcher.Options options(RecorderOptions recorder) {
            Duration every = Durations.parse("--interval", interval);
            if (every.toMillis() < 100 || every.compareTo(Duration.ofDays(1)) > 0) {
                throw new UsageError("--interval: " + interval + " is outside 100ms…1d");
            }
            if (maxOpenLogs < 1 || maxOpenLogs > 10_000) {
                throw new UsageError("--max-open-logs: " + maxOpenLogs + " is outside 1…10000");
            }
            // The live listener's windows: each open log's memory is bounded however long it runs.
            RecorderOptions windowed = recorder.withDefaultWindows();
            LogWatcher.Options o = LogWatcher.Options.of(every, windowed);
            return new LogWatcher.Options(o.interval(), maxOpenLogs, windowed, o.lease());
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        analysis.check();
        LogWatcher.Options options = settings.options(analysis.recorderOptions());
        Path dir = directory(locations, location);
        PrintStream err = System.err;
        HikariDataSource ds = db.open(2);
        IngestService ingest = AnalysisOptions.ingest(ds, analysis.heuristics(), analysis.regression(), err).build();
        LogWatcher watcher = new LogWatcher(dir, ingest, new LogWatchStates(ds, owner(), options.lease()), options,
                err::println);
        err.println("sparkscope watch: " + LogLocations.mask(dir.toString()) + " every "
                + options.interval().toMillis() / 1000.0 + " s into " + db.url());
        if (once) {
            LogWatcher.Scan s = watcher.scan();
            err.println(s.line());
            watcher.close();
            ds.close();
            return s.error() != null ? 2 : s.failed() > 0 ? 1 : 0;
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            watcher.run(stop::get);
        } finally {
            ds.close();
            done.countDown();
        }
        return 0;
    }

    /** The location as a directory to watch, or a one-line usage error. Public: {@code serve --watch} uses it too. */
    public static Path directory(LogLocationOptions locations, String location) {
        Path dir = locations.resolve(location);
        if (!Files.isDirectory(dir)) {
            throw new UsageError(LogLocations.mask(location) + ": not a directory (watch takes Spark's "
                    + "spark.eventLog.dir; give single logs to import)");
        }
        try (var list = Files.newDirectoryStream(dir)) {
            list.iterator().hasNext();
        } catch (IOException e) {
            throw new UsageError(LogLocations.mask(location) + ": cannot list it: "
                    + LogLocations.mask(e.getMessage()));
        }
        return dir;
    }

    /** Names this watcher in its claims: unique per process start. Public: {@code serve --watch} claims logs too. */
    public static String owner() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ManagementFactory.getRuntimeMXBean().getPid() + ":"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
    }

    /** Stores with the default heuristics: what {@code serve --watch} uses, as it has no analysis options. */
    public static IngestService defaultIngest(javax.sql.DataSource ds, PrintStream err) {
        Diagnoser d = Diagnoser.defaults();
        return IngestService.builder(ds).heuristics(d::diagnose).warnings(w -> err.println("warning: " + w)).build();
    }
}
