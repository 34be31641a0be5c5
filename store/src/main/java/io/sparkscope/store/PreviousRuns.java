package io.sparkscope.store;

import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The previous COMPLETE runs of an application name, as light rows (durations and task time from the application
 * table, no snapshots read), for the {@link RegressionCheck} (issue 7, item 4).
 */
public final class PreviousRuns {
    public static final int DEFAULT_LIMIT = 10;

    private static final String SQL = "SELECT app_id, attempt_id, duration_ms, total_run_time_ms FROM application"
            + " WHERE name = ? AND status = 'COMPLETE' AND start_time < ? AND NOT (app_id = ? AND attempt_id = ?)"
            + " ORDER BY start_time DESC, app_pk DESC LIMIT ?";

    private PreviousRuns() {
    }

    /**
     * The last {@code limit} COMPLETE runs named {@code appName} that started before {@code startTime}, newest first,
     * excluding the run {@code (appId, attemptId)} itself.
     */
    public static List<RegressionCheck.Run> before(Connection c, String appName, long startTime, String appId,
                                                   String attemptId, int limit) throws SQLException {
        List<RegressionCheck.Run> runs = new ArrayList<>();
        if (appName == null || limit <= 0) {
            return runs;
        }
        try (PreparedStatement st = c.prepareStatement(SQL)) {
            st.setString(1, appName);
            st.setLong(2, startTime);
            st.setString(3, appId == null ? "" : appId);
            st.setString(4, attemptId == null ? "" : attemptId);
            st.setInt(5, limit);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String attempt = rs.getString(2);
                    runs.add(new RegressionCheck.Run(rs.getString(1), attempt == null || attempt.isEmpty() ? null
                            : attempt, rs.getLong(3), rs.getLong(4)));
                }
            }
        }
        return runs;
    }

    public static List<RegressionCheck.Run> before(DataSource ds, String appName, long startTime, String appId,
                                                   String attemptId, int limit) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return before(c, appName, startTime, appId, attemptId, limit);
        }
    }

    /**
     * The Regression finding for a COMPLETE snapshot against its stored predecessors; empty for a running snapshot,
     * one without a name, or one not slower by {@code lowFactor}. HIGH at {@link RegressionCheck#highFactorFor}.
     */
    public static Optional<Finding> regression(DataSource ds, AppSnapshot run, double lowFactor, int limit)
            throws SQLException {
        if (!run.complete() || run.appName() == null) {
            return Optional.empty();
        }
        List<RegressionCheck.Run> previous = before(ds, run.appName(), run.startTime(), run.appId(), run.attemptId(),
                limit);
        return RegressionCheck.check(RegressionCheck.Run.of(run), run.appName(), previous, lowFactor,
                RegressionCheck.highFactorFor(lowFactor));
    }

    /**
     * {@code findings} with the Regression finding added (any Regression finding already in it is replaced), or
     * {@code findings} unchanged when there is none.
     */
    public static List<Finding> withRegression(DataSource ds, AppSnapshot run, List<Finding> findings,
                                               double lowFactor, int limit) throws SQLException {
        Optional<Finding> r = regression(ds, run, lowFactor, limit);
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            if (!RegressionCheck.HEURISTIC.equals(f.heuristic())) {
                out.add(f);
            }
        }
        if (r.isEmpty() && out.size() == findings.size()) {
            return findings;
        }
        r.ifPresent(out::add);
        return List.copyOf(out);
    }
}
