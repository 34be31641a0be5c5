package io.sparkscope.store;

import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.analysis.prediction.RunChanges;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageTotals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The previous COMPLETE runs of an application, as light rows (durations and task time from the application table,
 * no snapshots read), for the {@link RegressionCheck}.
 *
 * <p>The set a run is compared with depends only on what is stored, never on the order it was stored in: the last
 * {@code limit} COMPLETE runs of the same application that <em>started</em> before it, ties on the start time broken
 * by the natural key. When a run is stored that belongs to the set of runs stored earlier (an old log imported late),
 * {@link #laterRunsAffected} names the later runs whose Regression finding must be computed again.
 *
 * <p>"The same application" is the same job: runs with one {@link JobKey} (name, user, program and master kind, or the
 * application's {@code spark.sparkscope.jobKey}); interactive sessions have none and are compared with nothing.
 * {@link #group} and {@link #GROUP_COLUMN} are the only places that say so.
 */
public final class PreviousRuns {
    public static final int DEFAULT_LIMIT = 10;

    /** The application column runs are grouped by; {@link #group} gives the same value for a snapshot. */
    private static final String GROUP_COLUMN = "job_key";

    private static final String RUN_COLUMNS = "app_id, attempt_id, start_time, duration_ms, total_run_time_ms,"
            + " input_bytes, output_bytes, shuffle_read_bytes, shuffle_write_bytes";

    private static final String BEFORE_SQL = "SELECT " + RUN_COLUMNS + " FROM application WHERE " + GROUP_COLUMN
            + " = ? AND status = 'COMPLETE' AND start_time < ?"
            + " ORDER BY start_time DESC, app_id COLLATE \"C\" DESC, attempt_id COLLATE \"C\" DESC LIMIT ?";

    private static final String AFTER_SQL = "SELECT " + RUN_COLUMNS + " FROM application WHERE " + GROUP_COLUMN
            + " = ? AND status = 'COMPLETE' AND start_time > ?"
            + " ORDER BY start_time, app_id COLLATE \"C\", attempt_id COLLATE \"C\" LIMIT ?";

    private static final String ONE_SQL = "SELECT " + RUN_COLUMNS + ", " + GROUP_COLUMN + ", status = 'COMPLETE'"
            + " FROM application WHERE app_id = ? AND attempt_id = ?";
    private static final int ONE_GROUP = 10;

    /**
     * Newest first, as {@link #BEFORE_SQL} orders them: ties on the start time by app and attempt id, compared as
     * the "C" collation does (by code point, like {@link String#compareTo} for the ids Spark makes), never by the
     * order the runs were stored in.
     */
    static final Comparator<Run> NEWEST_FIRST = Comparator.comparingLong(Run::startTime)
            .thenComparing(Run::appId).thenComparing(r -> ApplicationRow.attemptKey(r.attemptId())).reversed();

    /**
     * One run as the regression check sees it.
     *
     * @param group      what groups runs of the same application ({@link #group})
     * @param taskTimeMs Σ executor run time over all stage attempts, as {@link RegressionCheck#taskTimeMs}
     * @param bytes      the data it read and wrote, as the application row's columns
     */
    public record Run(String appId, String attemptId, String group, long startTime, boolean complete, long durationMs,
                      long taskTimeMs, Bytes bytes) {
        public static Run of(AppSnapshot s) {
            // as the application row's total_run_time_ms, which the stored runs are read from; the run's totals, as a
            // long-running application's snapshot lists only its recent stages
            StageTotals m = s.totals().metrics();
            return new Run(s.appId(), s.attemptId(), PreviousRuns.group(s), s.startTime(), s.complete(), s.durationMs(),
                    m.get(TaskMetric.EXECUTOR_RUN_TIME), new Bytes(m.get(TaskMetric.INPUT_BYTES),
                    m.get(TaskMetric.OUTPUT_BYTES), m.shuffleReadBytes(), m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN)));
        }

        Run in(String ofGroup, boolean isComplete) {
            return new Run(appId, attemptId, ofGroup, startTime, isComplete, durationMs, taskTimeMs, bytes);
        }

        public boolean sameApplicationAttempt(Run other) {
            return appId.equals(other.appId) && Objects.equals(attemptId, other.attemptId);
        }

        /** Whether this run has previous runs, and can be one: complete, and of a known application. */
        public boolean comparable() {
            return complete && group != null;
        }

        RegressionCheck.Run check() {
            return new RegressionCheck.Run(appId, attemptId, durationMs, taskTimeMs, bytes.input(), bytes.output(),
                    bytes.shuffleRead(), bytes.shuffleWrite());
        }
    }

    /** Bytes a run read from its sources, wrote to its sinks, and shuffled. */
    public record Bytes(long input, long output, long shuffleRead, long shuffleWrite) {
    }

    /**
     * A later run whose set of previous runs changed.
     *
     * @param regression its Regression finding against the set as stored now (empty: it has none any more)
     */
    public record Affected(Run run, Optional<Finding> regression) {
    }

    private PreviousRuns() {
    }

    /** What groups the runs of one job: its job key (null, an interactive session: compared with nothing). */
    public static String group(AppSnapshot s) {
        return JobKey.of(s).value();
    }

    /**
     * The last {@code limit} COMPLETE runs of {@code group} that started before {@code startTime}, newest first.
     */
    public static List<Run> before(Connection c, String group, long startTime, int limit) throws SQLException {
        return runs(c, BEFORE_SQL, group, startTime, limit);
    }

    /** The first {@code limit} COMPLETE runs of {@code group} that started after {@code startTime}, oldest first. */
    static List<Run> after(Connection c, String group, long startTime, int limit) throws SQLException {
        return runs(c, AFTER_SQL, group, startTime, limit);
    }

    /** The stored light row of one application attempt, if stored. */
    public static Optional<Run> stored(Connection c, String appId, String attemptId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(ONE_SQL)) {
            st.setString(1, appId);
            st.setString(2, ApplicationRow.attemptKey(attemptId));
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(run(rs).in(rs.getString(ONE_GROUP), rs.getBoolean(ONE_GROUP + 1)));
            }
        }
    }

    private static List<Run> runs(Connection c, String sql, String group, long startTime, int limit)
            throws SQLException {
        List<Run> runs = new ArrayList<>();
        if (group == null || limit <= 0) {
            return runs;
        }
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, group);
            st.setLong(2, startTime);
            st.setInt(3, limit);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    runs.add(run(rs).in(group, true));
                }
            }
        }
        return runs;
    }

    private static Run run(ResultSet rs) throws SQLException {
        String attempt = rs.getString(2);
        return new Run(rs.getString(1), attempt == null || attempt.isEmpty() ? null : attempt, null, rs.getLong(3),
                false, rs.getLong(4), rs.getLong(5), new Bytes(rs.getLong(6), rs.getLong(7), rs.getLong(8),
                rs.getLong(9)));
    }

    /**
     * The Regression finding of a COMPLETE snapshot against its stored predecessors; empty for a running snapshot,
     * one without a group, or one not slower by {@code lowFactor} (in all, and per byte of input when known). HIGH at
     * {@link RegressionCheck#highFactorFor}. A Regression says what changed against the newest previous run, whose
     * snapshot is read only then.
     */
    public static Optional<Finding> regression(Connection c, AppSnapshot run, double lowFactor, int limit)
            throws SQLException {
        Run r = Run.of(run);
        if (!r.comparable()) {
            return Optional.empty();
        }
        List<Run> previous = before(c, r.group(), r.startTime(), limit);
        RegressionCheck.Verdict v = verdict(r, previous, lowFactor);
        if (v.outcome() != RegressionCheck.Outcome.REGRESSION) {
            return Optional.empty();
        }
        Run newest = previous.get(0);
        RunChanges changes = SnapshotReader.readIn(c, newest.appId(), newest.attemptId())
                .map(baseline -> RunChanges.between(baseline, run)).orElse(null);
        return v.finding(JobKey.displayName(r.group()), changes);
    }

    /** The check itself, on light rows; {@code previous} newest first, as {@link #before} gives them. */
    static Optional<Finding> regression(Run run, List<Run> previous, double lowFactor) {
        return verdict(run, previous, lowFactor).finding(JobKey.displayName(run.group()), null);
    }

    private static RegressionCheck.Verdict verdict(Run run, List<Run> previous, double lowFactor) {
        List<RegressionCheck.Run> runs = run.comparable() ? previous.stream().map(Run::check).toList() : List.of();
        return RegressionCheck.judge(run.check(), runs, lowFactor, RegressionCheck.highFactorFor(lowFactor));
    }

    /**
     * {@code findings} with {@code regression} in place of any Regression finding it holds (at the end, where a
     * fresh analysis puts it), or {@code findings} itself when that changes nothing.
     */
    public static List<Finding> withRegression(List<Finding> findings, Optional<Finding> regression) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            if (!RegressionCheck.HEURISTIC.equals(f.heuristic())) {
                out.add(f);
            }
        }
        if (regression.isEmpty() && out.size() == findings.size()) {
            return findings;
        }
        regression.ifPresent(out::add);
        return List.copyOf(out);
    }

    /**
     * The later runs whose Regression finding changed because {@code now} was just stored where {@code old} was
     * before (empty: it was not stored): the first {@code 2 × limit} COMPLETE runs of its group that started after
     * it (a run further on has {@code limit} closer predecessors, so its set cannot contain this one; the margin
     * covers runs that share a start time). Each is checked against its previous runs as stored now and as they were
     * with {@code old}; only those where the two results differ are returned.
     */
    public static List<Affected> laterRunsAffected(Connection c, Optional<Run> old, Run now, double lowFactor,
                                                   int limit) throws SQLException {
        List<Affected> out = new ArrayList<>();
        if (!now.comparable() && old.map(o -> !o.comparable()).orElse(true)) {
            return out;
        }
        String group = now.group() != null ? now.group() : old.get().group();
        long start = Math.min(now.startTime(), old.map(Run::startTime).orElse(now.startTime()));
        for (Run later : after(c, group, start, 2 * limit)) {
            if (later.sameApplicationAttempt(now)) {
                continue;
            }
            List<Run> stored = before(c, group, later.startTime(), limit + 1);
            List<Run> current = stored.subList(0, Math.min(limit, stored.size()));
            List<Run> previously = new ArrayList<>();
            for (Run r : stored) {
                if (!r.sameApplicationAttempt(now)) {
                    previously.add(r);
                }
            }
            old.filter(o -> o.comparable() && group.equals(o.group()) && o.startTime() < later.startTime())
                    .ifPresent(previously::add);
            previously.sort(NEWEST_FIRST);
            List<Run> then = previously.subList(0, Math.min(limit, previously.size()));
            if (then.equals(current)) {
                continue;
            }
            Optional<Finding> before = regression(later, then, lowFactor);
            Optional<Finding> after = regression(later, current, lowFactor);
            if (!before.equals(after)) {
                out.add(new Affected(later, after));
            }
        }
        return out;
    }
}
