package io.sparkscope.ingest.cli;

import io.sparkscope.cli.AnalysisOptions;
import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.cli.UsageError;
import io.sparkscope.ingest.fetch.FetchOptions;
import io.sparkscope.ingest.fetch.FetchReport;
import io.sparkscope.ingest.fetch.FetchSource;
import io.sparkscope.ingest.fetch.Fetcher;
import io.sparkscope.ingest.fetch.HistoryClient;
import io.sparkscope.ingest.fetch.HistoryServerException;
import io.sparkscope.store.FetchState;
import io.sparkscope.store.ingest.IngestService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import javax.sql.DataSource;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code fetch}: completed applications from a Spark History Server into the database, incrementally (the newest end
 * time fetched is remembered per History Server), several at a time, resumable (what the database already holds
 * complete is not fetched again) and idempotent (every write is an upsert). Exit code 0 when every application was
 * fetched, 1 when some failed (each is reported), 2 when the History Server or the database cannot be used at all
 * (the database going away mid-run included: the run then stops at once).
 */
@Command(name = "fetch", mixinStandardHelpOptions = true,
        description = "Fetch completed applications from a Spark History Server into the Sparkscope database: those "
                + "that ended since the last fetch, several at a time. Fetching again is harmless.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:every application was fetched (or was already stored)",
                "1:some failed, each named on its own line (failed: …); the others were stored",
                "2:usage error, or the History Server or the database could not be used at all, at the start or "
                        + "lost mid-run (the run stops there)"})
public final class FetchCommand implements Callable<Integer> {
    @Option(names = "--history-server", required = true, paramLabel = "<url>",
            description = "The Spark History Server, e.g. http://shs-host:18080.")
    String historyServer;

    @Mixin
    DatabaseOptions db;

    @Option(names = "--source", paramLabel = "auto|logs|rest", defaultValue = "auto",
            description = "auto: each application's event logs (…/logs), the REST API where the History Server "
                    + "refuses them; logs: event logs only; rest: REST API only (default: ${DEFAULT-VALUE}).")
    String source;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4",
            description = "Applications fetched at once (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--since", paramLabel = "<date>",
            description = "List applications that ended on or after this date (yyyy-MM-dd, UTC, or an instant like "
                    + "2026-11-01T08:00:00Z) instead of since the last fetch.")
    String since;

    @Option(names = "--overlap-minutes", paramLabel = "N", defaultValue = "60",
            description = "Start listing this long before the newest end time remembered, for applications the "
                    + "History Server lists late; those already stored are not fetched again (default: ${DEFAULT-VALUE}).")
    long overlapMinutes;

    @Option(names = "--refetch",
            description = "Fetch applications the database already holds complete as well.")
    boolean refetch;

    @Mixin
    AnalysisOptions analysis;

    @Option(names = "--http-timeout", paramLabel = "<seconds>", defaultValue = "120",
            description = "Longest wait for one History Server answer, its whole body included; the first access "
                    + "to an application makes the History Server replay its log (default: ${DEFAULT-VALUE}).")
    int httpTimeoutSeconds;

    @Option(names = "--max-body-mb", paramLabel = "<MiB>", defaultValue = "4096",
            description = "Largest History Server answer accepted, e.g. one application's zipped event logs; a "
                    + "larger one fails that application instead of filling the disk (default: ${DEFAULT-VALUE}).")
    long maxBodyMb;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "3",
            description = "Retries of a request that got no answer or a 5xx, with doubling waits from 0.5 s "
                    + "(default: ${DEFAULT-VALUE}).")
    int retries;

    /** Tests shorten the waits between retries. */
    @Option(names = "--retry-backoff-ms", hidden = true, defaultValue = "500")
    long retryBackoffMs;

    @Override
    public Integer call() {
        FetchSource src = parseSource(source);
        if (threads < 1 || threads > 64) {
            throw new UsageError("--threads must be between 1 and 64, got " + threads);
        }
        if (overlapMinutes < 0) {
            throw new UsageError("--overlap-minutes must be >= 0, got " + overlapMinutes);
        }
        if (httpTimeoutSeconds < 1 || retries < 0) {
            throw new UsageError("--http-timeout must be >= 1 and --retries >= 0");
        }
        if (maxBodyMb < 1 || maxBodyMb > Long.MAX_VALUE >> 20) {
            throw new UsageError("--max-body-mb must be >= 1, got " + maxBodyMb);
        }
        analysis.check();
        long sinceMs = since == null ? -1 : parseSince(since);
        HistoryClient client;
        try {
            client = new HistoryClient(historyServer, Duration.ofSeconds(Math.min(10, httpTimeoutSeconds)),
                    Duration.ofSeconds(httpTimeoutSeconds), retries, retryBackoffMs, maxBodyMb << 20);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--history-server: " + e.getMessage());
        }
        FetchOptions options = new FetchOptions(src, threads, analysis.recorderOptions(), overlapMinutes * 60_000L,
                sinceMs, refetch);
        PrintStream err = System.err;
        long started = System.nanoTime();
        try (HikariDataSource ds = db.open(threads + 1)) {
            OptionalLong remembered = FetchState.newestEndTime(ds, client.serverUrl());
            // A fetched snapshot with fewer events than the stored one (REST against a copy read from event logs)
            // keeps the stored copy when that one is complete; over an unfinished copy (a listener that died) the
            // completed History Server picture is written.
            IngestService ingest = AnalysisOptions.ingest(ds, analysis.heuristics(), analysis.regression(), err)
                    .replace(IngestService.Replace.COMPLETE_OVER_RUNNING)
                    .build();
            FetchReport report;
            try {
                report = new Fetcher(client, options, null).run(remembered, ids -> storedComplete(ds, ids),
                        ingest::ingest, err);
            } catch (HistoryServerException e) {
                throw new UsageError(e.getMessage());
            }
            for (String f : report.failures()) {
                err.println("failed: " + f);
            }
            if (report.databaseLost() != null) {
                err.printf(Locale.ROOT, "sparkscope fetch: lost the database %s: %s; stopped after %d fetched, %d failed"
                        + " (the next run fetches the rest)%n", db.url(), report.databaseLost(), report.fetched(),
                        report.failures().size());
                return 2;
            }
            if (report.newestEndTime().isPresent()) {
                FetchState.advance(ds, client.serverUrl(), report.newestEndTime().getAsLong());
            }
            err.printf(Locale.ROOT, "fetched %d application(s), %d already stored, %d failed from %s in %.1f s%n",
                    report.fetched(), report.alreadyStored(), report.failures().size(), client.serverUrl(),
                    (System.nanoTime() - started) / 1e9);
            return report.failures().isEmpty() ? 0 : 1;
        } catch (SQLException e) {
            throw new UsageError("database " + db.url() + ": " + DatabaseOptions.firstLine(e.getMessage()));
        }
    }

    private static Set<String> storedComplete(DataSource ds, Collection<String> appIds) {
        try {
            return FetchState.storedComplete(ds, appIds);
        } catch (SQLException e) {
            throw new UsageError("cannot read the stored applications: "
                    + DatabaseOptions.firstLine(e.getMessage()));
        }
    }

    static FetchSource parseSource(String s) {
        try {
            return FetchSource.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--source: expected auto, logs or rest, got '" + s + "'");
        }
    }

    static long parseSince(String s) {
        try {
            return s.length() == 10 ? LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()
                    : Instant.parse(s).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new UsageError("--since: expected yyyy-MM-dd or an instant like 2026-11-01T08:00:00Z, got '"
                    + s + "'");
        }
    }
}
