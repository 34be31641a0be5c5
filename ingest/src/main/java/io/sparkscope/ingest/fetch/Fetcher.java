package io.sparkscope.ingest.fetch;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.store.FetchState;
import io.sparkscope.store.ingest.IngestResult;

import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One {@code sparkscope fetch} run: list the History Server's completed applications that ended since the remembered
 * time, leave out those the database already holds complete, fetch the rest on a bounded pool and hand each snapshot
 * to a {@link SnapshotSink}. One application failing never stops the others; it is reported and, because the end
 * time to remember stays before it, listed again by the next run. A database that went away stops the run at once.
 *
 * <p>Progress goes to the given stream from the calling thread only, one line per application as it finishes.
 */
public final class Fetcher {
    private final HistoryClient client;
    private final FetchOptions options;
    private final RestSnapshots rest;
    private final LogSnapshots logs;

    public Fetcher(HistoryClient client, FetchOptions options, Path tempRoot) {
        this.client = client;
        this.options = options;
        this.rest = new RestSnapshots(client, options.recorder());
        this.logs = new LogSnapshots(client, options.recorder(), tempRoot);
    }

    /**
     * @param remembered    the newest end time remembered for this History Server (empty on the first run)
     * @param storedComplete of the given application ids, the attempts stored COMPLETE, as
     *                      {@link FetchState#key} strings
     * @throws HistoryServerException when the application list itself cannot be had
     */
    public FetchReport run(OptionalLong remembered, Function<Collection<String>, Set<String>> storedComplete,
                           SnapshotSink sink, PrintStream progress) {
        long now = System.currentTimeMillis();
        long from = options.since() >= 0 ? options.since()
                : remembered.isPresent() ? Math.max(0, notAfter(remembered.getAsLong(), now) - options.overlapMs())
                : -1;
        String query = "applications?status=completed" + (from < 0 ? ""
                : "&minEndDate=" + URLEncoder.encode(SparkDates.format(from), StandardCharsets.UTF_8));
        List<ListedApp> listed = new ArrayList<>();
        // Streamed: each listed application is parsed and kept as one small record, never the whole answer's tree.
        client.forEachInArray(query, app -> {
            for (ListedApp a : ListedApp.parseOne(app)) {
                if (from < 0 || a.endTime() >= from) {
                    listed.add(a);
                }
            }
        });
        Set<String> stored = options.refetch() ? Set.of()
                : storedComplete.apply(listed.stream().map(ListedApp::appId).distinct().toList());
        List<ListedApp> todo = new ArrayList<>();
        for (ListedApp a : listed) {
            if (!stored.contains(key(a))) {
                todo.add(a);
            }
        }
        // Oldest first, in the order the applications ended (the findings do not depend on the order).
        todo.sort(Comparator.comparingLong(ListedApp::endTime).thenComparing(ListedApp::appId));
        int alreadyStored = listed.size() - todo.size();
        progress.printf(Locale.ROOT, "%s: %d completed application(s) %s, %d already stored, %d to fetch%n",
                client.serverUrl(), listed.size(),
                from < 0 ? "in all" : "ended since " + SparkDates.format(from), alreadyStored, todo.size());

        List<String> failures = new ArrayList<>();
        List<ListedApp> notFetched = new ArrayList<>(todo);
        String databaseLost = null;
        int fetched = 0;
        if (!todo.isEmpty()) {
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(options.threads(), todo.size()),
                    daemonThreads());
            try {
                CompletionService<Outcome> done = new ExecutorCompletionService<>(pool);
                for (ListedApp a : todo) {
                    done.submit(() -> fetchOne(a, sink));
                }
                for (int i = 1; i <= todo.size(); i++) {
                    Outcome o = take(done);
                    o.warnings().forEach(w -> progress.println("warning: " + w));
                    if (o.databaseLost()) {
                        // Every other application would wait for a connection in vain: stop here, one message.
                        databaseLost = o.error();
                        break;
                    }
                    progress.printf(Locale.ROOT, "[%d/%d] %s: %s (%.1f s)%n", i, todo.size(), o.app().label(),
                            o.text(), o.seconds());
                    if (o.ok()) {
                        fetched++;
                        notFetched.remove(o.app());
                    } else {
                        failures.add(o.app().label() + ": " + o.error());
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
        OptionalLong newest = OptionalLong.empty();
        if (!notFetched.isEmpty()) {
            long oldestFailure = notFetched.stream().mapToLong(ListedApp::endTime).min().orElseThrow();
            newest = OptionalLong.of(notAfter(oldestFailure - 1, now));
        } else if (!listed.isEmpty()) {
            newest = OptionalLong.of(notAfter(listed.stream().mapToLong(ListedApp::endTime).max().orElseThrow(), now));
        }
        return new FetchReport(listed.size(), alreadyStored, fetched, failures, databaseLost, newest);
    }

    /**
     * An end time to remember, never later than now: one log with a clock or a date gone wrong (ending in the year
     * 9999) would otherwise make every later run list only what ends after it, which is nothing.
     */
    static long notAfter(long endTime, long now) {
        return Math.min(endTime, now);
    }

    static String key(ListedApp a) {
        return FetchState.key(a.appId(), a.attemptId());
    }

    /**
     * @param error        null when fetched and stored, else the one-line reason
     * @param databaseLost the database went away: nothing more can be stored in this run
     */
    private record Outcome(ListedApp app, String error, boolean databaseLost, String text, double seconds,
                           List<String> warnings) {
        boolean ok() {
            return error == null;
        }

        static Outcome failed(ListedApp app, String error, long t0, List<String> warnings) {
            return new Outcome(app, error, false, "failed: " + error, Fetcher.seconds(t0), warnings);
        }
    }

    private Outcome fetchOne(ListedApp app, SnapshotSink sink) {
        long t0 = System.nanoTime();
        List<String> warnings = new ArrayList<>();
        try {
            AppSnapshot s;
            String via;
            switch (options.source()) {
                case REST -> {
                    s = rest.fetch(app);
                    via = "REST API";
                }
                case LOGS -> {
                    s = logs.fetch(app, warnings::add);
                    via = "event logs";
                }
                default -> {
                    AppSnapshot fromLogs;
                    String refused = null;
                    try {
                        fromLogs = logs.fetch(app, warnings::add);
                    } catch (HistoryServerException e) {
                        if (!e.refused()) {
                            throw e;
                        }
                        fromLogs = null;
                        refused = String.valueOf(e.status());
                    }
                    s = fromLogs != null ? fromLogs : rest.fetch(app);
                    via = fromLogs != null ? "event logs" : "REST API (event logs refused: " + refused + ")";
                }
            }
            IngestResult result = sink.store(s);
            if (result.databaseUnavailable()) {
                return new Outcome(app, result.reason(), true, "", seconds(t0), warnings);
            }
            if (!result.stored()) {
                return Outcome.failed(app, "not stored: " + result.reason(), t0, warnings);
            }
            String stored = describe(result);
            long tasks = 0;
            for (StageSummary st : s.stages()) {
                tasks += st.numCompleteTasks() + st.numFailedTasks() + st.numKilledTasks();
            }
            String text = String.format(Locale.ROOT, "via %s: %s; %d stage attempt(s), %,d task(s)", via, stored,
                    s.stages().size(), tasks);
            return new Outcome(app, null, false, text, seconds(t0), warnings);
        } catch (HistoryServerException e) {
            return Outcome.failed(app, e.getMessage(), t0, warnings);
        } catch (Exception e) {
            String msg = e.getMessage() == null ? e.getClass().getSimpleName()
                    : HistoryClient.firstLine(e.getMessage());
            return Outcome.failed(app, msg, t0, warnings);
        }
    }

    /** What storing did, in a few words: "stored, 3 finding(s)". */
    static String describe(IngestResult r) {
        return switch (r.outcome()) {
            case WRITTEN -> "stored, " + r.findings().size() + " finding(s)" + (r.laterRunsUpdated().isEmpty() ? ""
                    : "; Regression finding of " + r.laterRunsUpdated().size() + " later run(s) updated");
            case UNCHANGED -> "unchanged, " + r.findings().size() + " finding(s)";
            case SKIPPED_STALE -> "kept the stored copy (it has more detail)";
            case FAILED, DATABASE_UNAVAILABLE -> "not stored: " + r.reason();
        };
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static Outcome take(CompletionService<Outcome> done) {
        try {
            return done.take().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while fetching", e);
        } catch (ExecutionException e) {
            // fetchOne catches everything it can; an Error is a bug worth its stack trace.
            throw new IllegalStateException(e.getCause());
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "sparkscope-fetch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
