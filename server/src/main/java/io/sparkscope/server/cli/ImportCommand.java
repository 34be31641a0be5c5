package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.notify.WebhookNotifier;
import io.sparkscope.store.PreviousRuns;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.Spool;
import io.sparkscope.store.WriteResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code import}: event logs (through the same recorder as the listener) or a listener's spool into the database.
 * Idempotent: every row is an upsert on its natural key, so importing twice changes nothing.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Import Spark event logs, or snapshots a listener spooled while the database was away, "
                + "into the Sparkscope database. Importing again is harmless.")
public final class ImportCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "<file-or-dir>", description = "Event log files or directories.")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--spool", paramLabel = "<dir>",
            description = "A listener spool directory (spark.sparkscope.spool.dir) to deliver; delivered files are deleted.")
    Path spool;

    @Mixin
    DatabaseOptions db;

    @Option(names = "--heuristics-config", paramLabel = "<file>",
            description = "Properties file overriding heuristic thresholds.")
    Path heuristicsConfig;

    @Option(names = "--tasks-per-stage", paramLabel = "N", defaultValue = "10000",
            description = "Tasks kept in detail per stage: all up to N, past it the slowest N/2 and a uniform sample"
                    + " (default: ${DEFAULT-VALUE}).")
    int tasksPerStage;

    @Option(names = "--regression-factor", paramLabel = "X", defaultValue = "1.5",
            description = "A complete run this many times slower (wall or task time) than the median of the previous "
                    + "10 complete runs of its name gets a Regression finding: LOW, HIGH at 2× (default: ${DEFAULT-VALUE}).")
    double regressionFactor;

    @Option(names = "--webhook-url", paramLabel = "<url>",
            description = "POST a JSON notification here for each imported complete application with a HIGH finding "
                    + "or a Regression.")
    String webhookUrl;

    @Option(names = "--ui-url", paramLabel = "<url>",
            description = "Base URL of the Sparkscope UI, for the link in webhook notifications.")
    String uiUrl;

    @Override
    public Integer call() {
        if (paths.isEmpty() && spool == null) {
            throw new Main.UsageError("give event logs to import, or --spool <dir>");
        }
        checkRegressionFactor(regressionFactor);
        WebhookNotifier notifier = webhook(webhookUrl, uiUrl);
        Diagnoser diagnoser = AnalyzeCommand.diagnoser(heuristicsConfig);
        PrintStream err = System.err;
        List<EventLogSource> sources = new ArrayList<>();
        for (Path p : paths) {
            try {
                sources.addAll(EventLogReader.discover(p));
            } catch (EventLogException e) {
                throw new Main.UsageError(e.getMessage());
            }
        }
        List<Path> spooled = spool == null ? List.of() : spoolFiles(spool);
        long started = System.nanoTime();
        int imported = 0;
        int unchanged = 0;
        int failed = 0;
        long events = 0;
        SnapshotWriter writer = new SnapshotWriter();
        RecorderOptions options = RecorderOptions.DEFAULTS.withTasksPerStage(tasksPerStage);
        int total = sources.size() + spooled.size();
        int done = 0;
        try (HikariDataSource ds = db.open(2)) {
            for (EventLogSource source : sources) {
                done++;
                long t0 = System.nanoTime();
                EventLogAnalysis.Result result = EventLogAnalysis.analyze(source, options,
                        problem -> err.println("warning: " + problem));
                if (!result.hasApplication()) {
                    err.printf("[%d/%d] %s: no Spark application events; skipped%n", done, total, source.path());
                    failed++;
                    continue;
                }
                AppSnapshot s = result.snapshot();
                try {
                    List<Finding> findings = withRegression(ds, s, diagnoser.diagnose(s), regressionFactor, err);
                    WriteResult w = writer.write(ds, s, findings);
                    if (w.written() && notifier != null) {
                        notifier.notifyFinished(s, findings);
                    }
                    double secs = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
                    events += s.eventCount();
                    if (w.written()) {
                        imported++;
                    } else {
                        unchanged++;
                    }
                    err.printf(Locale.ROOT, "[%d/%d] %s: %s %s (%,d events, %,.0f events/s)%n", done, total,
                            source.path(), s.appId(), w.written() ? "imported" : "already up to date",
                            s.eventCount(), s.eventCount() / secs);
                } catch (Exception e) {
                    failed++;
                    err.printf("[%d/%d] %s: could not write %s: %s%n", done, total, source.path(), s.appId(),
                            DatabaseOptions.firstLine(e.getMessage()));
                }
            }
            for (Path file : spooled) {
                done++;
                try {
                    AppSnapshot s = Spool.load(file);
                    List<Finding> findings = withRegression(ds, s, diagnoser.diagnose(s), regressionFactor, err);
                    WriteResult w = writer.write(ds, s, findings);
                    if (w.written() && notifier != null) {
                        notifier.notifyFinished(s, findings);
                    }
                    Files.deleteIfExists(file);
                    if (w.written()) {
                        imported++;
                    } else {
                        unchanged++;
                    }
                    err.printf("[%d/%d] %s: %s %s from the spool%n", done, total, file, s.appId(),
                            w.written() ? "imported" : "already up to date");
                } catch (Exception e) {
                    failed++;
                    err.printf("[%d/%d] %s: could not import: %s%n", done, total, file,
                            DatabaseOptions.firstLine(e.getMessage()));
                }
            }
        }
        if (notifier != null) {
            try {
                if (!notifier.awaitIdle(60_000)) {
                    err.println("warning: webhook notifications still pending after 60 s; giving up on them");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            notifier.close();
        }
        double secs = (System.nanoTime() - started) / 1e9;
        err.printf(Locale.ROOT, "imported %d application(s), %d already up to date, %d failed; %,d events in %.1f s%n",
                imported, unchanged, failed, events, secs);
        return imported + unchanged > 0 ? 0 : 1;
    }

    static void checkRegressionFactor(double factor) {
        if (!(factor >= 1) || Double.isInfinite(factor)) {
            throw new Main.UsageError("--regression-factor must be a number of at least 1, got " + factor);
        }
    }

    static WebhookNotifier webhook(String url, String uiUrl) {
        if (url == null || url.isBlank()) {
            return null;
        }
        try {
            return new WebhookNotifier(url, uiUrl, WebhookNotifier.DEFAULT_ATTEMPTS, WebhookNotifier.DEFAULT_BACKOFF_MS,
                    Duration.ofSeconds(10), System.err::println);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageError("--webhook-url: " + e.getMessage());
        }
    }

    /**
     * The heuristics' findings plus the Regression finding against the stored previous runs of the same name (for a
     * complete snapshot); a failing query costs only the Regression finding, with a warning.
     */
    static List<Finding> withRegression(DataSource ds, AppSnapshot s, List<Finding> findings, double factor,
                                        PrintStream err) {
        try {
            return PreviousRuns.withRegression(ds, s, findings, factor, PreviousRuns.DEFAULT_LIMIT);
        } catch (SQLException | RuntimeException e) {
            err.println("warning: " + s.appId() + ": cannot compare with previous runs: "
                    + DatabaseOptions.firstLine(e.getMessage()));
            return findings;
        }
    }

    private static List<Path> spoolFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new Main.UsageError("--spool: " + dir + " is not a directory");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(Spool.SUFFIX)).sorted().toList();
        } catch (IOException e) {
            throw new Main.UsageError("--spool: cannot list " + dir + ": " + e.getMessage());
        }
    }
}
