package io.sparkscope.store.query;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.store.ExecutorCounts;
import io.sparkscope.store.ReadTransaction;
import io.sparkscope.store.SnapshotReader;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An application's jobs, or its executors (a page of them for the tab and the REST-shaped API). */
public final class JobsExecutorsQuery {
    private final DataSource dataSource;

    public JobsExecutorsQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @param latestAttempts stage id → its latest stored attempt, for the stages a job lists (a skipped stage, never
     *                       run, has none): where a job's stage links lead
     */
    public record Jobs(AppRefs.Resolved app, List<JobSummary> jobs, Map<Integer, Integer> latestAttempts) {
        public Jobs {
            latestAttempts = Map.copyOf(latestAttempts);
        }

        public Jobs(AppRefs.Resolved app, List<JobSummary> jobs) {
            this(app, jobs, Map.of());
        }
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
            Map<Integer, Integer> latest = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT stage_id, max(attempt_id) FROM stage_attempt"
                    + " WHERE app_pk = ? GROUP BY stage_id")) {
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        latest.put(rs.getInt(1), rs.getInt(2));
                    }
                }
            }
            return Optional.of(new Jobs(app, out, latest));
        });
    }

    /** Which executors a page lists. */
    public enum State {
        ALL, ACTIVE, REMOVED
    }

    /** The order of a page: as they appeared ({@code ord}), or by id as Spark's REST API lists them. */
    public enum Order {
        APPEARED, ID, ID_DESCENDING;

        /**
         * The ORDER BY of a page over table alias {@code t}: the sort keys exactly as the executor indexes hold them
         * (ids as plain text, "C"), so a page is a range of an index and stops after its last row.
         */
        String by(String t) {
            return switch (this) {
                case APPEARED -> t + ".ord, " + t + ".executor_id COLLATE \"C\"";
                case ID -> t + ".executor_id COLLATE \"C\"";
                case ID_DESCENDING -> t + ".executor_id COLLATE \"C\" DESC";
            };
        }
    }

    /**
     * One page: the rows after executor {@code after} in the page's order when it is given and stored (a cursor:
     * the page's links carry it, so the next page starts where this one ended and costs its own rows only), else
     * {@code offset} rows skipped; at most {@code length} listed. {@code offset} also numbers the page's first row.
     */
    public record Request(State state, Order order, int offset, int length, String after) {
        public Request(State state, Order order, int offset, int length) {
            this(state, order, offset, length, null);
        }
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
     * page, the index entries before it at most, and one row of counts, never the whole list. Empty when the
     * application is not stored.
     */
    public Optional<ExecutorPage> executorPage(String appId, String attemptId, Request r) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            ExecutorCounts n = ExecutorCounts.read(c, app.pk());
            List<ExecutorSummary> out = page(c, app.pk(), r, n);
            long matching = switch (r.state()) {
                case ALL -> n.total();
                case ACTIVE -> n.total() - n.removed();
                case REMOVED -> n.removed();
            };
            return Optional.of(new ExecutorPage(app, out, taskCpus(c, app.pk()), n.total(), n.removed(), matching,
                    n.anyPeaks()));
        });
    }

    /** Where a page starts in its order: at or after this executor (its position matters to APPEARED only). */
    private record Key(int ord, String executorId, boolean inclusive) {
    }

    /**
     * The page's rows: an index range from where the page starts, so a page reads its own rows only. Where it starts
     * is the cursor's executor (the page's links carry it), else the row at the offset: for all executors in the
     * order they appeared with positions exactly 0 … n-1 that is ord = offset, otherwise the offset is counted over
     * index entries only, without reading a row.
     */
    private static List<ExecutorSummary> page(Connection c, long pk, Request r, ExecutorCounts n) throws SQLException {
        String state = switch (r.state()) {
            case ALL -> "";
            case ACTIVE -> " AND %1$s.remove_time < 0";
            case REMOVED -> " AND %1$s.remove_time >= 0";
        };
        Key from = r.after() == null ? null : cursor(c, pk, r);
        if (from == null && r.offset() > 0) {
            if (r.state() == State.ALL && r.order() == Order.APPEARED && n.denseOrd()) {
                from = new Key(r.offset(), "", true); // "" sorts first: the row at ord = offset
            } else {
                from = atOffset(c, pk, r, state);
                if (from == null) {
                    return List.of(); // past the end
                }
            }
        }
        String range = "";
        if (from != null) {
            String op = r.order() == Order.ID_DESCENDING ? (from.inclusive() ? "<=" : "<")
                    : from.inclusive() ? ">=" : ">";
            range = r.order() == Order.APPEARED ? " AND (a.ord, a.executor_id COLLATE \"C\") " + op + " (?, ?)"
                    : " AND a.executor_id COLLATE \"C\" " + op + " ?";
        }
        List<ExecutorSummary> out = new ArrayList<>(Math.min(r.length(), 1000));
        try (PreparedStatement ps = c.prepareStatement("SELECT a.* FROM executor a WHERE a.app_pk = ?"
                + state.formatted("a") + range + " ORDER BY " + r.order().by("a") + " LIMIT ?")) {
            int i = 1;
            ps.setLong(i++, pk);
            if (from != null) {
                if (r.order() == Order.APPEARED) {
                    ps.setInt(i++, from.ord());
                }
                ps.setString(i++, from.executorId());
            }
            ps.setInt(i, r.length());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(SnapshotReader.executor(rs));
                }
            }
        }
        return out;
    }

    /**
     * The cursor's place: after executor {@code r.after()}. By id that needs no lookup; in the order they appeared it
     * needs the executor's position, and a cursor naming no stored executor (the application was rewritten since
     * the link was made) is ignored: the page then starts at the offset, which the links carry too.
     */
    private static Key cursor(Connection c, long pk, Request r) throws SQLException {
        if (r.order() != Order.APPEARED) {
            return new Key(0, r.after(), false);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT ord FROM executor WHERE app_pk = ? AND executor_id = ?")) {
            ps.setLong(1, pk);
            ps.setString(2, r.after());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Key(rs.getInt(1), r.after(), false) : null;
            }
        }
    }

    /** The row at the offset, counted over index entries; null past the end. */
    private static Key atOffset(Connection c, long pk, Request r, String state) throws SQLException {
        // only what the order's index holds, so no row is read (by id: ord is not in that index)
        boolean appeared = r.order() == Order.APPEARED;
        try (PreparedStatement ps = c.prepareStatement("SELECT s.executor_id" + (appeared ? ", s.ord" : "")
                + " FROM executor s WHERE s.app_pk = ?" + state.formatted("s") + " ORDER BY " + r.order().by("s")
                + " OFFSET ? LIMIT 1")) {
            ps.setLong(1, pk);
            ps.setLong(2, r.offset());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Key(appeared ? rs.getInt(2) : 0, rs.getString(1), true) : null;
            }
        }
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

    /**
     * The stored task attempts of one stage attempt on one executor.
     *
     * @param name the stage's name, null when the stage attempt itself is not stored
     */
    public record StageTasks(int stageId, int stageAttemptId, String name, long tasks, long failed) {
    }

    /**
     * One executor and the stage attempts it ran stored tasks of, by stage id.
     *
     * @param executor null when no executor of that id is stored (its tasks may still be)
     */
    public record ExecutorStages(AppRefs.Resolved app, String executorId, ExecutorSummary executor,
                                 List<StageTasks> stages) {
    }

    /** An executor's page: empty when the application is not stored. */
    public Optional<ExecutorStages> executorStages(String appId, String attemptId, String executorId)
            throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            ExecutorSummary executor = null;
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM executor WHERE app_pk = ?"
                    + " AND executor_id = ?")) {
                ps.setLong(1, app.pk());
                ps.setString(2, executorId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        executor = SnapshotReader.executor(rs);
                    }
                }
            }
            // by the (app, executor) index of the task table: one executor's rows, not the application's
            List<StageTasks> stages = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT t.stage_id, t.stage_attempt_id, max(s.name),"
                    + " count(*), count(*) FILTER (WHERE t.status = 'FAILED') FROM task t"
                    + " LEFT JOIN stage_attempt s ON s.app_pk = t.app_pk AND s.stage_id = t.stage_id"
                    + " AND s.attempt_id = t.stage_attempt_id WHERE t.app_pk = ? AND t.executor_id = ?"
                    + " GROUP BY t.stage_id, t.stage_attempt_id ORDER BY t.stage_id, t.stage_attempt_id")) {
                ps.setLong(1, app.pk());
                ps.setString(2, executorId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        stages.add(new StageTasks(rs.getInt(1), rs.getInt(2), rs.getString(3), rs.getLong(4),
                                rs.getLong(5)));
                    }
                }
            }
            return Optional.of(new ExecutorStages(app, executorId, executor, stages));
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
