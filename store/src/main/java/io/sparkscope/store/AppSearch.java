package io.sparkscope.store;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Builds the application search SQL from an {@link AppQuery}: only fixed SQL fragments, every value a parameter. */
final class AppSearch {
    private AppSearch() {
    }

    private record Where(String sql, List<Object> params) {
    }

    static List<AppRow> list(DataSource ds, AppQuery q) throws SQLException {
        Where w = where(q);
        String order = switch (q.sort()) {
            case START -> "a.start_time";
            case DURATION -> "a.duration_ms";
        } + (q.descending() ? " DESC" : " ASC");
        String sql = "SELECT a.app_id, a.attempt_id, a.name, a.spark_user, a.start_time, a.end_time, a.duration_ms,"
                + " a.status, a.num_jobs, a.num_stages, a.num_tasks, a.num_failed_tasks, a.num_findings,"
                + " a.worst_severity FROM application a" + w.sql()
                // app_pk breaks ties so paging is stable when start times are equal.
                + " ORDER BY " + order + ", a.app_pk" + (q.descending() ? " DESC" : " ASC") + " LIMIT ? OFFSET ?";
        List<AppRow> out = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = bind(ps, w.params());
            ps.setInt(i++, q.limit());
            ps.setInt(i, q.offset());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String attempt = rs.getString(2);
                    out.add(new AppRow(rs.getString(1), attempt.isEmpty() ? null : attempt, rs.getString(3),
                            rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getString(8),
                            rs.getInt(9), rs.getInt(10), rs.getLong(11), rs.getLong(12), rs.getInt(13),
                            rs.getString(14)));
                }
            }
        }
        return out;
    }

    static long count(DataSource ds, AppQuery q) throws SQLException {
        Where w = where(q);
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM application a" + w.sql())) {
            bind(ps, w.params());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static int bind(PreparedStatement ps, List<Object> params) throws SQLException {
        int i = 1;
        for (Object p : params) {
            if (p instanceof Long l) {
                ps.setLong(i++, l);
            } else {
                ps.setString(i++, (String) p);
            }
        }
        return i;
    }

    private static Where where(AppQuery q) {
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (q.appId() != null) {
            parts.add("a.app_id = ?");
            params.add(q.appId());
        }
        if (q.nameContains() != null && !q.nameContains().isEmpty()) {
            // ILIKE is served by the pg_trgm index (V2); user wildcards are escaped so "50%" means "50%".
            parts.add("a.name ILIKE ?");
            params.add("%" + escapeLike(q.nameContains()) + "%");
        }
        if (q.user() != null) {
            parts.add("a.spark_user = ?");
            params.add(q.user());
        }
        range(parts, params, "a.start_time", q.startedFrom(), q.startedTo());
        if (q.endedFrom() != null || q.endedTo() != null) {
            parts.add("a.end_time >= 0"); // running apps (-1) have not ended in any range
            range(parts, params, "a.end_time", q.endedFrom(), q.endedTo());
        }
        if (q.status() != null) {
            parts.add("a.status = ?");
            params.add(q.status());
        }
        if (q.severity() != null) {
            if (q.severity().equals("NONE")) {
                parts.add("a.worst_severity IS NULL");
            } else {
                parts.add("a.worst_severity = ?");
                params.add(q.severity());
            }
        }
        if (q.heuristic() != null) {
            parts.add("EXISTS (SELECT 1 FROM finding f WHERE f.app_pk = a.app_pk AND f.heuristic = ?)");
            params.add(q.heuristic());
        }
        return new Where(parts.isEmpty() ? "" : " WHERE " + String.join(" AND ", parts), params);
    }

    private static void range(List<String> parts, List<Object> params, String column, Long from, Long to) {
        if (from != null) {
            parts.add(column + " >= ?");
            params.add(from);
        }
        if (to != null) {
            parts.add(column + " <= ?");
            params.add(to);
        }
    }

    static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
