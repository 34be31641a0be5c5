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

    public record FrequentFinding(String heuristic, String severity, long apps) {
    }

    public record Dashboard(long applications, long executors, long jobs, long stages, long tasks,
                            Optional<AppListRow> newest, Health lastDay, Health lastWeek,
                            List<FrequentFinding> frequentFindings) {
    }

    public Dashboard load(long now) throws SQLException {
        long day = now - 24 * 3600_000L;
        long week = now - 7 * 24 * 3600_000L;
        try (Connection c = dataSource.getConnection()) {
            long apps, executors, jobs, stages, tasks;
            Health d, w;
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*), coalesce(sum(num_executors), 0),"
                    + " coalesce(sum(num_jobs), 0), coalesce(sum(num_stages), 0), coalesce(sum(num_tasks), 0),"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'HIGH'),"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'LOW'),"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity IS NULL),"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'HIGH'),"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity = 'LOW'),"
                    + " count(*) FILTER (WHERE start_time >= ? AND worst_severity IS NULL) FROM application")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setLong(i, day);
                    ps.setLong(i + 3, week);
                }
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
            List<FrequentFinding> frequent = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT heuristic,"
                    + " CASE WHEN bool_or(severity = 'HIGH') THEN 'HIGH' ELSE 'LOW' END, count(DISTINCT app_pk) AS n"
                    + " FROM finding GROUP BY heuristic ORDER BY n DESC, heuristic LIMIT 10")) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        frequent.add(new FrequentFinding(rs.getString(1), rs.getString(2), rs.getLong(3)));
                    }
                }
            }
            c.close(); // before the next query takes its own connection: never hold two per request
            List<AppListRow> newest = new AppSearchQuery(dataSource)
                    .search(new AppFilter(null, null, null, null, null, null, null, null, null, null,
                            AppFilter.Sort.START, true, 1, 0, now)).rows();
            return new Dashboard(apps, executors, jobs, stages, tasks, newest.stream().findFirst(), d, w, frequent);
        }
    }
}
