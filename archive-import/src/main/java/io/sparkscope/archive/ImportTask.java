package io.sparkscope.archive;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.archive.LogOutcome.Kind;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.eventlog.LogDirectory;
import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.store.LogWatchStates.State;
import io.sparkscope.store.LogWatchStates.Status;
import io.sparkscope.store.PreviousRuns;
import io.sparkscope.store.StoreDataSources;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one Spark task does with its share of the archive: each log through the same reader, recorder and
 * {@link IngestService} as {@code import}, over a small pool of its own ({@link TaskSettings#poolSize}), and the
 * log's {@code log_watch} row once it is stored to its end, so that a rerun, a retried task or a watcher started
 * later does not read it again. Claims are taken as a watcher takes them, so a watcher reading a log at this moment
 * keeps it.
 */
final class ImportTask implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ImportTask.class);

    /**
     * Whose claims these are: the same for every archive import, so a rerun after a crash takes over the claims a
     * dead task left at once instead of waiting for their lease.
     */
    static final String OWNER = "sparkscope-archive-import";
    private static final Duration LEASE = Duration.ofMinutes(10);

    private final TaskSettings settings;

    ImportTask(TaskSettings settings) {
        this.settings = settings;
    }

    /** The database was lost: this log and the task's remaining ones are not tried. */
    private static final class DatabaseLost extends Exception {
        private static final long serialVersionUID = 1L;

        DatabaseLost(String message) {
            super(message, null, false, false);
        }
    }

    List<LogOutcome> run(int task, List<LogRef> logs) {
        List<LogOutcome> out = new ArrayList<>(logs.size());
        long t0 = System.nanoTime();
        try (HikariDataSource ds = StoreDataSources.pooled(settings.url(), settings.user(), settings.password(),
                settings.poolSize(), 30_000);
             GroupLocks locks = settings.lockGroups() ? new GroupLocks(ds) : null) {
            Diagnoser diagnoser = settings.diagnoser();
            IngestService ingest = IngestService.builder(ds).heuristics(diagnoser::diagnose)
                    .regressionFactor(settings.regressionFactor())
                    .warnings(w -> LOG.warn("Sparkscope archive import: {}", LogLocations.mask(w))).build();
            LogWatchStates states = new LogWatchStates(ds, OWNER, LEASE);
            RecorderOptions options = settings.recorderOptions();
            String lost = null;
            for (LogRef log : logs) {
                if (lost != null) {
                    out.add(new LogOutcome(shown(log), Kind.NOT_TRIED, null, lost, 0, 0, task));
                    continue;
                }
                try {
                    out.add(one(task, log, ingest, diagnoser, states, locks, options));
                } catch (DatabaseLost e) {
                    lost = "the database was lost (" + e.getMessage() + ")";
                    out.add(new LogOutcome(shown(log), Kind.NOT_TRIED, null, lost, 0, 0, task));
                }
            }
        }
        long bytes = out.stream().mapToLong(LogOutcome::bytes).sum();
        LOG.info("Sparkscope archive import: task {} done: {} log(s), {} bytes read in {} ms", task, out.size(), bytes,
                (System.nanoTime() - t0) / 1_000_000);
        return out;
    }

    private LogOutcome one(int task, LogRef log, IngestService ingest, Diagnoser diagnoser, LogWatchStates states,
                           GroupLocks locks, RecorderOptions options) throws DatabaseLost {
        String shown = shown(log);
        Path path;
        try {
            path = LogLocations.resolve(log.location(), settings.hadoopConf());
        } catch (EventLogException e) {
            return new LogOutcome(shown, Kind.FAILED, null, LogLocations.mask(e.getMessage()), 0, 0, task);
        }
        Optional<State> row = database(() -> states.claim(log.key()));
        if (row.isEmpty()) {
            return new LogOutcome(shown, Kind.BUSY, null, "a watcher is reading it now", 0, 0, task);
        }
        boolean keepClaim = false;
        try {
            EventLogSource source;
            long size;
            long modified;
            if (log.rolling()) {
                LogDirectory.RollingState r = LogDirectory.rolling(path, w -> warn(w));
                EventLogSource rollover = r == null ? EventLogReader.databricksRollover(path) : null;
                if (r != null) {
                    source = r.source();
                    size = r.size();
                    modified = r.modified();
                } else if (rollover != null) { // a Databricks rollover directory, listed as one log
                    source = rollover;
                    long[] sizeAndModified = ArchiveListing.sizeAndModified(rollover.parts());
                    size = sizeAndModified[0];
                    modified = sizeAndModified[1];
                } else {
                    return new LogOutcome(shown, Kind.NOT_A_LOG, null,
                            "rolling event log directory without events_ files", 0, 0, task);
                }
            } else {
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(path, BasicFileAttributes.class);
                } catch (IOException e) {
                    return new LogOutcome(shown, Kind.FAILED, null, "cannot read it: "
                            + LogLocations.mask(String.valueOf(e.getMessage())), 0, 0, task);
                }
                size = a.size();
                modified = a.lastModifiedTime().toMillis();
                source = EventLogSource.ofFile(path);
            }
            boolean finished = !source.inProgress();
            if (finished && row.get().settledAt(size, modified)) {
                // stored to its end as it is now, by another run or a watcher, since the driver looked
                return row.get().status() == Status.UNREADABLE
                        ? new LogOutcome(shown, Kind.NOT_A_LOG, null, "found unreadable before", 0, 0, task)
                        : new LogOutcome(shown, Kind.STORED_ALREADY, row.get().appId(), null, 0, 0, task);
            }
            if (!log.rolling()) {
                // as import: a file that is no event log at all is left out with a warning, not a failure
                String why = LogDirectory.whyNotAnEventLog(path);
                if (why != null) {
                    warn(path + ": skipped, " + why);
                    save(states, new State(log.key(), Status.UNREADABLE, null, null, size, modified, -1, 0, 0, 0));
                    keepClaim = true;
                    return new LogOutcome(shown, Kind.NOT_A_LOG, null, why, 0, 0, task);
                }
            }
            EventLogAnalysis.Result result;
            try {
                // What leaves the recorder's windows is written on the way, so any log is read in bounded memory.
                result = EventLogAnalysis.analyze(source, options, diagnoser::diagnose,
                        changed -> ingest.ingest(changed, List.of()).stored(), this::warn);
            } catch (RuntimeException e) {
                // a reader or recorder bug on strange input costs this log only
                return new LogOutcome(shown, Kind.FAILED, null, "cannot read it: " + e.getClass().getSimpleName() + ": "
                        + LogLocations.mask(DatabaseErrors.reason(e)), size, 0, task);
            }
            if (result.unreadable() != null) {
                return new LogOutcome(shown, Kind.FAILED, null, LogLocations.mask(result.unreadable()), size, 0, task);
            }
            if (!result.hasApplication()) {
                return new LogOutcome(shown, Kind.FAILED, null, "no Spark application events", size, 0, task);
            }
            AppSnapshot s = result.snapshot();
            IngestResult r = store(s, result.findings(diagnoser::diagnose), ingest, locks);
            if (r.databaseUnavailable()) {
                throw new DatabaseLost(r.reason());
            }
            Kind kind = switch (r.outcome()) {
                case WRITTEN -> Kind.WRITTEN;
                case UNCHANGED -> Kind.UNCHANGED;
                case SKIPPED_STALE -> Kind.STALE;
                default -> Kind.FAILED;
            };
            if (r.stored() && finished) {
                save(states, new State(log.key(), Status.DONE, s.appId(), s.attemptId(), size, modified, -1, 0,
                        result.stats().lines(), s.eventCount()));
                keepClaim = true;
            }
            return new LogOutcome(shown, kind, s.appId(), kind == Kind.FAILED ? r.reason() : null, size,
                    r.stored() ? s.eventCount() : 0, task);
        } finally {
            if (!keepClaim) {
                release(states, log.key());
            }
        }
    }

    /** Stores one run, runs of the same job one at a time across tasks ({@link GroupLocks}). */
    private static IngestResult store(AppSnapshot s, List<Finding> findings, IngestService ingest, GroupLocks locks)
            throws DatabaseLost {
        String group = locks == null ? null : PreviousRuns.group(s);
        if (group == null) {
            return ingest.ingest(s, findings);
        }
        database(() -> {
            locks.lock(group);
            return null;
        });
        try {
            return ingest.ingest(s, findings);
        } finally {
            database(() -> {
                locks.unlock(group);
                return null;
            });
        }
    }

    /** Saved and released in one statement: the row says how far it was read, and nobody holds it now. */
    private static void save(LogWatchStates states, State s) throws DatabaseLost {
        database(() -> {
            states.save(s, true);
            return null;
        });
    }

    private static void release(LogWatchStates states, String key) {
        try {
            states.release(List.of(key));
        } catch (SQLException e) {
            // the claim runs out after its lease; a lost database is reported by what comes next
        }
    }

    private interface Sql<T> {
        T run() throws SQLException;
    }

    /** A database call; a database that is gone stops the task, any other refusal too (log_watch is ours). */
    private static <T> T database(Sql<T> call) throws DatabaseLost {
        try {
            return call.run();
        } catch (SQLException | RuntimeException e) {
            throw new DatabaseLost(DatabaseErrors.reason(e));
        }
    }

    private void warn(String message) {
        LOG.warn("Sparkscope archive import: {}", LogLocations.mask(message));
    }

    private static String shown(LogRef log) {
        return LogLocations.mask(log.location());
    }
}
