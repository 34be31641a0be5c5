package io.sparkscope.store.query;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.store.ReadTransaction;
import io.sparkscope.store.SnapshotReader;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An application's jobs, or its executors (a page of them for the tab and the REST-shaped API). */
public final class JobsExecutorsQuery {
    private final DataSource dataSource;

    public JobsExecutorsQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public record Jobs(AppRefs.Resolved app, List<JobSummary> jobs) {
    }

    /** The jobs in job-id order; empty when the application is not stored. */
    public Optional<Jobs> jobs(String appId, String attemptId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            List<JobSummary> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM job WHERE app_pk = ? ORDER BY job_id")) {
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(SnapshotReader.job(rs));
                    }
                }
            }
            return Optional.of(new Jobs(app, out));
        });
    }

    /** Which executors a page lists. */
    public enum State {
        ALL, ACTIVE, REMOVED
    }

    /** The order of a page: as they appeared ({@code ord}), or by id as Spark's REST API lists them. */
    public enum Order {
        APPEARED("ord, executor_id COLLATE \"C\""),
        ID("executor_id COLLATE \"C\""),
        ID_DESCENDING("executor_id COLLATE \"C\" DESC");

        final String sql;

        Order(String sql) {
            this.sql = sql;
        }
    }

    /** One page: {@code offset} rows skipped, at most {@code length} listed. */
    public record Request(State state, Order order, int offset, int length) {
    }

    /**
     * One page of an application's executors, with what the page says about all of them: how many there are, how
     * many were removed, how many the page's filter matches, and whether any has peak memory figures.
     */
    /** @param taskCpus {@code spark.task.cpus} of the application (1 when not set or not a number) */
    public record ExecutorPage(AppRefs.Resolved app, List<ExecutorSummary> executors, int taskCpus, long total,
                               long removed, long matching, boolean anyPeaks) {
    }

    /**
     * One page of the executors, read in the database: an application of 100 000 executors costs the rows of the
     * page and a count, never the whole list. Empty when the application is not stored.
     */
    public Optional<ExecutorPage> executorPage(String appId, String attemptId, Request r) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            long total = 0;
            long removed = 0;
            boolean anyPeaks = false;
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*), count(*) FILTER (WHERE remove_time >= 0),"
                    + " bool_or(peak_metrics <> '{}'::jsonb AND jsonb_path_exists(peak_metrics, '$.* ? (@ != 0)'))"
                    + " FROM executor WHERE app_pk = ?")) {
                // all zeros is what Spark records for an executor whose tasks carried no sample: nothing measured
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        total = rs.getLong(1);
                        removed = rs.getLong(2);
                        anyPeaks = rs.getBoolean(3);
                    }
                }
            }
            String where = switch (r.state()) {
                case ALL -> "";
                case ACTIVE -> " AND remove_time < 0";
                case REMOVED -> " AND remove_time >= 0";
            };
            List<ExecutorSummary> out = new ArrayList<>(Math.min(r.length(), 1000));
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM executor WHERE app_pk = ?" + where
                    + " ORDER BY " + r.order().sql + " LIMIT ? OFFSET ?")) {
                ps.setLong(1, app.pk());
                ps.setInt(2, r.length());
                ps.setLong(3, r.offset());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(SnapshotReader.executor(rs));
                    }
                }
            }
            long matching = switch (r.state()) {
                case ALL -> total;
                case ACTIVE -> total - removed;
                case REMOVED -> removed;
            };
            return Optional.of(new ExecutorPage(app, out, taskCpus(c, app.pk()), total, removed, matching, anyPeaks));
        });
    }

    /** @param taskCpus {@code spark.task.cpus} of the application (1 when not set or not a number) */
    public record Executors(AppRefs.Resolved app, List<ExecutorSummary> executors, int taskCpus) {
    }

    /**
     * Every executor in the order they appeared; empty when the application is not stored. An elastic application
     * may have a hundred thousand: pages and API answers read {@link #executorPage}, and a question about a few
     * (which ran tasks) {@link #executorsThatRanTasks}.
     */
    public Optional<Executors> executors(String appId, String attemptId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            List<ExecutorSummary> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM executor WHERE app_pk = ? ORDER BY ord")) {
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(SnapshotReader.executor(rs));
                    }
                }
            }
            return Optional.of(new Executors(app, out, taskCpus(c, app.pk())));
        });
    }

    /** The ids of at most {@code limit} executors that ran a task, in the order they appeared; empty: not stored. */
    public Optional<List<String>> executorsThatRanTasks(String appId, String attemptId, int limit)
            throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT executor_id FROM executor WHERE app_pk = ?"
                    + " AND completed_tasks + failed_tasks + killed_tasks > 0 ORDER BY ord LIMIT ?")) {
                ps.setLong(1, app.pk());
                ps.setInt(2, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
            return Optional.of(out);
        });
    }

    private static int taskCpus(Connection c, long pk) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT value FROM configuration WHERE app_pk = ?"
                + " AND scope = 'spark' AND key = 'spark.task.cpus'")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) != null) {
                    try {
                        return Math.max(1, Integer.parseInt(rs.getString(1).trim()));
                    } catch (NumberFormatException notANumber) {
                        return 1;
                    }
                }
            }
        }
        return 1;
    }
}
