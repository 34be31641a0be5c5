package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The dashboard's numbers: three aggregate statements over the application and finding tables. */
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

    public Dashboard load(long now) throws SQLException {
        long day = now - 24 * 3600_000L;
        long week = now - 7 * 24 * 3600_000L;
        try (Connection c = dataSource.getConnection()) {
            long apps, executors, jobs, stages, tasks;
            Health d, w;
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) AS apps,"
                    + " coalesce(sum(num_executors), 0) AS executors, coalesce(sum(num_jobs), 0) AS jobs,"
                    + " coalesce(sum(num_stages), 0) AS stages, coalesce(sum(num_tasks), 0) AS tasks,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'HIGH') AS day_red,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'LOW') AS day_yellow,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity IS NULL) AS day_green,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'HIGH') AS week_red,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'LOW') AS week_yellow,"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity IS NULL) AS week_green"
                    + " FROM application")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setLong(i, day);
                    ps.setLong(i + 3, week);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    apps = rs.getLong("apps");
                    executors = rs.getLong("executors");
                    jobs = rs.getLong("jobs");
                    stages = rs.getLong("stages");
                    tasks = rs.getLong("tasks");
                    d = new Health(rs.getLong("day_red"), rs.getLong("day_yellow"), rs.getLong("day_green"));
                    w = new Health(rs.getLong("week_red"), rs.getLong("week_yellow"), rs.getLong("week_green"));
                }
            }
            List<TopFinding> top = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT heuristic,"
                    + " CASE WHEN bool_or(severity = 'HIGH') THEN 'HIGH' ELSE 'LOW' END AS severity,"
                    + " count(DISTINCT app_pk) AS n, sum(impact_wall_ms) AS wall, sum(impact_task_ms) AS task"
                    + " FROM finding WHERE caused_by IS NULL GROUP BY heuristic"
                    + " ORDER BY wall DESC, task DESC, bool_or(severity = 'HIGH') DESC, n DESC, heuristic LIMIT 10")) {
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
                            AppFilter.Sort.START, true, 1, 0, now)).rows();
            return new Dashboard(apps, executors, jobs, stages, tasks, newest.stream().findFirst(), d, w, top);
        }
    }
}
