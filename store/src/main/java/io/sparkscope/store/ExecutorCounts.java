package io.sparkscope.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The {@code executor_counts} row of an application: how many executors it has, how many were removed, whether any
 * measured peak memory, and whether their positions are exactly 0 … n-1. The executors tab and Spark's executor lists
 * show these on every page; kept here by the writer they cost one row instead of an aggregate over every executor
 * (an elastic application may have a hundred thousand).
 *
 * @param denseOrd the positions ({@code ord}) are 0 … total-1, each once: the executor at offset N of all of them
 *                 in the order they appeared is the one at position N
 */
public record ExecutorCounts(long total, long removed, boolean anyPeaks, boolean denseOrd) {
    /** The figures over the stored executor rows of application {@code ?} (bound twice: the second is the filter). */
    private static final String AGGREGATE = "SELECT ?, count(*), count(*) FILTER (WHERE remove_time >= 0),"
            // all zeros is what Spark records for an executor whose tasks carried no sample: nothing measured
            + " coalesce(bool_or(peak_metrics <> '{}'::jsonb AND jsonb_path_exists(peak_metrics, '$.* ? (@ != 0)')),"
            + " false), count(*) = count(DISTINCT ord) AND coalesce(min(ord), 0) = 0"
            + " AND coalesce(max(ord), -1) = count(*) - 1"
            + " FROM executor WHERE app_pk = ?";

    /**
     * Recounts from the stored executor rows, in the writer's transaction. The row is rewritten only when a figure
     * changed, so a write that changed nothing still counts as unchanged.
     */
    static void refresh(Connection c, long appPk) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO executor_counts AS s"
                + " (app_pk, total, removed, any_peaks, dense_ord) " + AGGREGATE
                + " ON CONFLICT (app_pk) DO UPDATE SET total = EXCLUDED.total, removed = EXCLUDED.removed,"
                + " any_peaks = EXCLUDED.any_peaks, dense_ord = EXCLUDED.dense_ord"
                + " WHERE (s.total, s.removed, s.any_peaks, s.dense_ord)"
                + " IS DISTINCT FROM (EXCLUDED.total, EXCLUDED.removed, EXCLUDED.any_peaks, EXCLUDED.dense_ord)")) {
            ps.setLong(1, appPk);
            ps.setLong(2, appPk);
            ps.executeUpdate();
        }
    }

    /**
     * The application's counts: its row, else the aggregate (an application stored before the rows were kept and
     * with no executor then has none: the migration that made them counted only applications with executors).
     */
    public static ExecutorCounts read(Connection c, long appPk) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT total, removed, any_peaks, dense_ord"
                + " FROM executor_counts WHERE app_pk = ?")) {
            ps.setLong(1, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new ExecutorCounts(rs.getLong(1), rs.getLong(2), rs.getBoolean(3), rs.getBoolean(4));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(AGGREGATE)) {
            ps.setLong(1, appPk);
            ps.setLong(2, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new ExecutorCounts(rs.getLong(2), rs.getLong(3), rs.getBoolean(4), rs.getBoolean(5));
            }
        }
    }
}
