package io.sparkscope.archive;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.archive.LogOutcome.Kind;
import io.sparkscope.cli.AnalysisOptions;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.cli.LogLocationOptions;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SchemaStatus;
import io.sparkscope.store.StoreDataSources;
import io.sparkscope.store.ingest.DatabaseErrors;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import scala.Tuple2;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Spark application that imports an archive of event logs into the Sparkscope database:
 * <pre>
 *   spark-submit --class io.sparkscope.archive.ArchiveImport sparkscope-archive-import.jar &lt;logs-uri&gt; \
 *       --db-url jdbc:postgresql://db:5432/sparkscope [--db-user …] [--max-connections N]
 * </pre>
 * The driver lists the archive without opening a log ({@link ArchiveListing}), leaves out the logs the database
 * holds to their end as they are now ({@code log_watch}, written by earlier runs and by watchers), spreads the rest
 * over tasks balanced by bytes ({@link Bins}), and each task stores its logs as {@code import} does
 * ({@link ImportTask}). The tasks' connections are bounded: at most {@code (max-connections - 1) / 2} tasks of two
 * connections each (one of them for {@link GroupLocks}), plus the driver's one. Progress lines come from the
 * driver while the tasks run, then one line per task, one per log not stored, and a summary.
 */
@Command(name = "sparkscope-archive-import", mixinStandardHelpOptions = true,
        description = "Import an archive of Spark event logs into the Sparkscope database, on Spark: the logs are "
                + "read by Spark tasks, stored as 'sparkscope import' stores them. Running it again reads only what "
                + "is new or changed. Exit status: 0 all stored, 1 some not stored, 2 usage error or database lost.")
public final class ArchiveImport implements Callable<Integer> {
    static final String PREFIX = "sparkscope archive import: ";

    @Parameters(index = "0", paramLabel = "<logs-uri>",
            description = "The archive: a directory of event logs (searched eight folders deep), a rolling log or "
                    + "one log; a local path or a URI (file:, hdfs:, s3a:, abfs:, gs:).")
    String location;

    /** --db-url (or --db), --db-user, --db-password, as the sparkscope command declares them. */
    @Mixin
    DatabaseOptions db;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "9",
            description = "Database connections at most, all tasks and the driver together: (N - 1) / 2 tasks, "
                    + "no more than Spark's default parallelism (default: ${DEFAULT-VALUE}, at least 2).")
    int maxConnections;

    /** --tasks-per-stage, --regression-factor and --heuristics-config, as the sparkscope command declares them. */
    @Mixin
    AnalysisOptions analysis;

    /** --hadoop-conf, as the sparkscope command declares it; applied on top of Spark's spark.hadoop.* settings. */
    @Mixin
    LogLocationOptions locations;

    @Option(names = "--progress-interval", paramLabel = "<seconds>", defaultValue = "10",
            description = "Seconds between progress lines (default: ${DEFAULT-VALUE}).")
    int progressSeconds;

    /** The context the last run used, for main to stop (spark-submit waits for it otherwise). */
    private static volatile SparkContext used;

    /** A one-line error and exit status 2. */
    static final class UsageError extends io.sparkscope.cli.UsageError {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        int code = run(args);
        SparkContext sc = used;
        if (sc != null) {
            sc.stop();
        }
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the import on the active SparkContext (or a new one) and returns the exit status; leaves it running. */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new ArchiveImport());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof io.sparkscope.cli.UsageError) {
                commandLine.getErr().println(PREFIX + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        PrintStream err = System.err;
        long t0 = System.nanoTime();
        TaskSettings base = check();
        SparkConf conf = new SparkConf().setIfMissing("spark.app.name", "sparkscope-archive-import");
        used = SparkContext.getOrCreate(conf);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(used);
        Map<String, String> hadoop = new TreeMap<>();
        for (Tuple2<String, String> e : jsc.getConf().getAll()) {
            if (e._1().startsWith("spark.hadoop.")) {
                hadoop.put(e._1(), e._2());
            }
        }
        hadoop.putAll(locations.hadoopConf());

        Path root = resolve(location, hadoop);
        ArchiveListing.Listing listing;
        try {
            listing = ArchiveListing.list(root, w -> err.println("warning: " + w));
        } catch (EventLogException e) {
            err.println(PREFIX + "nothing to import: " + LogLocations.mask(e.getMessage()));
            return 1;
        }

        int taskConnections = maxConnections - 1;
        int slots = Math.max(1, jsc.defaultParallelism());
        int tasks = taskConnections < 4 ? 1 : Math.min(slots, taskConnections / 2);

        try (HikariDataSource ds = open(base.password())) {
            Map<String, LogWatchStates.State> known;
            Timestamp started;
            try {
                known = new LogWatchStates(ds, ImportTask.OWNER, Duration.ofMinutes(1)).load(root.toString());
                started = databaseNow(ds);
            } catch (SQLException e) {
                throw new UsageError("cannot use " + LogLocations.mask(db.url()) + ": " + DatabaseErrors.reason(e));
            }
            List<LogRef> todo = new ArrayList<>();
            Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
            for (LogRef log : listing.logs()) {
                LogWatchStates.State s = known.get(log.key());
                if (s != null && !log.inProgress() && s.settledAt(log.size(), log.modified())) {
                    counts.merge(s.status() == LogWatchStates.Status.UNREADABLE ? Kind.NOT_A_LOG : Kind.STORED_ALREADY,
                            1, Integer::sum);
                } else {
                    todo.add(log);
                }
            }
            List<List<LogRef>> bins = Bins.balance(todo, tasks);
            boolean lock = bins.size() > 1;
            TaskSettings settings = new TaskSettings(base.url(), base.user(), base.password(), lock ? 2 : 1, lock,
                    base.tasksPerStage(), base.regressionFactor(), base.heuristics(), base.heuristicsSource(), hadoop);
            long todoBytes = Bins.bytes(todo);
            err.printf(Locale.ROOT, "%s%s: %,d log(s), %,d stored already; %,d to read (%,.1f MB) in %d task(s) of "
                            + "%,.1f to %,.1f MB, at most %d database connection(s)%n", PREFIX,
                    LogLocations.mask(root.toString()), listing.logs().size(), listing.logs().size() - todo.size(),
                    todo.size(), todoBytes / 1e6, bins.size(),
                    bins.stream().mapToLong(Bins::bytes).min().orElse(0) / 1e6,
                    bins.stream().mapToLong(Bins::bytes).max().orElse(0) / 1e6, 1 + bins.size() * settings.poolSize());

            List<LogOutcome> outcomes = bins.isEmpty() ? List.of()
                    : runTasks(jsc, bins, settings, ds, root.toString(), started, todo.size(), t0, err);
            if (outcomes == null) {
                return 2;
            }
            return report(outcomes, counts, bins.size(), t0, err);
        }
    }

    /** Every option checked before Spark starts or anything is read. */
    private TaskSettings check() {
        String url = db.url();
        if (url == null || !url.startsWith("jdbc:postgresql:")) {
            throw new UsageError("--db-url: expected a jdbc:postgresql: URL, got '" + LogLocations.mask(url) + "'");
        }
        if (maxConnections < 2) {
            throw new UsageError("--max-connections must be at least 2 (one for the driver, one for a task), got "
                    + maxConnections);
        }
        int tasksPerStage = analysis.tasksPerStage();
        double regressionFactor = analysis.regression().factor();
        if (progressSeconds < 1) {
            throw new UsageError("--progress-interval must be at least 1 second, got " + progressSeconds);
        }
        // The settings themselves, not the file: the tasks read them on executors, where the driver's file is not.
        Map<String, String> heuristics = new TreeMap<>(analysis.heuristics().overrides());
        String source = analysis.heuristics().source();
        return new TaskSettings(url, db.user(), db.password(), 1, false, tasksPerStage, regressionFactor, heuristics, source,
                Map.of());
    }

    /** The archive's root; a local path made absolute, so that each task and each rerun names its logs alike. */
    private static Path resolve(String location, Map<String, String> hadoop) {
        Path p;
        try {
            p = LogLocations.resolve(location, hadoop);
        } catch (EventLogException e) {
            throw new UsageError(LogLocations.mask(e.getMessage()));
        }
        return LogLocations.isUri(location) ? p : p.toAbsolutePath().normalize();
    }

    /** The driver's connection: the database reachable and its schema current (migrated when empty or older). */
    private HikariDataSource open(String pw) {
        String url = db.url();
        String user = db.user();
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (pw != null) {
            props.setProperty("password", pw);
        }
        props.setProperty("loginTimeout", "30");
        // one direct connection first: a refused connection or unknown host fails at once, with its reason
        try (Connection c = DriverManager.getConnection(url, props)) {
            c.isValid(2);
        } catch (SQLException e) {
            throw new UsageError("cannot connect to " + LogLocations.mask(url) + ": " + DatabaseErrors.reason(e));
        }
        // Flyway holds two connections while it migrates, before any task runs; the driver keeps one after that
        SchemaStatus status;
        try (HikariDataSource migration = StoreDataSources.pooled(url, user, pw, 2, 30_000)) {
            status = SchemaManager.migrate(migration);
        } catch (RuntimeException e) {
            throw new UsageError("cannot use " + LogLocations.mask(url) + ": " + DatabaseErrors.reason(e));
        }
        if (!status.usable()) {
            throw new UsageError(status.message());
        }
        return StoreDataSources.pooled(url, user, pw, 1, 30_000);
    }

    private static Timestamp databaseNow(HikariDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT now()");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getTimestamp(1);
        }
    }

    /** The Spark job, with a progress line every interval while it runs; null when the job itself failed. */
    private List<LogOutcome> runTasks(JavaSparkContext jsc, List<List<LogRef>> bins, TaskSettings settings,
                                      HikariDataSource ds, String prefix, Timestamp started, int total, long t0,
                                      PrintStream err) {
        ImportTask task = new ImportTask(settings);
        jsc.setJobDescription("sparkscope archive import: " + total + " log(s) in " + bins.size() + " task(s)");
        // one bin per partition: parallelize slices a list of n elements into n slices of one
        JavaFutureAction<List<LogOutcome>> job = jsc.parallelize(bins, bins.size())
                .mapPartitionsWithIndex((index, it) -> {
                    List<LogOutcome> out = new ArrayList<>();
                    while (it.hasNext()) {
                        out.addAll(task.run(index, it.next()));
                    }
                    return out.iterator();
                }, true)
                .collectAsync();
        while (true) {
            try {
                return job.get(progressSeconds, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                progress(ds, prefix, started, total, t0, err);
            } catch (InterruptedException e) {
                job.cancel(true);
                Thread.currentThread().interrupt();
                err.println(PREFIX + "interrupted; run it again to resume");
                return null;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                err.println(PREFIX + "the Spark job failed: " + firstLine(LogLocations.mask(
                        String.valueOf(cause.getMessage()))) + "; run it again to resume");
                return null;
            }
        }
    }

    /** Logs this run finished (stored to their end, or found to be no logs), from their log_watch rows. */
    private static void progress(HikariDataSource ds, String prefix, Timestamp started, int total, long t0,
                                 PrintStream err) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT count(*), coalesce(sum(size_bytes), 0) FROM log_watch"
                        + " WHERE left(log_key, length(?)) = ? AND updated_at >= ? AND status <> 'NEW'")) {
            ps.setString(1, prefix);
            ps.setString(2, prefix);
            ps.setTimestamp(3, started);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                double secs = (System.nanoTime() - t0) / 1e9;
                err.printf(Locale.ROOT, "%sprogress: %,d of %,d log(s) done (%,.1f MB) after %.0f s%n", PREFIX,
                        rs.getLong(1), total, rs.getLong(2) / 1e6, secs);
            }
        } catch (SQLException | RuntimeException e) {
            err.println(PREFIX + "progress unknown: " + DatabaseErrors.reason(e));
        }
    }

    /** A line per log not stored and per task, the summary; the exit status. */
    private static int report(List<LogOutcome> outcomes, Map<Kind, Integer> counts, int tasks, long t0,
                              PrintStream err) {
        Map<Integer, long[]> perTask = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        String lost = null;
        int notTried = 0;
        long bytes = 0;
        for (LogOutcome o : outcomes) {
            counts.merge(o.kind(), 1, Integer::sum);
            bytes += o.bytes();
            long[] t = perTask.computeIfAbsent(o.task(), k -> new long[3]);
            t[0]++;
            t[1] += o.bytes();
            if (o.stored()) {
                t[2]++;
            }
            switch (o.kind()) {
                case FAILED -> {
                    failed.add(o.shown());
                    err.println(PREFIX + o.shown() + ": not imported: " + o.reason());
                }
                case BUSY -> err.println(PREFIX + o.shown() + ": not imported now: " + o.reason());
                case NOT_TRIED -> {
                    notTried++;
                    lost = o.reason();
                }
                default -> {
                }
            }
        }
        for (Map.Entry<Integer, long[]> t : perTask.entrySet()) {
            err.printf(Locale.ROOT, "%stask %d: %,d log(s), %,.1f MB read, %,d stored%n", PREFIX, t.getKey(),
                    t.getValue()[0], t.getValue()[1] / 1e6, t.getValue()[2]);
        }
        if (lost != null) {
            err.println(PREFIX + notTried + " log(s) not tried: " + lost + "; run it again to resume");
        }
        double secs = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
        int stored = counts.getOrDefault(Kind.WRITTEN, 0) + counts.getOrDefault(Kind.UNCHANGED, 0)
                + counts.getOrDefault(Kind.STORED_ALREADY, 0) + counts.getOrDefault(Kind.STALE, 0);
        int read = counts.getOrDefault(Kind.WRITTEN, 0) + counts.getOrDefault(Kind.UNCHANGED, 0)
                + counts.getOrDefault(Kind.STALE, 0);
        err.printf(Locale.ROOT, "%s%d written, %d unchanged (%d of them not read again), %d older than the stored "
                        + "copy, %d skipped non-logs, %d failed%s, %d busy, %d not tried; %d task(s), %.1f s, "
                        + "%.2f applications/s, %.2f MB/s%n", PREFIX,
                counts.getOrDefault(Kind.WRITTEN, 0),
                counts.getOrDefault(Kind.UNCHANGED, 0) + counts.getOrDefault(Kind.STORED_ALREADY, 0),
                counts.getOrDefault(Kind.STORED_ALREADY, 0), counts.getOrDefault(Kind.STALE, 0),
                counts.getOrDefault(Kind.NOT_A_LOG, 0), failed.size(), names(failed), counts.getOrDefault(Kind.BUSY, 0),
                notTried, tasks, secs, read / secs, bytes / 1e6 / secs);
        if (stored == 0 && failed.isEmpty() && lost == null && counts.getOrDefault(Kind.BUSY, 0) == 0) {
            err.println(PREFIX + "nothing to import: no event logs among the files");
            return 1;
        }
        return lost != null ? 2 : failed.isEmpty() && counts.getOrDefault(Kind.BUSY, 0) == 0 ? 0 : 1;
    }

    /** The first few failed logs by name, for the summary line. */
    private static String names(List<String> failed) {
        if (failed.isEmpty()) {
            return "";
        }
        int shown = Math.min(5, failed.size());
        String list = String.join(", ", failed.subList(0, shown));
        return " (" + list + (failed.size() > shown ? ", and " + (failed.size() - shown) + " more" : "") + ")";
    }

    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
