package io.sparkscope.ingest.watch;

import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.eventlog.EventLogTail;
import io.sparkscope.core.eventlog.LogDirectory;
import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.analysis.WindowedReading;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.store.LogWatchStates.State;
import io.sparkscope.store.LogWatchStates.Status;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Keeps a database current from an event-log directory, as Spark's History Server keeps its listing: each scan
 * lists the directory (one listing, no log opened unless it changed), reads what is new or grew, stores each
 * application through the {@link IngestService} (RUNNING while its log is written, final once it is closed), and
 * remembers in the database ({@link LogWatchStates}) how far each log was read.
 *
 * <ul>
 *   <li>Incremental: a running log is kept open between scans ({@link EventLogTail}) and only what it gained is
 *       decoded; a rolling log's finished parts are never read again. At most {@link Options#maxOpenLogs} logs are
 *       kept open (each holds a recorder, bounded by its {@link RecorderOptions}); past that the least recently
 *       grown one is closed and, should it grow again, read again from its start.</li>
 *   <li>Restartable: a log found finished with the size and time it had when stored is not read again, also after a
 *       restart; a running one is read again from its start once (its recorder was in the old process).</li>
 *   <li>Shared: a log is claimed in the database before it is read, so watchers on one directory never read the
 *       same log at once; a watcher keeps its claims on its open logs by renewing them every scan.</li>
 *   <li>Databricks rollover folders ({@link LogDirectory}) are one application each. Nothing marks such a folder
 *       in progress, and its current file grows all the time the application runs, so it is read whole, and only:
 *       when first seen, when a new rolled file appears in it (an hour's progress), and once its files have been
 *       left alone for a scan interval (the application ended or idles). A change in between waits.</li>
 * </ul>
 */
public final class LogWatcher {
    /**
     * @param interval    time between scans
     * @param maxOpenLogs running logs kept open between scans
     * @param lease       how long a claim lasts without renewal (several intervals)
     */
    public record Options(Duration interval, int maxOpenLogs, RecorderOptions recorder, Duration lease) {
        public static final int DEFAULT_MAX_OPEN_LOGS = 8;

        public Options {
            Objects.requireNonNull(interval, "interval");
            Objects.requireNonNull(recorder, "recorder");
            Objects.requireNonNull(lease, "lease");
            if (maxOpenLogs < 1) {
                throw new IllegalArgumentException("maxOpenLogs must be at least 1");
            }
        }

        public static Options of(Duration interval, RecorderOptions recorder) {
            Duration lease = interval.multipliedBy(5);
            return new Options(interval, DEFAULT_MAX_OPEN_LOGS, recorder,
                    lease.compareTo(Duration.ofMinutes(2)) < 0 ? Duration.ofMinutes(2) : lease);
        }
    }

    /** What one scan did, for its summary line. */
    public record Scan(int number, int logs, int newLogs, int grown, int finished, int unchanged, int settling,
                       int failed, int claimedElsewhere, int running, int open, long events, double seconds,
                       String error) {
        public String line() {
            if (error != null) {
                return String.format(Locale.ROOT, "scan %d: %s", number, error);
            }
            return String.format(Locale.ROOT, "scan %d: %,d logs: %d new, %d grew, %d finished, %,d unchanged, "
                            + "%s%d failed, %d read by another watcher; %d running, %d open; %,d events in %.2f s",
                    number, logs, newLogs, grown, finished, unchanged,
                    settling == 0 ? "" : settling + " Databricks rollover(s) still being written, ", failed,
                    claimedElsewhere, running, open, events, seconds);
        }
    }

    /** The database could not be used: this scan stops, the next one tries again. */
    public static final class DatabaseLost extends Exception {
        private static final long serialVersionUID = 1L;

        DatabaseLost(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * What a scan saw of a log, to tell next time whether it changed.
     *
     * @param parts for a Databricks rollover, how many files it had when read (a new rolled file is read at once)
     */
    private record Seen(long size, long modified, boolean inProgress, Status status, long dirModified, long parts) {
        boolean settled() {
            return (status == Status.DONE || status == Status.UNREADABLE) && !inProgress;
        }
    }

    /**
     * A running log kept open between scans. Its recorder keeps the options' windows: what leaves them was written
     * first, by the scans or by a checkpoint in between (a log that grew by a million events since the last scan).
     */
    private static final class Open {
        final WindowedReading reading;
        final Recorder recorder;
        final EventLogTail tail;
        long events;

        Open(RecorderOptions options, IngestService ingest, Consumer<String> problems) {
            reading = new WindowedReading(options, null, changed -> ingest.ingest(changed, List.of()).stored());
            recorder = reading.recorder();
            tail = new EventLogTail(e -> {
                events++;
                reading.accept(e);
            }, problems);
        }
    }

    private final Path dir;
    private final String dirKey;
    private final IngestService ingest;
    private final LogWatchStates states;
    private final Options options;
    private final Consumer<String> out;
    private final Map<String, Seen> seen = new HashMap<>();
    /** In access order: the first is the one that grew longest ago. */
    private final LinkedHashMap<String, Open> open = new LinkedHashMap<>(16, 0.75f, true);
    private final Set<String> warnedOnce = new HashSet<>();
    private boolean loaded;
    private int scans;

    public LogWatcher(Path dir, IngestService ingest, LogWatchStates states, Options options, Consumer<String> out) {
        this.dir = dir;
        String k = dir.toString();
        this.dirKey = k.endsWith("/") ? k : k + "/";
        this.ingest = ingest;
        this.states = states;
        this.options = options;
        this.out = out;
    }

    /** Scans until {@code stop} says so, every {@link Options#interval}; one summary line per scan. */
    public void run(BooleanSupplier stop) throws InterruptedException {
        run(stop, s -> { });
    }

    /** As {@link #run(BooleanSupplier)}, handing each scan's counts to {@code scanned} too (the server's metrics). */
    public void run(BooleanSupplier stop, Consumer<Scan> scanned) throws InterruptedException {
        while (!stop.getAsBoolean()) {
            long t0 = System.nanoTime();
            Scan s = scan();
            out.accept(s.line());
            scanned.accept(s);
            long waitMs = options.interval().toMillis() - (System.nanoTime() - t0) / 1_000_000;
            long until = System.currentTimeMillis() + Math.max(0, waitMs);
            while (!stop.getAsBoolean() && System.currentTimeMillis() < until) {
                Thread.sleep(Math.min(200, Math.max(1, until - System.currentTimeMillis())));
            }
        }
        close();
    }

    /** Gives up the claims on the logs kept open (another watcher takes them over at once). */
    public void close() {
        try {
            states.release(new ArrayList<>(open.keySet()));
        } catch (SQLException e) {
            out.accept("warning: could not release the claims on " + open.size() + " log(s): "
                    + DatabaseErrors.reason(e) + "; they expire after " + options.lease().toSeconds() + " s");
        }
        open.clear();
    }

    /** One scan. Never throws: a directory or database problem is the scan's error line, the next scan retries. */
    public Scan scan() {
        int number = ++scans;
        long t0 = System.nanoTime();
        Counts n = new Counts();
        try {
            if (!loaded) {
                List<State> stored = new ArrayList<>(states.load(dirKey).values());
                // the directory itself may be a Databricks rollover folder, stored under its own name
                State self = states.load(dir.toString()).get(dir.toString());
                if (self != null) {
                    stored.add(self);
                }
                for (State s : stored) {
                    seen.put(s.key(), new Seen(s.size(), s.modified(), s.status() == Status.RUNNING, s.status(), -1,
                            s.partIndex()));
                }
                loaded = true;
            }
            renewClaims();
            List<LogDirectory.Entry> entries;
            try {
                entries = LogDirectory.list(dir);
            } catch (IOException e) {
                return n.scan(number, t0, "cannot list " + LogLocations.mask(dir.toString()) + ": "
                        + LogLocations.mask(e.getMessage()) + "; trying again next scan");
            }
            n.logs = entries.size();
            for (LogDirectory.Entry e : entries) {
                visit(e, n);
            }
        } catch (DatabaseLost e) {
            return n.scan(number, t0, "the database is not answering (" + e.getMessage() + "); trying again next scan");
        } catch (SQLException e) {
            return n.scan(number, t0, "the database is not answering (" + DatabaseErrors.reason(e)
                    + "); trying again next scan");
        }
        return n.scan(number, t0, null);
    }

    private final class Counts {
        int logs;
        int newLogs;
        int grown;
        int finished;
        int unchanged;
        int settling;
        int failed;
        int claimedElsewhere;
        long events;

        Scan scan(int number, long t0, String error) {
            int running = 0;
            for (Seen s : seen.values()) {
                if (s.status() == Status.RUNNING && s.inProgress()) {
                    running++;
                }
            }
            return new Scan(number, logs, newLogs, grown, finished, unchanged, settling, failed, claimedElsewhere,
                    running, open.size(), events, (System.nanoTime() - t0) / 1e9, error);
        }
    }

    private void renewClaims() throws SQLException {
        if (open.isEmpty()) {
            return;
        }
        Set<String> kept = new HashSet<>(states.renew(new ArrayList<>(open.keySet())));
        for (Iterator<String> it = open.keySet().iterator(); it.hasNext(); ) {
            String key = it.next();
            if (!kept.contains(key)) {
                it.remove(); // the lease ran out and another watcher has the log now
            }
        }
    }

    private void visit(LogDirectory.Entry e, Counts n) throws SQLException, DatabaseLost {
        Seen before = seen.get(e.key());
        EventLogSource source;
        long size;
        long modified;
        boolean inProgress;
        if (e.rollover() != null) {
            source = e.rollover(); // read whole each time, so never in progress: the tail reads it to its end
            size = e.size();
            modified = e.modified();
            inProgress = false;
        } else if (e.rolling()) {
            if (before != null && before.settled() && before.dirModified() == e.modified()) {
                n.unchanged++; // a finished rolling log whose directory did not change: not even listed
                return;
            }
            LogDirectory.RollingState r = LogDirectory.rolling(e.path(), w -> warnOnce(e.key(), w));
            if (r == null) {
                return;
            }
            source = r.source();
            size = r.size();
            modified = r.modified();
            inProgress = source.inProgress();
        } else {
            source = EventLogSource.ofFile(e.path());
            size = e.size();
            modified = e.modified();
            inProgress = e.inProgress();
        }
        if (before != null && before.size() == size && before.modified() == modified
                && before.inProgress() == inProgress) {
            if (e.rolling() && before.dirModified() != e.modified()) {
                seen.put(e.key(), new Seen(size, modified, inProgress, before.status(), e.modified(),
                        before.parts()));
            }
            n.unchanged++;
            return;
        }
        if (e.rollover() != null && before != null && !rolloverReady(e, before)) {
            n.settling++;
            return;
        }
        if (before == null && !e.rolling()) {
            String why = LogDirectory.whyNotAnEventLog(e.path());
            if (why != null) {
                warnOnce(e.key(), LogLocations.mask(e.path().toString()) + ": skipped, " + why);
                seen.put(e.key(), new Seen(size, modified, inProgress, Status.UNREADABLE, e.modified(), 0));
                return;
            }
        }
        Optional<State> claimed = states.claim(e.key());
        if (claimed.isEmpty()) {
            n.claimedElsewhere++;
            return;
        }
        State row = claimed.get();
        if (row.settledAt(size, modified) && !inProgress) {
            // another watcher (or this one before a restart) read it to its end as it is now
            states.release(List.of(e.key()));
            seen.put(e.key(), new Seen(size, modified, false, row.status(), e.modified(), row.partIndex()));
            n.unchanged++;
            return;
        }
        read(e, source, size, modified, inProgress, before, row, n);
    }

    private void read(LogDirectory.Entry e, EventLogSource source, long size, long modified, boolean inProgress,
                      Seen before, State row, Counts n) throws SQLException, DatabaseLost {
        String key = e.key();
        String shown = LogLocations.mask(source.path().toString());
        Open o = open.get(key);
        if (o != null && o.tail.mustRestart(source, source.rolling() ? -1 : size)) {
            out.accept(shown + ": rewritten since it was last read; reading it again from its start");
            open.remove(key);
            o = null;
        }
        boolean fresh = o == null;
        if (fresh) {
            o = new Open(options.recorder(), ingest, p -> warnOnce(key + p, "warning: " + LogLocations.mask(p)));
        }
        long eventsBefore = o.events;
        try {
            o.tail.readNew(source);
        } catch (RuntimeException ex) {
            // the reader contains everything a log can hold; this is a bug, and it costs this log only
            n.failed++;
            out.accept(shown + ": cannot read it: " + ex.getClass().getSimpleName() + ": "
                    + LogLocations.mask(String.valueOf(ex.getMessage())));
            states.save(new State(key, Status.UNREADABLE, null, null, size, modified, -1, 0, 0, 0), true);
            open.remove(key);
            seen.put(key, new Seen(size, modified, inProgress, Status.UNREADABLE, e.modified(), 0));
            return;
        }
        long gained = o.events - eventsBefore;
        n.events += gained;
        boolean finished = o.tail.finished();
        AppSnapshot s = o.recorder.snapshot();
        boolean hasApp = !s.appIdIsPlaceholder() || s.eventCount() > 0 && s.startTime() > 0;
        String what;
        Status status;
        if (!hasApp) {
            status = finished ? Status.UNREADABLE : Status.RUNNING;
            what = finished ? "no Spark application events; skipped" : "no application start yet";
            if (finished) {
                n.failed++;
            }
        } else {
            IngestResult r = ingest.ingest(s);
            if (r.databaseUnavailable()) {
                throw new DatabaseLost(r.reason());
            }
            if (r.stored()) {
                o.reading.written(s); // what it held is stored: completed entities past the windows may leave
            }
            status = finished ? Status.DONE : Status.RUNNING;
            what = s.appId() + " " + (s.complete() ? "COMPLETE" : e.rollover() != null ? "no ApplicationEnd yet"
                    : finished ? "ended without ApplicationEnd" : "RUNNING") + ", " + outcome(r);
            if (r.outcome() == IngestResult.Outcome.FAILED) {
                n.failed++;
            }
        }
        if (before == null && row.status() == Status.NEW) {
            n.newLogs++;
        } else if (!finished || gained > 0) {
            n.grown++;
        }
        if (finished) {
            n.finished++;
        }
        states.save(new State(key, status, hasApp ? s.appId() : null, hasApp ? s.attemptId() : null, size, modified,
                o.tail.part(), o.tail.bytesInPart(), o.tail.linesInPart(), o.events), finished);
        seen.put(key, new Seen(size, modified, inProgress && !finished, status, e.modified(), o.tail.part()));
        if (finished) {
            open.remove(key);
        } else {
            open.put(key, o);
            closeOldestBeyondLimit(key);
        }
        out.accept(String.format(Locale.ROOT, "%s: %s (%s%,d events%s)", shown, what, fresh ? "" : "+", gained,
                fresh ? "" : ", " + String.format(Locale.ROOT, "%,d", o.events) + " in all"));
    }

    /**
     * Whether a Databricks rollover that changed since it was read is read again now: a new rolled file appeared
     * (the tail numbers a rollover's files by their place, so its last part is how many it had), or its files have
     * not been written for a whole scan interval. Reading it at every scan while its current file grows would read
     * the whole application again each time.
     */
    private boolean rolloverReady(LogDirectory.Entry e, Seen before) {
        return e.rollover().parts().size() > before.parts()
                || System.currentTimeMillis() - e.modified() >= options.interval().toMillis();
    }

    private static String outcome(IngestResult r) {
        return switch (r.outcome()) {
            case WRITTEN -> "stored";
            case UNCHANGED -> "unchanged";
            case SKIPPED_STALE -> "not replaced: the database holds a newer snapshot of it";
            default -> "not stored: " + r.reason();
        };
    }

    /** Bounded memory: past the limit the log that grew longest ago is closed (and its claim given up). */
    private void closeOldestBeyondLimit(String keep) throws SQLException {
        while (open.size() > options.maxOpenLogs()) {
            Iterator<Map.Entry<String, Open>> it = open.entrySet().iterator();
            Map.Entry<String, Open> oldest = it.next();
            if (oldest.getKey().equals(keep)) {
                break;
            }
            // when it grows again, it is claimed and read again from its start
            it.remove();
            states.release(List.of(oldest.getKey()));
        }
    }

    private void warnOnce(String key, String message) {
        if (warnedOnce.size() < 100_000 && warnedOnce.add(key + "\n" + message)) {
            out.accept(message.startsWith("warning: ") ? message : "warning: " + message);
        }
    }

    /** Logs kept open now (tests). */
    int openLogs() {
        return open.size();
    }
}
