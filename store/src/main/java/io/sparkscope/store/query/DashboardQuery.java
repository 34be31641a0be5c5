package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The dashboard's numbers, from the summaries the writes keep (V27): a few hundred rows however many applications
 * are stored, plus at most two hours of application rows at the edges of the health windows.
 */
public final class DashboardQuery {
    private final DataSource dataSource;

    public DashboardQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs started in a window, by worst severity. */
    public record Health(long red, long yellow, long green) {
        public long total() {
            return red + yellow + green;
        }
    }

    /**
     * A heuristic by what fixing its findings would save, over every stored application: root causes only (a cause's
     * saving already counts the knock-ons it brings down), so a finding that costs much ranks above one that is
     * merely everywhere.
     *
     * @param apps       applications with such a finding
     * @param wallMsSaved Σ estimated wall time saved
     * @param taskMsSaved Σ estimated task time saved
     */
    public record TopFinding(String heuristic, String severity, long apps, long wallMsSaved, long taskMsSaved) {
    }

    public record Dashboard(long applications, long executors, long jobs, long stages, long tasks,
                            Optional<AppListRow> newest, Health lastDay, Health lastWeek,
                            List<TopFinding> topFindings) {
    }

    private static final long HOUR_MS = 3600_000L;

    public Dashboard load(long now) throws SQLException {
        long day = now - 24 * HOUR_MS;
        long week = now - 7 * 24 * HOUR_MS;
        // The summaries (V27) count by the hour an application started; a window that begins inside an hour reads
        // the rest of that hour from application itself (one hour's rows by the start-time index).
        long dayHour = Math.floorDiv(day + HOUR_MS - 1, HOUR_MS);
        long weekHour = Math.floorDiv(week + HOUR_MS - 1, HOUR_MS);
        try (Connection c = dataSource.getConnection()) {
            long apps, executors, jobs, stages, tasks;
            Health d, w;
            try (PreparedStatement ps = c.prepareStatement("SELECT t.apps, t.executors, t.jobs, t.stages, t.tasks,"
                    + " h.day_red + e.day_red, h.day_yellow + e.day_yellow, h.day_green + e.day_green,"
                    + " h.week_red + e.week_red, h.week_yellow + e.week_yellow, h.week_green + e.week_green"
                    + " FROM (SELECT coalesce(sum(apps), 0) AS apps, coalesce(sum(executors), 0) AS executors,"
                    + " coalesce(sum(jobs), 0) AS jobs, coalesce(sum(stages), 0) AS stages,"
                    + " coalesce(sum(tasks), 0) AS tasks FROM app_totals) t,"
                    + " (SELECT coalesce(sum(red) FILTER (WHERE hour >= ?), 0) AS day_red,"
                    + " coalesce(sum(yellow) FILTER (WHERE hour >= ?), 0) AS day_yellow,"
                    + " coalesce(sum(green) FILTER (WHERE hour >= ?), 0) AS day_green,"
                    + " coalesce(sum(red), 0) AS week_red, coalesce(sum(yellow), 0) AS week_yellow,"
                    + " coalesce(sum(green), 0) AS week_green FROM app_health_hour WHERE hour >= ?) h,"
                    + " (SELECT count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'HIGH') AS day_red,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'LOW') AS day_yellow,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity IS NULL) AS day_green,"
                    + " count(*) FILTER (WHERE start_time < ? AND worst_severity = 'HIGH') AS week_red,"
                    + " count(*) FILTER (WHERE start_time < ? AND worst_severity = 'LOW') AS week_yellow,"
                    + " count(*) FILTER (WHERE start_time < ? AND worst_severity IS NULL) AS week_green"
                    + " FROM application WHERE (start_time >= ? AND start_time < ?)"
                    + " OR (start_time >= ? AND start_time < ?)) e")) {
                // The day's edge lies among the week's whole hours: only the week's own edge adds to the week.
                long weekEdgeEnd = weekHour * HOUR_MS;
                Sql.bind(ps, List.<Object>of(dayHour, dayHour, dayHour, weekHour, day, day, day,
                        weekEdgeEnd, weekEdgeEnd, weekEdgeEnd, day, dayHour * HOUR_MS, week, weekEdgeEnd));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    apps = rs.getLong(1);
                    executors = rs.getLong(2);
                    jobs = rs.getLong(3);
                    stages = rs.getLong(4);
                    tasks = rs.getLong(5);
                    d = new Health(rs.getLong(6), rs.getLong(7), rs.getLong(8));
                    w = new Health(rs.getLong(9), rs.getLong(10), rs.getLong(11));
                }
            }
            List<TopFinding> top = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT heuristic,"
                    + " CASE WHEN sum(high) > 0 THEN 'HIGH' ELSE 'LOW' END AS severity,"
                    + " sum(apps) AS n, sum(wall_ms) AS wall, sum(task_ms) AS task"
                    + " FROM finding_summary GROUP BY heuristic HAVING sum(findings) > 0"
                    + " ORDER BY wall DESC, task DESC, sum(high) > 0 DESC, n DESC, heuristic LIMIT 10")) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        top.add(new TopFinding(rs.getString("heuristic"), rs.getString("severity"), rs.getLong("n"),
                                rs.getLong("wall"), rs.getLong("task")));
                    }
                }
            }
            c.close(); // before the next query takes its own connection: never hold two per request
            List<AppListRow> newest = new AppSearchQuery(dataSource)
                    .search(new AppFilter(null, null, null, null, null, null, null, null, null, null,
                            AppFilter.Sort.START, true, 1, 0, now), 1).rows(); // counted to 2, not all of them
            return new Dashboard(apps, executors, jobs, stages, tasks, newest.stream().findFirst(), d, w, top);
        }
    }
}
