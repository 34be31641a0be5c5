package io.sparkscope.store.ingest;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.FetchState;
import io.sparkscope.store.PreviousRuns;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one way an application snapshot gets into the database, whoever brings it: the listener, {@code import} of
 * event logs or of a spool, {@code fetch} from a History Server, {@code reanalyze}, and whatever comes next. For each
 * snapshot, in this order:
 * <ol>
 *   <li>the heuristics (or findings the caller computed already);</li>
 *   <li>the Regression finding against the stored previous runs of the same application ({@link PreviousRuns});</li>
 *   <li>one write transaction of snapshot and findings ({@link SnapshotWriter}); a snapshot older than the stored
 *       one is skipped;</li>
 *   <li>when the run is older than runs stored before it, the Regression finding of those later runs is computed
 *       again, so what is stored does not depend on the order runs arrived in;</li>
 *   <li>the {@code onWritten} hook (webhook notifications) for a COMPLETE run whose write changed something.</li>
 * </ol>
 * It never throws for a database problem: the {@link IngestResult} says what happened, and whether the database is
 * gone ({@link IngestResult.Outcome#DATABASE_UNAVAILABLE}: stop, retry later) or refused only this application
 * ({@link IngestResult.Outcome#FAILED}: report it, go on).
 *
 * <pre>{@code
 * IngestService ingest = IngestService.builder(dataSource)
 *         .heuristics(diagnoser::diagnose)
 *         .regressionFactor(1.5)
 *         .onWritten(notifier::notifyFinished)
 *         .build();
 * IngestResult result = ingest.ingest(snapshot);
 * }</pre>
 *
 * <p>Safe to call from several threads at once; the heuristics are called one at a time, so they need not be.
 * Writers in different processes (a listener and a fetch) storing runs of one application at the same moment can
 * still each miss the other in their Regression findings; {@code reanalyze} settles that.
 */
public final class IngestService {
    private static final Logger LOG = LoggerFactory.getLogger(IngestService.class);

    public static final double DEFAULT_REGRESSION_FACTOR = RegressionCheck.DEFAULT_LOW;

    /** When a snapshot replaces the stored one of the same application attempt. */
    public enum Replace {
        /**
         * Unless the stored one is newer: more events, or complete while this one is not. A late retry, a stale
         * spool file or a second copy of a log with fewer events never rolls the database back.
         */
        NEWER_ONLY,
        /**
         * As {@link #NEWER_ONLY}, except that a complete snapshot replaces a stored one that is not complete even with
         * fewer events: a History Server's picture of a finished application over what a listener that died left.
         */
        COMPLETE_OVER_RUNNING
    }

    private final DataSource dataSource;
    private final Function<AppSnapshot, List<Finding>> heuristics;
    private final double regressionFactor;
    private final int previousRuns;
    private final Replace replace;
    private final BiConsumer<AppSnapshot, List<Finding>> onWritten;
    private final Consumer<String> warnings;
    private final SnapshotWriter writer;
    private final Object heuristicsLock = new Object();
    private final Object[] groupLocks = new Object[32];

    private IngestService(Builder b) {
        this.dataSource = b.dataSource;
        this.heuristics = b.heuristics;
        this.regressionFactor = b.regressionFactor;
        this.previousRuns = b.previousRuns;
        this.replace = b.replace;
        this.onWritten = b.onWritten;
        this.warnings = b.warnings;
        this.writer = b.writer;
        for (int i = 0; i < groupLocks.length; i++) {
            groupLocks[i] = new Object();
        }
    }

    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** Runs the heuristics given to the builder, then stores snapshot and findings. */
    public IngestResult ingest(AppSnapshot snapshot) {
        if (heuristics == null) {
            throw new IllegalStateException("no heuristics given to the builder: use ingest(snapshot, findings)");
        }
        List<Finding> findings;
        try {
            synchronized (heuristicsLock) {
                findings = heuristics.apply(snapshot);
            }
        } catch (RuntimeException e) {
            return new IngestResult(key(snapshot), IngestResult.Outcome.FAILED, List.of(), Optional.empty(),
                    List.of(), "the heuristics failed: " + DatabaseErrors.reason(e));
        }
        return ingest(snapshot, findings);
    }

    /**
     * Stores snapshot and findings the caller has already computed (the listener diagnoses every snapshot it
     * publishes); the Regression finding is added here, any in {@code heuristicFindings} replaced.
     */
    public IngestResult ingest(AppSnapshot snapshot, List<Finding> heuristicFindings) {
        AppKey app = key(snapshot);
        if (app.appId().isEmpty()) {
            return new IngestResult(app, IngestResult.Outcome.FAILED, List.of(), Optional.empty(), List.of(),
                    "no application id (no SparkListenerApplicationStart with an \"App ID\")");
        }
        PreviousRuns.Run now = PreviousRuns.Run.of(snapshot);
        if (!now.comparable()) {
            return store(app, snapshot, now, heuristicFindings);
        }
        // Two runs of one application stored at once (fetch's threads) could each miss the other: the earlier one
        // not yet committed when the later is compared, the later not yet committed when the earlier looks for the
        // runs after it. In this process they take turns; runs of other applications do not wait.
        synchronized (groupLocks[Math.floorMod(now.group().hashCode(), groupLocks.length)]) {
            return store(app, snapshot, now, heuristicFindings);
        }
    }

    private IngestResult store(AppKey app, AppSnapshot snapshot, PreviousRuns.Run now, List<Finding> heuristicFindings) {
        Optional<PreviousRuns.Run> before = Optional.empty();
        Optional<Finding> regression = Optional.empty();
        // A running snapshot is compared with nothing and, written over another running one, is in nobody's set of
        // previous runs: the listener's periodic writes skip these reads.
        if (now.comparable()) {
            try (Connection c = dataSource.getConnection()) {
                before = PreviousRuns.stored(c, app.appId(), app.attemptId());
                regression = PreviousRuns.regression(c, snapshot, regressionFactor, previousRuns);
            } catch (SQLException | RuntimeException e) {
                // A pool its owner closed is gone too: fetch closes it when it stops after losing the database,
                // while a worker may still be storing the next application.
                if (DatabaseErrors.unavailable(e) || dataSource instanceof HikariDataSource h && h.isClosed()) {
                    return IngestResult.failed(app, e);
                }
                warnings.accept(app + ": cannot compare with previous runs (" + DatabaseErrors.reason(e)
                        + "); stored without a Regression finding");
            }
        }
        List<Finding> findings = PreviousRuns.withRegression(heuristicFindings == null ? List.of() : heuristicFindings,
                regression);
        WriteResult written;
        try {
            written = write(snapshot, findings);
        } catch (SQLException | RuntimeException e) {
            return IngestResult.failed(app, e);
        }
        if (written.outcome() == WriteResult.Outcome.OTHER_APPLICATION) {
            return new IngestResult(app, IngestResult.Outcome.FAILED, List.of(), Optional.empty(), List.of(),
                    otherApplication(app, snapshot));
        }
        if (!written.written()) {
            return new IngestResult(app, IngestResult.Outcome.SKIPPED_STALE, List.of(), Optional.empty(), List.of(),
                    null);
        }
        if (!written.changed()) {
            return new IngestResult(app, IngestResult.Outcome.UNCHANGED, findings, regression, List.of(), null);
        }
        boolean inOthersSets = now.comparable() || before.map(PreviousRuns.Run::comparable).orElse(false);
        List<AppKey> later = !inOthersSets || before.equals(Optional.of(now)) ? List.of()
                : updateLaterRuns(app, before, now);
        if (snapshot.complete()) {
            try {
                onWritten.accept(snapshot, findings);
            } catch (RuntimeException e) {
                warnings.accept(app + ": after-write hook failed: " + DatabaseErrors.reason(e));
            }
        }
        return new IngestResult(app, IngestResult.Outcome.WRITTEN, findings, regression, later, null);
    }

    /**
     * Runs the heuristics again over a stored application (after the thresholds or the regression factor changed):
     * its stored snapshot goes the same way as a new one.
     */
    public IngestResult reingest(AppKey app) {
        Optional<AppSnapshot> snapshot;
        try {
            snapshot = SnapshotReader.read(dataSource, app.appId(), app.attemptId());
        } catch (SQLException | RuntimeException e) {
            return IngestResult.failed(app, e);
        }
        if (snapshot.isEmpty()) {
            return new IngestResult(app, IngestResult.Outcome.FAILED, List.of(), Optional.empty(), List.of(),
                    "no longer stored");
        }
        return ingest(snapshot.get());
    }

    private WriteResult write(AppSnapshot s, List<Finding> findings) throws SQLException {
        WriteResult w = writer.write(dataSource, s, findings);
        if (w.outcome() == WriteResult.Outcome.SKIPPED_STALE && replace == Replace.COMPLETE_OVER_RUNNING && s.complete()
                && !FetchState.storedComplete(dataSource, List.of(s.appId())).contains(FetchState.key(s.appId(),
                s.attemptId()))) {
            w = writer.overwrite(dataSource, s, findings);
        }
        return w;
    }

    /** Why a snapshot was refused because its id and attempt already stand for another application, in one line. */
    static String otherApplication(AppKey app, AppSnapshot s) {
        return "the database already holds another application as " + app + " (it started at another time than "
                + "this one, " + java.time.Instant.ofEpochMilli(s.startTime()) + "); one id is one application, the "
                + "two are not merged: give this one its own spark.app.id, or prune the stored one first";
    }

    /**
     * The Regression finding of the later runs whose previous runs now include (or no longer include) this one,
     * computed again and written with their other stored findings unchanged. A failure here costs only those
     * findings (the run itself is stored), with a warning.
     */
    private List<AppKey> updateLaterRuns(AppKey app, Optional<PreviousRuns.Run> before, PreviousRuns.Run now) {
        List<AppKey> updated = new ArrayList<>();
        try {
            List<PreviousRuns.Affected> affected;
            try (Connection c = dataSource.getConnection()) {
                affected = PreviousRuns.laterRunsAffected(c, before, now, regressionFactor, previousRuns);
            }
            SnapshotReader reader = new SnapshotReader(dataSource);
            for (PreviousRuns.Affected a : affected) {
                AppKey later = new AppKey(a.run().appId(), a.run().attemptId());
                Optional<AppSnapshot> s = reader.read(later.appId(), later.attemptId());
                if (s.isEmpty()) {
                    continue;
                }
                List<Finding> findings = new ArrayList<>();
                for (Finding f : reader.findings(later.appId(), later.attemptId())) {
                    if (!RegressionCheck.HEURISTIC.equals(f.heuristic())) {
                        findings.add(f);
                    }
                }
                Optional<Finding> regression = a.regression();
                if (regression.isPresent()) {
                    // again on the whole snapshot, so the finding also says what changed against the run before it
                    try (Connection c = dataSource.getConnection()) {
                        regression = PreviousRuns.regression(c, s.get(), regressionFactor, previousRuns);
                    }
                }
                findings.addAll(regression.stream().toList());
                if (writer.write(dataSource, s.get(), findings).changed()) {
                    updated.add(later);
                }
            }
        } catch (SQLException | RuntimeException e) {
            warnings.accept(app + ": the Regression finding of later runs of '" + now.group()
                    + "' could not be updated (" + DatabaseErrors.reason(e) + "); run reanalyze to do it");
        }
        return updated;
    }

    private static AppKey key(AppSnapshot s) {
        return new AppKey(s.appId() == null ? "" : s.appId(), s.attemptId());
    }

    public static final class Builder {
        private final DataSource dataSource;
        private Function<AppSnapshot, List<Finding>> heuristics;
        private double regressionFactor = DEFAULT_REGRESSION_FACTOR;
        private int previousRuns = PreviousRuns.DEFAULT_LIMIT;
        private Replace replace = Replace.NEWER_ONLY;
        private BiConsumer<AppSnapshot, List<Finding>> onWritten = (s, f) -> { };
        private Consumer<String> warnings = w -> LOG.warn("Sparkscope: {}", w);
        private SnapshotWriter writer = new SnapshotWriter();

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /** The heuristics {@link #ingest(AppSnapshot)} runs, e.g. {@code diagnoser::diagnose}. */
        public Builder heuristics(Function<AppSnapshot, List<Finding>> heuristics) {
            this.heuristics = Objects.requireNonNull(heuristics, "heuristics");
            return this;
        }

        /** A COMPLETE run this many times slower than the median of its previous runs gets a Regression finding. */
        public Builder regressionFactor(double factor) {
            if (!(factor >= 1) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("the regression factor must be a number of at least 1, got "
                        + factor);
            }
            this.regressionFactor = factor;
            return this;
        }

        /** How many previous runs a run is compared with (default {@link PreviousRuns#DEFAULT_LIMIT}). */
        public Builder previousRuns(int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("previous runs must be at least 1, got " + limit);
            }
            this.previousRuns = limit;
            return this;
        }

        public Builder replace(Replace replace) {
            this.replace = Objects.requireNonNull(replace, "replace");
            return this;
        }

        /**
         * Called after a COMPLETE snapshot was written and the write changed something, with the findings stored
         * (Regression included); on the caller's thread, so it must not block. Not called for an unchanged rewrite,
         * so importing a log twice notifies once.
         */
        public Builder onWritten(BiConsumer<AppSnapshot, List<Finding>> hook) {
            this.onWritten = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /** Where warnings go (one line each; default the SLF4J log). */
        public Builder warnings(Consumer<String> warnings) {
            this.warnings = Objects.requireNonNull(warnings, "warnings");
            return this;
        }

        /** The writer (tests and benchmarks choose its batch and COPY thresholds). */
        public Builder writer(SnapshotWriter writer) {
            this.writer = Objects.requireNonNull(writer, "writer");
            return this;
        }

        public IngestService build() {
            return new IngestService(this);
        }
    }
}
