package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's waste: the applications started in a window that wasted the most, and the window's totals. The
 * window's rows are found by the start-time index; the ranking weighs idle core-hours and unused GB-hours by what the
 * caller gives (the operator's prices, or core-hours alone when there are none), so the store never holds money.
 */
public final class WasteQuery {
    private final DataSource dataSource;

    public WasteQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** One of the most wasteful applications. */
    public record Wasteful(String appId, String attemptId, String name, String sparkUser, long startTime,
                           long durationMs, String worstSeverity, AppEfficiency efficiency) {
    }

    /**
     * @param computed          applications of the window with figures
     * @param notComputed       applications of the window stored before the figures existed (reanalyze fills them)
     * @param coreHoursWasted   Σ idle core-hours
     * @param gbHoursWasted     Σ unused GB-hours over the applications whose memory Spark measured
     * @param coreHoursAllocated Σ allocated core-hours
     * @param gbHoursAllocated  Σ allocated GB-hours
     */
    public record Totals(long computed, long notComputed, double coreHoursWasted, double gbHoursWasted,
                         double coreHoursAllocated, double gbHoursAllocated) {
    }

    public record Result(List<Wasteful> top, Totals totals) {
    }

    /**
     * @param from       applications started at or after this (epoch ms)
     * @param coreWeight weight of an idle core-hour in the ranking (≥ 0)
     * @param gbWeight   weight of an unused GB-hour (≥ 0; unmeasured memory weighs nothing)
     */
    public Result since(long from, double coreWeight, double gbWeight, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            List<Wasteful> top = new ArrayList<>();
            // The ranking reads the week from the index that carries the waste columns (V27) and visits the table
            // only for the rows it keeps.
            String rank = "core_hours_wasted * ? + coalesce(gb_hours_wasted, 0) * ? DESC, app_pk DESC";
            try (PreparedStatement ps = c.prepareStatement("SELECT app_id, attempt_id, name, spark_user, start_time,"
                    + " duration_ms, worst_severity, " + AppEfficiency.COLUMNS + " FROM application"
                    + " WHERE app_pk = ANY (ARRAY(SELECT app_pk FROM application"
                    + " WHERE start_time >= ? AND core_hours_wasted IS NOT NULL ORDER BY " + rank + " LIMIT ?))"
                    + " ORDER BY " + rank)) {
                ps.setLong(1, from);
                ps.setDouble(2, coreWeight);
                ps.setDouble(3, gbWeight);
                ps.setInt(4, limit);
                ps.setDouble(5, coreWeight);
                ps.setDouble(6, gbWeight);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String attempt = rs.getString("attempt_id");
                        top.add(new Wasteful(rs.getString("app_id"), attempt.isEmpty() ? null : attempt,
                                rs.getString("name"), rs.getString("spark_user"), rs.getLong("start_time"),
                                rs.getLong("duration_ms"), rs.getString("worst_severity"), AppEfficiency.read(rs)));
                    }
                }
            }
            Totals totals;
            try (PreparedStatement ps = c.prepareStatement("SELECT count(core_hours_wasted) AS computed,"
                    + " count(*) - count(core_hours_wasted) AS not_computed,"
                    + " coalesce(sum(core_hours_wasted), 0) AS core_wasted, coalesce(sum(gb_hours_wasted), 0) AS gb_wasted,"
                    + " coalesce(sum(core_hours_allocated), 0) AS core_allocated,"
                    + " coalesce(sum(gb_hours_allocated), 0) AS gb_allocated FROM application WHERE start_time >= ?")) {
                ps.setLong(1, from);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    totals = new Totals(rs.getLong("computed"), rs.getLong("not_computed"),
                            rs.getDouble("core_wasted"), rs.getDouble("gb_wasted"), rs.getDouble("core_allocated"),
                            rs.getDouble("gb_allocated"));
                }
            }
            return new Result(top, totals);
        }
    }
}
