package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.Severity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads stored findings back as the {@link Finding}s the heuristics produced (the writer's columns are
 * {@code Tables.FINDING}). Details come back equal as JSON; jsonb keeps its own key order, so a details map may list
 * its keys in another order than the heuristic did.
 */
public final class FindingRows {
    /** Every column of the finding table, for {@code SELECT … FROM finding f}. */
    static final String COLUMNS = Tables.FINDING.selectList();
    private static final String WITHOUT_DETAILS = withoutDetails(COLUMNS);

    private FindingRows() {
    }

    /** Findings of several applications in one statement (no N+1), by app_pk, each list in stored order. */
    public static Map<Long, List<Finding>> byApp(Connection c, Collection<Long> appPks) throws SQLException {
        return byApp(c, appPks, false);
    }

    /**
     * As {@link #byApp(Connection, Collection)}; {@code advisingOnly}: only the findings that advise a setting, without
     * their details (what following advice across runs reads: the advice, the impact, the heuristic; the details are
     * most of a finding's bytes and of the time to read it back).
     */
    public static Map<Long, List<Finding>> byApp(Connection c, Collection<Long> appPks, boolean advisingOnly)
            throws SQLException {
        Map<Long, List<Finding>> out = new HashMap<>();
        if (appPks.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, " + (advisingOnly ? WITHOUT_DETAILS : COLUMNS)
                + " FROM finding WHERE app_pk = ANY (?)" + (advisingOnly ? " AND advice IS NOT NULL" : "")
                + " ORDER BY app_pk, ord")) {
            ps.setArray(1, c.createArrayOf("bigint", appPks.toArray(new Long[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getLong("app_pk"), k -> new ArrayList<>()).add(read(rs));
                }
            }
        }
        return out;
    }

    private static String withoutDetails(String columns) {
        String details = "details::text AS details";
        if (!columns.contains(details)) {
            throw new IllegalStateException("the finding's select list no longer reads " + details + ": " + columns);
        }
        return columns.replace(details, "NULL::text AS details");
    }

    /** The finding on the result set's current row, by column name (rows from before V8 have no estimate). */
    static Finding read(ResultSet rs) throws SQLException {
        return new Finding(rs.getString("finding_id"), rs.getString("heuristic"),
                Severity.valueOf(rs.getString("severity")), rs.getString("title"), rs.getString("message"),
                rs.getString("recommendation"), SnapshotReader.strings(rs.getArray("stage_ids")),
                SnapshotReader.strings(rs.getArray("executor_ids")), SnapshotReader.strings(rs.getArray("config_keys")),
                Json.details(rs.getString("details")), new Impact(rs.getLong("impact_wall_ms"),
                rs.getLong("impact_task_ms"), rs.getLong("impact_core_ms"), rs.getString("impact_basis")),
                rs.getString("caused_by"),
                Json.advice(rs.getString("advice")));
    }
}
