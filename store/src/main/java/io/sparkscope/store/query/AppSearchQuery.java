package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The search page's query: one page of applications with their banners (stored on the application row, V7) in one
 * statement, with the (capped) total for paging in the same statement. Deep pages go by a {@link SearchCursor} (keyset
 * paging: read from the index where the previous page ended, never counting off the rows before). SQL is built only
 * from fixed fragments; every value is a parameter.
 */
public final class AppSearchQuery {
    /**
     * The order a capped count reads the matches in: the order makes no difference to the count, but it tells
     * PostgreSQL to read newest first, where a broad filter's matches fill the cap soonest, through the index that
     * carries the filtered columns (V30) instead of whichever index is narrowest, in its order (a name filter read
     * 400 000 names alphabetically before its first thousand matches). For a rare filter PostgreSQL still picks its
     * own index and sorts the few matches.
     */
    private static final String COUNT_ORDER = " ORDER BY a.start_time DESC";

    /** The count of the matches of {@code where} (empty, or " WHERE …") up to a cap given as its last parameter. */
    static String cappedCountSql(String where) {
        return "SELECT count(*) FROM (SELECT 1 FROM application a" + where + COUNT_ORDER + " LIMIT ?) capped";
    }

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
        SearchCursor cursor = f.cursor();
        // A page before a cursor is read backwards from it (in index order too), then turned round.
        boolean backwards = cursor != null && cursor.before();
        boolean descending = f.descending() != backwards;
        String column = column(f.sort());
        String dir = descending ? " DESC" : " ASC";
        // As the V17 index orders it: figures not computed after all others when descending (its backward scan
        // ascending), so either direction is read in index order.
        String nulls = f.sort() != AppFilter.Sort.WASTE ? "" : descending ? " NULLS LAST" : " NULLS FIRST";
        String order = column + dir + nulls + ", a.app_pk" + dir;
        Where page = cursor == null ? w : w.and(following(f.sort(), column, cursor, descending));
        // banners is selected as the column itself, not banners::text: PostgreSQL evaluates a select list's
        // expressions for the rows an OFFSET skips too (page 20 turned 1 000 banners into text for 50 shown); the
        // column's text form is made only for the rows sent.
        long cap = (long) f.offset() + countCap;
        // With a cap, the capped count rides along as the last column: an uncorrelated subquery, which PostgreSQL
        // runs once (an InitPlan) when the first row is sent. One statement instead of two saves a round trip and
        // the parsing, planning and start-up of a second statement on every full page. A cursor's page counts only
        // what follows it, after the page is read (below).
        boolean countAlong = countCap > 0 && cursor == null;
        String countColumn = countAlong
                ? ", (" + cappedCountSql(w.sql) + ")" : "";
        String sql = "SELECT a.app_pk, a.app_id, a.attempt_id, a.name, a.spark_user, a.start_time, a.end_time,"
                + " a.duration_ms, a.complete, a.last_event_time, a.num_jobs, a.num_stages, a.num_tasks,"
                + " a.num_failed_tasks, a.num_findings, a.worst_severity, a.banners, a.saving_ms, "
                + prefixed("a.", AppEfficiency.COLUMNS) + countColumn + " FROM application a" + page.sql
                + " ORDER BY " + order + " LIMIT ? OFFSET ?";
        try (Connection c = dataSource.getConnection()) {
            List<AppListRow> rows = new ArrayList<>(f.limit());
            long cappedCount = -1; // from the page's own statement, when it has a row
            try (PreparedStatement ps = Sql.plannedForItsValues(c.prepareStatement(sql))) {
                List<Object> params = new ArrayList<>(w.params.size() * 2 + 3);
                if (countAlong) {
                    params.addAll(w.params);
                    params.add(cap + 1);
                }
                params.addAll(page.params);
                params.add(f.limit());
                params.add(cursor == null ? f.offset() : 0);
                Sql.bind(ps, params);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) { // by position in the select list above (by name, 27 look-ups a row)
                        if (countAlong && cappedCount < 0) {
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
            if (backwards) {
                Collections.reverse(rows);
            }
            if (cursor != null) {
                return cursorTotal(c, f, w, column, rows, countCap);
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
                total = count(c, w);
            }
            return new Result(rows, total, lowerBound);
        }
    }

    /**
     * The total of a cursor's page: its position ({@code offset}), its rows, and the rows after its last one (counted
     * up to {@code countCap} when it is positive) — never the rows before it, which is what makes deep pages cheap.
     */
    private static Result cursorTotal(Connection c, AppFilter f, Where w, String column, List<AppListRow> rows,
                                      int countCap) throws SQLException {
        boolean lastPage = rows.isEmpty() || (!f.cursor().before() && rows.size() < f.limit());
        if (lastPage) {
            return new Result(rows, (long) f.offset() + rows.size());
        }
        SearchCursor last = SearchCursor.of(rows.get(rows.size() - 1), f.sort(), false);
        Where rest = w.and(following(f.sort(), column, last, f.descending()));
        long after = countCap > 0 ? cappedCount(c, rest, countCap) : count(c, rest);
        boolean lowerBound = countCap > 0 && after > countCap;
        return new Result(rows, (long) f.offset() + rows.size() + Math.min(after, countCap > 0 ? countCap : after),
                lowerBound);
    }

    private static String column(AppFilter.Sort sort) {
        return switch (sort) {
            case START -> "a.start_time";
            case DURATION -> "a.duration_ms";
            case SAVING -> "a.saving_ms";
            case WASTE -> "a.core_hours_wasted";
        };
    }

    /**
     * The rows that come after the cursor's row when reading {@code descending} (or not): a row comparison on
     * (sort key, app_pk), which the (key, app_pk) indexes answer as a range. Idle core-hours not computed (NULL)
     * sort below every value, as the index keeps them.
     */
    private static Where following(AppFilter.Sort sort, String column, SearchCursor at, boolean descending) {
        String op = descending ? "<" : ">";
        if (sort != AppFilter.Sort.WASTE) {
            return new Where("(" + column + ", a.app_pk) " + op + " (?, ?)", List.<Object>of(at.value(), at.appPk()));
        }
        if (at.value() == null) {
            return descending
                    ? new Where("(" + column + " IS NULL AND a.app_pk < ?)", List.<Object>of(at.appPk()))
                    : new Where("(" + column + " IS NOT NULL OR a.app_pk > ?)", List.<Object>of(at.appPk()));
        }
        String range = "(" + column + ", a.app_pk) " + op + " (?, ?)";
        return new Where(descending ? "(" + column + " IS NULL OR " + range + ")" : range,
                List.<Object>of(at.value(), at.appPk()));
    }

    private static long count(Connection c, Where w) throws SQLException {
        try (PreparedStatement ps = Sql.plannedForItsValues(
                c.prepareStatement("SELECT count(*) FROM application a" + w.sql))) {
            Sql.bind(ps, w.params);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The matches, counted up to {@code cap + 1}. */
    private static long cappedCount(Connection c, Where w, long cap) throws SQLException {
        try (PreparedStatement ps = Sql.plannedForItsValues(c.prepareStatement(
                cappedCountSql(w.sql)))) {
            List<Object> params = new ArrayList<>(w.params);
            params.add(cap + 1);
            Sql.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A WHERE clause (empty, or starting with " WHERE ") and its parameters. */
    private record Where(String sql, List<Object> params) {
        /** This clause and one more condition (a bare condition with its parameters). */
        Where and(Where condition) {
            List<Object> all = new ArrayList<>(params);
            all.addAll(condition.params);
            return new Where((sql.isEmpty() ? " WHERE " : sql + " AND ") + condition.sql, all);
        }
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
