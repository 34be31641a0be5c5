package io.sparkscope.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Set;

/**
 * The deletes that make the database hold exactly the latest snapshot: a row the snapshot no longer lists (a task
 * displaced by a slower one, a finding no longer produced, a batch outside a streaming run's kept window) goes in the
 * same transaction as the upserts. Which rows count as stale depends on the kind of write (a partial snapshot leaves
 * alone what it does not list), and that judgement is all this class holds; {@link SnapshotWriter} decides when.
 */
final class StaleRows {
    private StaleRows() {
    }

    /**
     * Deletes, table by table, the stored rows the snapshot no longer has. Children first, so foreign keys never see
     * a half-deleted parent.
     *
     * @param staged            the tables whose rows this write COPYed into staging tables (compared there)
     * @param shippedTaskStages when not null, the stage attempts whose task rows this write ships: only their stale
     *                          task rows are looked for (by primary-key prefix, not a scan of all the app's tasks).
     *                          Task rows of stages left out because unchanged stay; those of stages no longer in
     *                          the snapshot go with their stage row (ON DELETE CASCADE).
     * @param partial           the snapshot is partial: only stale tasks of its stages and stale findings go
     */
    static void deleteStale(Connection c, long appPk, Map<Table<?>, List<Object[]>> rows, Set<Table<?>> staged,
                                    Set<Long> shippedTaskStages, boolean partial) throws SQLException {
        List<Table<?>> tables = Tables.ALL;
        for (ListIterator<Table<?>> it = tables.listIterator(tables.size()); it.hasPrevious(); ) {
            Table<?> t = it.previous();
            if (partial && Tables.SQL_PLAN_TABLES.contains(t)) {
                deletePlanRowsOfShippedSql(c, appPk, t, rows, staged.contains(t));
                continue;
            }
            if (t == Tables.STREAMING_BATCH) {
                // only the runs the snapshot lists (a partial one: those that changed): others keep their batches
                deleteBatchesOutsideWindows(c, appPk, rows.get(Tables.STREAMING_QUERY));
                continue;
            }
            if (partial && t != Tables.TASK && t != Tables.FINDING) {
                continue; // rows of entities a partial snapshot does not list are not stale: they stay
            }
            if (t == Tables.TASK && shippedTaskStages != null) {
                deleteStaleTasks(c, appPk, rows.get(t), staged.contains(t), shippedTaskStages);
            } else if (staged.contains(t)) {
                indexStaging(c, t);
                try (PreparedStatement ps = c.prepareStatement(t.deleteStaleFromStagingSql())) {
                    ps.setLong(1, appPk);
                    ps.executeUpdate();
                }
            } else {
                deleteStale(c, appPk, t, rows.get(t));
            }
        }
    }

    /**
     * Stale plan rows (nodes, edges, node metrics) of the SQL executions a partial snapshot lists: each comes with its
     * whole plan, which an adaptive re-plan may have changed since the stored one. Executions it does not list keep
     * their stored plan.
     */
    private static void deletePlanRowsOfShippedSql(Connection c, long appPk, Table<?> t,
                                                   Map<Table<?>, List<Object[]>> rows, boolean staged)
            throws SQLException {
        List<Object[]> executions = rows.get(Tables.SQL_EXECUTION);
        if (executions.isEmpty()) {
            return;
        }
        Object[] ids = new Object[executions.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = executions.get(i)[0]; // execution_id, the sql_execution row's only key
        }
        if (staged) {
            indexStaging(c, t);
        }
        try (PreparedStatement ps = c.prepareStatement(t.deleteStaleWithinSql(staged))) {
            ps.setLong(1, appPk);
            ps.setArray(2, Column.array(c, t.keys.get(0).type().elementType(), ids));
            if (!staged) {
                bindKeyArrays(c, ps, t, rows.get(t), 3);
            }
            ps.executeUpdate();
        }
    }

    /**
     * Batch rows outside each run's kept window (older than its first kept batch, or newer than its last), by
     * primary-key prefix; the batches of runs gone from the snapshot go with their run row (ON DELETE CASCADE).
     * The rows to compare are the run rows: a batch row is never stale inside its run's window.
     */
    private static void deleteBatchesOutsideWindows(Connection c, long appPk, List<Object[]> runRows)
            throws SQLException {
        if (runRows.isEmpty()) {
            return;
        }
        List<Column<Tables.Ordered<io.sparkscope.core.model.StreamingQuerySummary>>> cols =
                Tables.STREAMING_QUERY.columns();
        int runCol = index(cols, "run_id");
        int firstCol = index(cols, "kept_first_batch_id");
        int lastCol = index(cols, "kept_last_batch_id");
        String[] runs = new String[runRows.size()];
        Long[] firsts = new Long[runRows.size()];
        Long[] lasts = new Long[runRows.size()];
        for (int i = 0; i < runs.length; i++) {
            Object[] row = runRows.get(i);
            runs[i] = (String) row[runCol];
            // an empty window keeps nothing: first > last
            firsts[i] = row[firstCol] == null ? Long.MAX_VALUE : (Long) row[firstCol];
            lasts[i] = row[lastCol] == null ? Long.MIN_VALUE : (Long) row[lastCol];
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM streaming_batch t USING unnest(CAST(? AS text[]),"
                + " CAST(? AS bigint[]), CAST(? AS bigint[])) AS k(run_id, first_id, last_id) WHERE t.app_pk = ?"
                + " AND t.run_id = k.run_id AND (t.batch_id < k.first_id OR t.batch_id > k.last_id)")) {
            ps.setArray(1, c.createArrayOf("text", runs));
            ps.setArray(2, c.createArrayOf("int8", firsts));
            ps.setArray(3, c.createArrayOf("int8", lasts));
            ps.setLong(4, appPk);
            ps.executeUpdate();
        }
    }

    private static int index(List<? extends Column<?>> cols, String name) {
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("no column " + name);
    }

    /** Stale task rows of the shipped stage attempts only: a join on the primary key's prefix. */
    private static void deleteStaleTasks(Connection c, long appPk, List<Object[]> rows, boolean staged,
                                         Set<Long> stages) throws SQLException {
        if (stages.isEmpty()) {
            return;
        }
        Table<?> t = Tables.TASK;
        String keys = staged ? t.stagingName() + " k"
                : "unnest(CAST(? AS integer[]), CAST(? AS integer[]), CAST(? AS bigint[])) AS k(stage_id,"
                + " stage_attempt_id, task_id)";
        if (staged) {
            indexStaging(c, t);
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM task t USING unnest(CAST(? AS integer[]),"
                + " CAST(? AS integer[])) AS u(stage_id, attempt_id) WHERE t.app_pk = ? AND t.stage_id = u.stage_id"
                + " AND t.stage_attempt_id = u.attempt_id AND NOT EXISTS (SELECT 1 FROM " + keys
                + " WHERE t.stage_id = k.stage_id AND t.stage_attempt_id = k.stage_attempt_id"
                + " AND t.task_id = k.task_id)")) {
            SnapshotRows.bindStageKeys(c, ps, stages);
            ps.setLong(3, appPk);
            if (!staged) {
                bindKeyArrays(c, ps, t, rows, 4);
            }
            ps.executeUpdate();
        }
    }

    static void deleteStale(Connection c, long appPk, Table<?> table, List<Object[]> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.deleteStaleSql())) {
            ps.setLong(1, appPk);
            bindKeyArrays(c, ps, table, rows, 2);
            ps.executeUpdate();
        }
    }

    /**
     * Binds the key columns of the snapshot's rows as one array per key column, from parameter {@code firstParam} on:
     * every stale-row delete compares the stored keys with the shipped ones this way, one statement for all rows.
     */
    private static void bindKeyArrays(Connection c, PreparedStatement ps, Table<?> table, List<Object[]> rows,
                                      int firstParam) throws SQLException {
        for (int k = 0; k < table.keys.size(); k++) {
            Column<?> key = table.keys.get(k);
            Object[] values = new Object[rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                values[r] = rows.get(r)[k];
            }
            ps.setArray(k + firstParam, Column.array(c, key.type().elementType(), values));
        }
    }

    /** Indexes a staging table on its keys before a delete looks rows up in it. */
    private static void indexStaging(Connection c, Table<?> t) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(t.indexStagingSql());
        }
    }
}
