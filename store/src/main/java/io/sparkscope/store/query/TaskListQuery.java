package io.sparkscope.store.query;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.ReadTransaction;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TaskMetricArray;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One page of one stage attempt's kept tasks, filtered by status and executor and sorted in the database, so a page
 * of a 100 000-task stage reads its rows and no others: the task-id, run-time and duration orders and the status
 * filter come from indexes and need no sort. A page deep into an order starts from a kept anchor (see
 * {@link Anchors}) instead of skipping every row before it, and a filtered page's count of matches comes from the
 * same anchors; where the stage has no digest to keep them by, the count stops {@link #COUNT_CAP} past the offset.
 * Everything in one read-only REPEATABLE READ transaction.
 */
public final class TaskListQuery {
    /** A filtered list without anchors counts this many matches past its offset at most, then says "more". */
    public static final int COUNT_CAP = 10_000;

    /** Rows between two anchors: a page deep into an order skips fewer than this many index entries. */
    static final int ANCHOR_STEP = 500;

    /** Anchor sets kept (one per stage attempt, filter and order asked for; a few kilobytes each). */
    private static final int ANCHOR_SETS = 512;

    /**
     * Spark's run-time sort key ({@code TaskDataWrapper}'s executorRunTime index): the run time of a successful task,
     * {@code -runTime - 1} for a task that did not succeed, -1 without metrics. Written exactly as the index
     * {@code task_run_time_idx} is, so PostgreSQL reads the index instead of sorting.
     */
    private static final String RUN_TIME_KEY = "(CASE WHEN executor_run_time_ms IS NULL THEN -1 WHEN status = 'SUCCESS'"
            + " THEN executor_run_time_ms ELSE -executor_run_time_ms - 1 END)";

    /** What the table sorts by; ties by task id in the same direction (as Spark's key-value store orders them). */
    public enum Sort {
        ID("task_id"),
        /** Spark's {@code sortBy=runtime}: see {@link #RUN_TIME_KEY}. */
        RUN_TIME(RUN_TIME_KEY),
        DURATION("duration_ms"),
        LAUNCH_TIME("launch_time"),
        INDEX("task_index"),
        GC_TIME(TaskMetricArray.sql("", TaskMetric.JVM_GC_TIME)),
        SHUFFLE_READ(TaskMetricArray.sql("", TaskMetric.SHUFFLE_REMOTE_BYTES_READ)
                + " + " + TaskMetricArray.sql("", TaskMetric.SHUFFLE_LOCAL_BYTES_READ)),
        SPILL(TaskMetricArray.sql("", TaskMetric.MEMORY_BYTES_SPILLED)
                + " + " + TaskMetricArray.sql("", TaskMetric.DISK_BYTES_SPILLED)),
        PEAK_MEMORY(TaskMetricArray.sql("", TaskMetric.PEAK_EXECUTION_MEMORY));

        final String expression;

        Sort(String expression) {
            this.expression = expression;
        }
    }

    /**
     * @param statuses   task statuses to keep (SUCCESS, FAILED, KILLED, RUNNING), empty for all
     * @param executorId only this executor's tasks, or null
     */
    public record Request(int stageId, int stageAttemptId, int offset, int length, Sort sort, boolean descending,
                          Set<String> statuses, String executorId) {
        public Request {
            statuses = Set.copyOf(statuses);
        }

        public boolean filtered() {
            return !statuses.isEmpty() || executorId != null;
        }
    }

    /**
     * The stage attempt as the table's heading shows it.
     *
     * @param taskDetail which tasks were kept (ALL, SAMPLED, SLOWEST), null when stored before that was recorded
     * @param keptTasks  task rows stored for it
     */
    public record Stage(String name, String status, int numTasks, int numCompleteTasks, int numFailedTasks,
                        int numKilledTasks, String taskDetail, int keptTasks) {
    }

    /**
     * @param matching tasks matching the filters, exact without filters; with filters at most offset + COUNT_CAP
     * @param capped   true when {@code matching} stopped at the cap (there are more)
     */
    public record Page(AppRefs.Resolved app, Stage stage, List<TaskRecord> tasks, long matching, boolean capped,
                       List<String> executorIds) {
    }

    public enum Outcome { FOUND, NO_APPLICATION, NO_STAGE }

    public record Result(Outcome outcome, Page page) {
    }

    /**
     * Every {@link #ANCHOR_STEP}-th row of one order of one stage attempt's matching tasks (its sort key and task id;
     * row 0, {@code STEP}, {@code 2·STEP}, …) and how many rows match. Kept by the stage's {@code tasks_digest}, which
     * the writer stores with the task rows in the same transaction and which changes whenever any of them does, so a
     * set read under the same digest describes exactly the rows this transaction sees. Row {@code offset} is then the
     * {@code offset mod STEP}-th row from anchor {@code offset / STEP} on, found through the order's index.
     */
    record Anchors(long[] keys, long[] taskIds, long matching) {
    }

    /** What one anchor set describes: the stage attempt's rows as of one digest, one filter, one order. */
    private record AnchorKey(long appPk, int stageId, int stageAttemptId, long digest, Sort sort,
                             boolean descending, Set<String> statuses, String executorId) {
    }

    /** Least recently used anchor sets go first. */
    private final Map<AnchorKey, Anchors> anchorSets = Collections.synchronizedMap(
            new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<AnchorKey, Anchors> eldest) {
                    return size() > ANCHOR_SETS;
                }
            });

    private final DataSource dataSource;

    public TaskListQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** @param attemptId null: the attempt-less application, else its newest attempt (as the application page) */
    public Result load(String appId, String attemptId, Request r) throws SQLException {
        return ReadTransaction.run(dataSource, c -> loadIn(c, appId, attemptId, r));
    }

    private Result loadIn(Connection c, String appId, String attemptId, Request r) throws SQLException {
        AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
        if (app == null) {
            return new Result(Outcome.NO_APPLICATION, null);
        }
        Stage stage;
        Long digest;
        try (PreparedStatement ps = c.prepareStatement("SELECT name, status, num_tasks, num_complete_tasks,"
                + " num_failed_tasks, num_killed_tasks, task_detail, kept_tasks, tasks_digest"
                + StageNameColumns.COLUMNS + " FROM stage_attempt s" + StageNameColumns.JOIN
                + " WHERE s.app_pk = ? AND s.stage_id = ? AND s.attempt_id = ?")) {
            ps.setLong(1, app.pk());
            ps.setInt(2, r.stageId());
            ps.setInt(3, r.stageAttemptId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Result(Outcome.NO_STAGE, null);
                }
                long d = rs.getLong("tasks_digest");
                digest = rs.wasNull() ? null : d;
                int kept = rs.getInt("kept_tasks");
                boolean keptKnown = !rs.wasNull();
                stage = new Stage(StageNameColumns.readable(rs), rs.getString("status"), rs.getInt("num_tasks"),
                        rs.getInt("num_complete_tasks"), rs.getInt("num_failed_tasks"), rs.getInt("num_killed_tasks"),
                        rs.getString("task_detail"), keptKnown ? kept : (int) count(c, app.pk(), r, false, 0));
            }
        }
        AnchorKey anchorKey = digest == null ? null : new AnchorKey(app.pk(), r.stageId(),
                r.stageAttemptId(), digest, r.sort(), r.descending(), r.statuses(), r.executorId());
        Anchors anchors = anchorKey != null && r.offset() >= ANCHOR_STEP ? anchors(c, app.pk(), r, anchorKey) : null;
        List<TaskRecord> tasks = rows(c, app.pk(), r, anchors);
        long matching;
        boolean capped = false;
        if (!r.filtered()) {
            matching = stage.keptTasks();
        } else if (tasks.size() < r.length() && (!tasks.isEmpty() || r.offset() == 0)) {
            matching = (long) r.offset() + tasks.size(); // the last page: no count needed
        } else if (anchorKey != null) {
            matching = (anchors != null ? anchors : anchors(c, app.pk(), r, anchorKey)).matching();
        } else {
            long upTo = (long) r.offset() + COUNT_CAP;
            matching = count(c, app.pk(), r, true, upTo);
            capped = matching >= upTo;
        }
        List<String> executors = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT executor_id FROM executor WHERE app_pk = ? ORDER BY ord")) {
            ps.setLong(1, app.pk());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    executors.add(rs.getString(1));
                }
            }
        }
        return new Result(Outcome.FOUND, new Page(app, stage, tasks, matching, capped, executors));
    }

    /**
     * The request's page of task rows, in the caller's transaction: the first {@code r.length()} from its offset
     * (through {@code anchors} when given, see {@link Anchors}). The stage page reads its slowest tasks with it.
     */
    static List<TaskRecord> rows(Connection c, long pk, Request r, Anchors anchors) throws SQLException {
        StringBuilder where = new StringBuilder(" WHERE app_pk = ? AND stage_id = ? AND stage_attempt_id = ?");
        if (!r.statuses().isEmpty()) {
            where.append(" AND status = ANY(?)");
        }
        if (r.executorId() != null) {
            where.append(" AND executor_id = ?");
        }
        String order = order(r);
        int anchor = anchors == null ? -1 : Math.min(r.offset() / ANCHOR_STEP, anchors.keys().length - 1);
        List<TaskRecord> tasks = new ArrayList<>();
        // The page's task ids first, from the index alone (what it skips are index entries, not whole rows), then
        // those rows.
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM task WHERE app_pk = ? AND stage_id = ?"
                + " AND stage_attempt_id = ? AND task_id IN (SELECT task_id FROM task" + where
                + (anchor < 0 ? "" : " AND " + fromAnchor(r)) + order + " LIMIT ? OFFSET ?)" + order)) {
            ps.setLong(1, pk);
            ps.setInt(2, r.stageId());
            ps.setInt(3, r.stageAttemptId());
            int i = bind(c, ps, 4, pk, r);
            if (anchor >= 0) {
                i = bindAnchor(ps, i, r, anchors, anchor);
            }
            ps.setInt(i++, r.length());
            ps.setInt(i, anchor < 0 ? r.offset() : r.offset() - anchor * ANCHOR_STEP);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tasks.add(SnapshotReader.task(rs));
                }
            }
        }
        return tasks;
    }

    private static String order(Request r) {
        String dir = r.descending() ? " DESC" : " ASC";
        return r.sort() == Sort.ID ? " ORDER BY task_id" + dir
                : " ORDER BY " + r.sort().expression + dir + ", task_id" + dir;
    }

    /** Rows at or after an anchor in the request's order: a row comparison the order's index answers. */
    private static String fromAnchor(Request r) {
        String op = r.descending() ? " <= " : " >= ";
        return r.sort() == Sort.ID ? "task_id" + op + "?" : "(" + r.sort().expression + ", task_id)" + op + "(?, ?)";
    }

    private static int bindAnchor(PreparedStatement ps, int first, Request r, Anchors a, int anchor)
            throws SQLException {
        int i = first;
        if (r.sort() != Sort.ID) {
            ps.setLong(i++, a.keys()[anchor]);
        }
        ps.setLong(i++, a.taskIds()[anchor]);
        return i;
    }

    /** The kept anchor set for this digest, filter and order, read (one pass over the order's index) when missing. */
    private Anchors anchors(Connection c, long pk, Request r, AnchorKey key) throws SQLException {
        Anchors kept = anchorSets.get(key);
        if (kept != null) {
            return kept;
        }
        StringBuilder where = new StringBuilder(" WHERE app_pk = ? AND stage_id = ? AND stage_attempt_id = ?");
        if (!r.statuses().isEmpty()) {
            where.append(" AND status = ANY(?)");
        }
        if (r.executorId() != null) {
            where.append(" AND executor_id = ?");
        }
        String keyExpr = r.sort() == Sort.ID ? "task_id" : r.sort().expression;
        String order = order(r);
        long[] keys = new long[16];
        long[] ids = new long[16];
        int n = 0;
        long last = -1;
        try (PreparedStatement ps = c.prepareStatement("SELECT k, task_id, rn FROM (SELECT " + keyExpr
                + " AS k, task_id, row_number() OVER (" + order.substring(1) + ") - 1 AS rn FROM task" + where
                + ") ranked WHERE rn % " + ANCHOR_STEP + " = 0 ORDER BY rn")) {
            bind(c, ps, pk, r);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (n == keys.length) {
                        keys = Arrays.copyOf(keys, n * 2);
                        ids = Arrays.copyOf(ids, n * 2);
                    }
                    keys[n] = rs.getLong(1);
                    ids[n++] = rs.getLong(2);
                    last = rs.getLong(3);
                }
            }
        }
        long matching = 0;
        if (n > 0) {
            // rows from the last anchor on: fewer than one step, read through the same index
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM task" + where + " AND "
                    + fromAnchor(r))) {
                int i = bind(c, ps, pk, r);
                Anchors partial = new Anchors(keys, ids, 0);
                bindAnchor(ps, i, r, partial, n - 1);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    matching = last + rs.getLong(1);
                }
            }
        }
        Anchors a = new Anchors(Arrays.copyOf(keys, n), Arrays.copyOf(ids, n), matching);
        anchorSets.put(key, a);
        return a;
    }

    private static int bind(Connection c, PreparedStatement ps, long pk, Request r) throws SQLException {
        return bind(c, ps, 1, pk, r);
    }

    private static int bind(Connection c, PreparedStatement ps, int first, long pk, Request r) throws SQLException {
        int i = first;
        ps.setLong(i++, pk);
        ps.setInt(i++, r.stageId());
        ps.setInt(i++, r.stageAttemptId());
        if (!r.statuses().isEmpty()) {
            ps.setArray(i++, c.createArrayOf("text", r.statuses().toArray()));
        }
        if (r.executorId() != null) {
            ps.setString(i++, r.executorId());
        }
        return i;
    }

    /** Tasks of the stage (matching the filters when asked), counting at most {@code upTo} when it is positive. */
    private static long count(Connection c, long pk, Request r, boolean filtered, long upTo) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT 1 FROM task WHERE app_pk = ? AND stage_id = ? AND stage_attempt_id = ?");
        if (filtered && !r.statuses().isEmpty()) {
            sql.append(" AND status = ANY(?)");
        }
        if (filtered && r.executorId() != null) {
            sql.append(" AND executor_id = ?");
        }
        if (upTo > 0) {
            sql.append(" LIMIT ").append(upTo);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM (" + sql + ") matching")) {
            Request used = filtered ? r : new Request(r.stageId(), r.stageAttemptId(), 0, 0, r.sort(), false, Set.of(), null);
            bind(c, ps, pk, used);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
