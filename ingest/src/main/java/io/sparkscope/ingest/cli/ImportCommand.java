package io.sparkscope.ingest.cli;

import io.sparkscope.cli.AnalysisOptions;
import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.cli.LogLocationOptions;
import io.sparkscope.cli.UsageError;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.notify.WebhookNotifier;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.Spool;
import io.sparkscope.store.SpoolTarget;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code import}: event logs (through the same recorder as the listener) or a listener's spool into the database,
 * through the store's {@link IngestService}. Idempotent: importing twice changes nothing and says "unchanged".
 * Exit code 0 when every application was stored, 1 when one or more were not (each named on its own line: a log
 * without an application, one the database refused, or a location that holds no readable log, such as an empty
 * rolling-log directory; the rest are still imported), 2 for a usage error in the options or a database that
 * cannot be reached, at the start or mid-run (the run then stops at once).
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Import Spark event logs, or snapshots a listener spooled while the database was away, "
                + "into the Sparkscope database. Importing again is harmless.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:every application was stored (or was already, unchanged)",
                "1:one or more were not stored, each named on its own line with why (a location that is missing "
                        + "or holds no readable log, such as an empty rolling-log directory; a log without an "
                        + "application; one the database refused); the others were stored",
                "2:usage error in the options, or the database could not be reached or was lost mid-run "
                        + "(the run stops there)"})
public final class ImportCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "<file-dir-or-uri>",
            description = "Event log files or directories: local paths or URIs (file:, hdfs:, s3a:, abfs:, gs:).")
    List<String> paths = new ArrayList<>();

    @Mixin
    LogLocationOptions locations;

    @Option(names = "--spool", paramLabel = "<dir>",
            description = "A listener spool directory (spark.sparkscope.spool.dir) to deliver; delivered files are deleted.")
    Path spool;

    @Option(names = "--accept-untagged",
            description = "With --spool: also deliver spool files that name no target database (written by a "
                    + "Sparkscope listener before spool files recorded one) to this database.")
    boolean acceptUntagged;

    @Mixin
    DatabaseOptions db;

    @Mixin
    AnalysisOptions analysis;

    @Option(names = "--webhook-url", paramLabel = "<url>",
            description = "POST a JSON notification here for each imported complete application with a HIGH finding "
                    + "or a Regression.")
    String webhookUrl;

    @Option(names = "--ui-url", paramLabel = "<url>",
            description = "Base URL of the Sparkscope UI, for the link in webhook notifications.")
    String uiUrl;

    /** Counts and the progress line of one run. */
    private static final class Tally {
        final int total;
        int done;
        int imported;
        int unchanged;
        int stale;
        int failed;
        long events;

        Tally(int total) {
            this.total = total;
        }

        String prefix() {
            return "[" + done + "/" + total + "] ";
        }

        /** Counts a result and returns its words for the progress line. */
        String count(IngestResult r) {
            switch (r.outcome()) {
                case WRITTEN -> {
                    imported++;
                    return "imported" + laterRuns(r);
                }
                case UNCHANGED -> {
                    unchanged++;
                    return "unchanged";
                }
                case SKIPPED_STALE -> {
                    stale++;
                    return "not replaced: the database holds a newer snapshot of it";
                }
                default -> {
                    failed++;
                    return "not stored: " + r.reason();
                }
            }
        }

        String summary() {
            return String.format(Locale.ROOT, "imported %d application(s), %d unchanged, %d older than the stored copy,"
                    + " %d failed", imported, unchanged, stale, failed);
        }
    }

    static String laterRuns(IngestResult r) {
        return r.laterRunsUpdated().isEmpty() ? ""
                : "; Regression finding of " + r.laterRunsUpdated().size() + " later run(s) updated";
    }

    @Override
    public Integer call() {
        if (paths.isEmpty() && spool == null) {
            throw new UsageError("give event logs to import, or --spool <dir>");
        }
        analysis.check();
        // The live listener's windows: what leaves them was written on the way (the checkpoint below), so a log of any
        // length is imported within the same memory.
        RecorderOptions options = analysis.recorderOptions().withDefaultWindows();
        PrintStream err = System.err;
        List<String> unreadable = new ArrayList<>();
        List<EventLogSource> sources = discover(unreadable);
        List<Path> spooled = spool == null ? List.of() : spoolFiles(spool);
        // A spool file is delivered only to the database it was spooled for (URL and user, as a hash).
        Spool spoolReader = spool == null ? null : new Spool(spool, Long.MAX_VALUE, SpoolTarget.of(db.url(), db.user()),
                message -> err.println("warning: " + message));
        for (String line : unreadable) {
            err.println(line);
        }
        if (sources.isEmpty() && spooled.isEmpty()) {
            if (unreadable.isEmpty()) { // each unreadable location already said why
                err.println("sparkscope import: nothing to import: no event logs in "
                        + (spool == null ? LogLocations.mask(String.join(", ", paths)) : spool));
            }
            return 1;
        }
        WebhookNotifier notifier = webhook(webhookUrl, uiUrl);
        long started = System.nanoTime();
        Tally tally = new Tally(sources.size() + spooled.size());
        tally.failed = unreadable.size();
        try (HikariDataSource ds = db.open(2)) {
            IngestService.Builder builder = AnalysisOptions.ingest(ds, analysis.heuristics(), analysis.regression(), err);
            if (notifier != null) {
                builder.onWritten(notifier::notifyFinished);
            }
            IngestService ingest = builder.build();
            for (EventLogSource source : sources) {
                tally.done++;
                long t0 = System.nanoTime();
                EventLogAnalysis.Result result;
                try {
                    result = EventLogAnalysis.analyze(source, options, analysis.diagnoser()::diagnose,
                            changed -> ingest.ingest(changed, List.of()).stored(),
                            problem -> err.println("warning: " + problem));
                } catch (RuntimeException e) {
                    // A reader or recorder bug on strange input costs this file only.
                    tally.failed++;
                    err.println(tally.prefix() + source.path() + ": not imported: cannot read it: "
                            + e.getClass().getSimpleName() + ": " + DatabaseErrors.reason(e));
                    continue;
                }
                if (result.unreadable() != null) {
                    tally.failed++;
                    err.println(tally.prefix() + result.unreadable());
                    continue;
                }
                if (!result.hasApplication()) {
                    tally.failed++;
                    err.println(tally.prefix() + source.path() + ": not imported: no Spark application events");
                    continue;
                }
                AppSnapshot s = result.snapshot();
                IngestResult r = ingest.ingest(s, result.findings(analysis.diagnoser()::diagnose));
                if (r.databaseUnavailable()) {
                    return lost(err, tally, source.path(), r);
                }
                String what = tally.count(r);
                if (r.stored()) {
                    tally.events += s.eventCount();
                }
                double secs = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
                err.printf(Locale.ROOT, "%s%s: %s %s (%,d events, %,.0f events/s)%n", tally.prefix(), source.path(),
                        s.appId(), what, s.eventCount(), s.eventCount() / secs);
            }
            for (Path file : spooled) {
                tally.done++;
                AppSnapshot s;
                try {
                    s = spoolReader.load(file, acceptUntagged);
                } catch (IOException | RuntimeException e) {
                    tally.failed++;
                    err.println(tally.prefix() + file + ": not imported: cannot read it: " + DatabaseErrors.reason(e));
                    continue;
                }
                IngestResult r = ingest.ingest(s);
                if (r.databaseUnavailable()) {
                    return lost(err, tally, file, r);
                }
                String what = tally.count(r);
                if (r.stored()) {
                    try {
                        Files.deleteIfExists(file);
                    } catch (IOException e) {
                        err.println("warning: " + file + ": delivered but not deleted: " + e.getMessage());
                    }
                }
                err.println(tally.prefix() + file + ": " + s.appId() + " " + what + " (from the spool)");
            }
        } finally {
            if (notifier != null) {
                awaitNotifications(notifier, err);
            }
        }
        err.printf(Locale.ROOT, "%s; %,d events in %.1f s%n", tally.summary(), tally.events,
                (System.nanoTime() - started) / 1e9);
        return tally.failed > 0 ? 1 : 0;
    }

    /**
     * The logs under every location, in order. A location that cannot be read or holds no log (missing, an empty
     * rolling-log directory, a part number past what Spark writes) is one line in {@code unreadable}, naming it and
     * why, and the others are still imported: one bad argument in a long list must not cost the good ones.
     */
    private List<EventLogSource> discover(List<String> unreadable) {
        // a log reached through two arguments (a directory and a file in it, or each file of a Databricks
        // rollover, which all give the whole rollover) is imported once
        Set<EventLogSource> sources = new LinkedHashSet<>();
        for (String location : paths) {
            Path p;
            try {
                p = LogLocations.resolve(location, locations.hadoopConf());
            } catch (EventLogException e) {
                // Not a bad log but a setup that cannot work for any location of its kind: no filesystem for the
                // scheme, an unreachable name node or store, wrong keys. One line and exit 2, as for a bad option.
                throw new UsageError(e.getMessage());
            }
            try {
                sources.addAll(EventLogReader.discover(p));
            } catch (EventLogException e) {
                unreadable.add("sparkscope import: " + LogLocations.mask(e.getMessage()) + "; not imported");
            }
        }
        return List.copyOf(sources);
    }

    /** The database went away: one line, and no further file is tried (each would wait for a connection in vain). */
    private int lost(PrintStream err, Tally tally, Path at, IngestResult r) {
        err.println("sparkscope import: lost the database " + db.url() + " at " + at + ": " + r.reason()
                + "; stopped with " + (tally.total - tally.done + 1) + " of " + tally.total + " not imported ("
                + tally.summary() + " before)");
        return 2;
    }

    private static void awaitNotifications(WebhookNotifier notifier, PrintStream err) {
        try {
            if (!notifier.awaitIdle(60_000)) {
                err.println("warning: webhook notifications still pending after 60 s; giving up on them");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        notifier.close();
    }

    static WebhookNotifier webhook(String url, String uiUrl) {
        if (url == null || url.isBlank()) {
            return null;
        }
        try {
            return new WebhookNotifier(url, uiUrl, WebhookNotifier.DEFAULT_ATTEMPTS, WebhookNotifier.DEFAULT_BACKOFF_MS,
                    Duration.ofSeconds(10), System.err::println);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--webhook-url: " + e.getMessage());
        }
    }

    private static List<Path> spoolFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new UsageError("--spool: " + dir + " is not a directory");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(Spool.SUFFIX)).sorted().toList();
        } catch (IOException e) {
            throw new UsageError("--spool: cannot list " + dir + ": " + e.getMessage());
        }
    }
}
