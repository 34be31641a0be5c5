package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The search page's query: one page of applications with their banners (stored on the application row, V7) in one
 * statement, with the (capped) total for paging in the same statement. SQL is built only from fixed fragments; every value is
 * a parameter.
 */
public final class AppSearchQuery {
    /** The capped count's place in the page statement: after the 18 columns of the row and the efficiency figures. */
    private static final int COUNT_COLUMN = 19 + AppEfficiency.COLUMNS.split(",").length;

    private final DataSource dataSource;

    public AppSearchQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @param total the number of matching applications, or a lower bound when {@code totalIsLowerBound} (the count
     *              was capped, see {@link #search(AppFilter, int)})
     */
    public record Result(List<AppListRow> rows, long total, boolean totalIsLowerBound) {
        public Result(List<AppListRow> rows, long total) {
            this(rows, total, false);
        }
    }

    /** One page with the exact total (the JSON API). */
    public Result search(AppFilter f) throws SQLException {
        return search(f, 0);
    }

    /**
     * One page; when {@code countCap > 0} the total is counted only up to {@code offset + countCap} rows past which
     * it is reported as a lower bound ("1,000+"), so a broad filter never counts the whole table.
     * The banners need only heuristic, severity, title and message of the findings: the other columns stay unread.
     */
    public Result search(AppFilter f, int countCap) throws SQLException {
        Where w = where(f);
        String dir = f.descending() ? " DESC" : " ASC";
        String column = switch (f.sort()) {
            case START -> "a.start_time";
            case DURATION -> "a.duration_ms";
            case SAVING -> "a.saving_ms";
            case WASTE -> "a.core_hours_wasted";
        };
        // As the V17 index orders it: figures not computed after all others when descending (its backward scan
        // ascending), so either direction is read in index order.
        String nulls = f.sort() != AppFilter.Sort.WASTE ? "" : f.descending() ? " NULLS LAST" : " NULLS FIRST";
        String order = column + dir + nulls + ", a.app_pk" + dir;
        // banners is selected as the column itself, not banners::text: PostgreSQL evaluates a select list's
        // expressions for the rows an OFFSET skips too (page 20 turned 1 000 banners into text for 50 shown); the
        // column's text form is made only for the rows sent.
        long cap = (long) f.offset() + countCap;
        // With a cap, the capped count rides along as the last column: an uncorrelated subquery, which PostgreSQL
        // runs once (an InitPlan) when the first row is sent. One statement instead of two saves a round trip and
        // the parsing, planning and start-up of a second statement on every full page.
        String countColumn = countCap > 0
                ? ", (SELECT count(*) FROM (SELECT 1 FROM application a" + w.sql + " LIMIT ?) capped)" : "";
        String sql = "SELECT a.app_pk, a.app_id, a.attempt_id, a.name, a.spark_user, a.start_time, a.end_time,"
                + " a.duration_ms, a.complete, a.last_event_time, a.num_jobs, a.num_stages, a.num_tasks,"
                + " a.num_failed_tasks, a.num_findings, a.worst_severity, a.banners, a.saving_ms, "
                + prefixed("a.", AppEfficiency.COLUMNS) + countColumn + " FROM application a" + w.sql
                + " ORDER BY " + order + " LIMIT ? OFFSET ?";
        try (Connection c = dataSource.getConnection()) {
            List<AppListRow> rows = new ArrayList<>(f.limit());
            long cappedCount = -1; // from the page's own statement, when it has a row
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                List<Object> params = new ArrayList<>(w.params.size() * 2 + 3);
                if (countCap > 0) {
                    params.addAll(w.params);
                    params.add(cap + 1);
                }
                params.addAll(w.params);
                params.add(f.limit());
                params.add(f.offset());
                Sql.bind(ps, params);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) { // by position in the select list above (by name, 27 look-ups a row)
                        if (countCap > 0 && cappedCount < 0) {
                            cappedCount = rs.getLong(COUNT_COLUMN);
                        }
                        String attempt = rs.getString(3);
                        rows.add(new AppListRow(rs.getLong(1), rs.getString(2),
                                attempt.isEmpty() ? null : attempt, rs.getString(4), rs.getString(5),
                                rs.getLong(6), rs.getLong(7), rs.getLong(8),
                                AppFilter.statusOf(rs.getBoolean(9), rs.getLong(10), f.now()),
                                rs.getInt(11), rs.getInt(12), rs.getLong(13),
                                rs.getLong(14), rs.getInt(15),
                                rs.getString(16), Sql.banners(rs.getString(17)),
                                rs.getLong(18), AppEfficiency.read(rs, 19)));
                    }
                }
            }
            long total;
            boolean lowerBound = false;
            // A page that is not full ends the result: offset + rows is the total, no count needed.
            if (rows.size() < f.limit() && (f.offset() == 0 || !rows.isEmpty())) {
                total = f.offset() + rows.size();
            } else if (countCap > 0) {
                if (cappedCount >= 0) {
                    total = cappedCount;
                } else { // a page past the end has no row to carry the count
                    total = cappedCount(c, w, cap);
                }
                if (total > cap) {
                    total = cap;
                    lowerBound = true;
                }
            } else {
                try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM application a" + w.sql)) {
                    Sql.bind(ps, w.params);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        total = rs.getLong(1);
                    }
                }
            }
            return new Result(rows, total, lowerBound);
        }
    }

    /** The matches, counted up to {@code cap + 1}. */
    private static long cappedCount(Connection c, Where w, long cap) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM (SELECT 1 FROM application a" + w.sql + " LIMIT ?) capped")) {
            List<Object> params = new ArrayList<>(w.params);
            params.add(cap + 1);
            Sql.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private record Where(String sql, List<Object> params) {
    }

    private static String prefixed(String prefix, String columns) {
        return prefix + String.join(", " + prefix, columns.split(",\\s*"));
    }

    private static Where where(AppFilter f) {
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (f.appId() != null) {
            parts.add("a.app_id = ?");
            params.add(f.appId());
        }
        if (f.nameContains() != null && !f.nameContains().isEmpty()) {
            // ILIKE is lower(name) LIKE lower(pattern); the lower-cased name is stored (V20), so no row's case is
            // folded per query
            parts.add("a.name_lower LIKE lower(?)");
            params.add("%" + Sql.escapeLike(f.nameContains()) + "%");
        }
        if (f.user() != null) {
            parts.add("a.spark_user = ?");
            params.add(f.user());
        }
        range(parts, params, "a.start_time", f.startedFrom(), f.startedTo());
        if (f.endedFrom() != null || f.endedTo() != null) {
            parts.add("a.end_time >= 0");
            range(parts, params, "a.end_time", f.endedFrom(), f.endedTo());
        }
        if (f.status() != null) {
            switch (f.status()) {
                case COMPLETE -> parts.add("a.complete");
                case RUNNING -> {
                    parts.add("NOT a.complete AND a.last_event_time >= ?");
                    params.add(f.now() - AppFilter.STALE_AFTER_MS);
                }
                case INCOMPLETE -> {
                    parts.add("NOT a.complete AND a.last_event_time < ?");
                    params.add(f.now() - AppFilter.STALE_AFTER_MS);
                }
            }
        }
        if (f.severity() != null) {
            if (f.severity().equals("NONE")) {
                parts.add("a.worst_severity IS NULL");
            } else {
                parts.add("a.worst_severity = ?");
                params.add(f.severity());
            }
        }
        if (f.minWastedCoreHours() != null) {
            parts.add("a.core_hours_wasted >= ?"); // V17 index
            params.add(f.minWastedCoreHours());
        }
        if (f.heuristic() != null) {
            // the row's own list of its findings' heuristics (V20, GIN-indexed), not a probe of finding per row
            parts.add("a.heuristics @> ARRAY[?]::text[]");
            params.add(f.heuristic());
        }
        AppFilter.Scheduler s = f.scheduler();
        if (s != null) { // V25's partial indexes
            exact(parts, params, "a.airflow_dag_id", s.dag());
            exact(parts, params, "a.airflow_task_id", s.task());
            exact(parts, params, "a.lineage_job", s.job());
            if (s.run() != null) {
                parts.add("(a.lineage_run_id = ? OR a.lineage_root_run_id = ?)");
                params.add(s.run());
                params.add(s.run());
            }
        }
        return new Where(parts.isEmpty() ? "" : " WHERE " + String.join(" AND ", parts), params);
    }

    private static void exact(List<String> parts, List<Object> params, String column, String value) {
        if (value != null) {
            parts.add(column + " = ?");
            params.add(value);
        }
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
}
