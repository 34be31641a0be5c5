package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Writes one application snapshot and its findings in one transaction.
 *
 * <ul>
 *   <li>Every row is an upsert on its natural key (docs/architecture.md, "Identity"), so replays and retries never duplicate; an
 *       unchanged row is not rewritten at all (the upsert's {@code WHERE … IS DISTINCT FROM}). A write that changed
 *       no row at all is reported {@link WriteResult.Outcome#UNCHANGED} (PostgreSQL's own row counts tell).</li>
 *   <li>Child rows the snapshot no longer has (tasks displaced by slower ones, findings no longer produced, …) are
 *       deleted in the same transaction, so the database holds exactly the latest snapshot. A
 *       {@linkplain AppSnapshot#partial() partial} snapshot (a live listener's: only what changed since its last
 *       write, or its window of recent entities) deletes nothing it does not list: jobs, stages, SQL executions,
 *       executors and configuration absent from it stay as stored. Within a stage it lists, stale task rows still
 *       go (the stage comes with all its kept tasks), and the findings are always the whole set.</li>
 *   <li>The task rows of a stage attempt whose kept tasks did not change since the stored snapshot (same
 *       {@link TaskDigest} as stored in its stage row) are not shipped at all, and kept out of the stale-row delete:
 *       a running application is rewritten every few seconds, and most of its up to 10 000 tasks per stage belong
 *       to stages that finished long ago.</li>
 *   <li>Writers of the same application are serialised by a transaction-scoped advisory lock on the app's natural
 *       key (no deadlocks between their row locks, no lost update); writers of different apps never wait on each
 *       other. Under that lock a snapshot older than the stored one is skipped ({@link WriteResult.Outcome}).</li>
 *   <li>Big tables (at least {@link #DEFAULT_COPY_THRESHOLD} rows: tasks, stage statistics) travel by {@code COPY}
 *       into a session-private staging table ({@code ON COMMIT DROP}), then one {@code INSERT … SELECT … ON
 *       CONFLICT … DO UPDATE … WHERE … IS DISTINCT FROM} and one {@code DELETE … WHERE NOT EXISTS} per table: the
 *       same upsert and stale-row rules as the batched path, but one statement (one plan, one executor start-up)
 *       for all rows instead of one per 128-row batch. Values are sent as binary COPY data, never spliced into SQL
 *       ({@link CopyBinary}).</li>
 *   <li>Small tables, and every table when the connection is not pgjdbc's, travel in JDBC batches. Add
 *       {@code reWriteBatchedInserts=true} to the pgjdbc URL (as {@link StoreDataSources} does) so the driver folds
 *       each batch into multi-row INSERTs.</li>
 * </ul>
 */
public final class SnapshotWriter {
    /** Namespace of our advisory locks (two-int form: never collides with single-bigint locks of other software). */
    static final int LOCK_NAMESPACE = 0x53534350; // "SSCP"

    /** Tables with at least this many rows in a snapshot go through COPY; below it a batch is as cheap. */
    static final int DEFAULT_COPY_THRESHOLD = 256;

    private static final int COPY_CHUNK_BYTES = 1 << 16;

    private final int batchSize;
    private final int copyThreshold;
    /** Whether stages whose kept tasks did not change since the stored snapshot skip their task rows (see TaskDigest). */
    private final boolean skipUnchangedTasks;
    /** What this writer's partial writes left in the database, so the next one's efficiency figures need not read it. */
    private final EfficiencyFigures.Memory efficiencyMemory = new EfficiencyFigures.Memory();

    public SnapshotWriter() {
        this(1000);
    }

    public SnapshotWriter(int batchSize) {
        this(batchSize, DEFAULT_COPY_THRESHOLD);
    }

    /** {@code copyThreshold}: 0 sends every non-empty table through COPY, {@link Integer#MAX_VALUE} none (tests). */
    SnapshotWriter(int batchSize, int copyThreshold) {
        this(batchSize, copyThreshold, true);
    }

    /** {@code skipUnchangedTasks} false ships every task row every time (the behaviour before V4; benchmarks). */
    SnapshotWriter(int batchSize, int copyThreshold, boolean skipUnchangedTasks) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be ≥ 1, got " + batchSize);
        }
        if (copyThreshold < 0) {
            throw new IllegalArgumentException("copyThreshold must be ≥ 0, got " + copyThreshold);
        }
        this.batchSize = batchSize;
        this.copyThreshold = copyThreshold;
        this.skipUnchangedTasks = skipUnchangedTasks;
    }

    /** What this writer remembers for its partial writes' efficiency figures (tests). */
    EfficiencyFigures.Memory efficiencyMemory() {
        return efficiencyMemory;
    }

    /** Writes unless the database already holds a newer snapshot of this application. */
    public WriteResult write(DataSource dataSource, AppSnapshot snapshot, List<Finding> findings)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return write(c, snapshot, findings);
        }
    }

    /**
     * As {@link #write(DataSource, AppSnapshot, List)} on a given connection: runs its own transaction on it
     * (commit or rollback) and restores the connection's auto-commit mode afterwards.
     */
    public WriteResult write(Connection c, AppSnapshot snapshot, List<Finding> findings) throws SQLException {
        return transaction(c, snapshot, findings, false);
    }

    /** Writes even over a newer stored snapshot (e.g. an explicit re-import the user asked for). */
    public WriteResult overwrite(DataSource dataSource, AppSnapshot snapshot, List<Finding> findings)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return transaction(c, snapshot, findings, true);
        }
    }

    private WriteResult transaction(Connection c, AppSnapshot snapshot, List<Finding> findings, boolean force)
            throws SQLException {
        List<Finding> fs = findings == null ? List.of() : findings;
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        WriteResult result;
        Remember remember = new Remember();
        try {
            result = writeLocked(c, snapshot, fs, force, remember);
            c.commit();
            remember.committed(efficiencyMemory);
        } catch (SQLException | RuntimeException e) {
            if (remember.pk >= 0) {
                efficiencyMemory.forget(remember.pk); // the write did not happen: the database holds what it held
            }
            // On a connection the database just lost, these fail too: the first error is the one that says why.
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            try {
                c.setAutoCommit(autoCommit);
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        c.setAutoCommit(autoCommit);
        return result;
    }

    /** What to remember once the write commits (see {@link EfficiencyFigures.Memory}). */
    private static final class Remember {
        long pk = -1;
        long version;
        EfficiencyFigures.Stored stored;

        void committed(EfficiencyFigures.Memory memory) {
            if (pk >= 0 && stored != null) {
                memory.remember(pk, version, stored);
            }
        }
    }

    private WriteResult writeLocked(Connection c, AppSnapshot s, List<Finding> findings, boolean force,
                                    Remember remember) throws SQLException {
        lock(c, s.appId(), s.attemptId());
        Optional<ApplicationRow.Existing> existing = ApplicationRow.find(c, s.appId(), s.attemptId());
        if (existing.isPresent() && otherApplication(existing.get(), s)) {
            // Not even when forced: rows of two applications under one key would make one that never ran.
            return new WriteResult(existing.get().pk(), WriteResult.Outcome.OTHER_APPLICATION, 0);
        }
        if (!force && existing.isPresent() && isStale(existing.get(), s)) {
            return new WriteResult(existing.get().pk(), WriteResult.Outcome.SKIPPED_STALE, 0);
        }
        // Whether the write changed any row, for UNCHANGED, needs PostgreSQL's row counters before and after it
        // (two more statements). When the stored event count differs from the snapshot's, the application row's
        // upsert is bound to rewrite that row (event_count is one of the values it compares), so the write changes a
        // row and the counters are not needed: a live listener's periodic write always brings new events.
        boolean sameEvents = existing.isPresent() && existing.get().eventCount() == s.eventCount();
        long changesBefore = sameEvents ? rowChanges(c) : -1;
        EfficiencyFigures.Figures figures = EfficiencyFigures.of(c, existing, s, efficiencyMemory);
        ApplicationRow.Upserted app = ApplicationRow.upsert(c, s, findings,
                existing.map(e -> OptionalLong.of(e.pk())).orElse(OptionalLong.empty()), figures.efficiency());
        long appPk = app.pk();
        remember.pk = appPk;
        remember.stored = figures.after();
        // not rewritten (-1): the row keeps the version it had (only an existing row can be left as it was)
        remember.version = app.version() >= 0 ? app.version() : existing.map(ApplicationRow.Existing::version)
                .orElse(-1L);
        Map<Long, Long> digests = SnapshotRows.taskDigests(s);
        Map<Long, Long> storedDigests = existing.isPresent() ? storedTaskDigests(c, appPk, digests) : Map.of();
        Set<Long> unchanged = skipUnchangedTasks ? unchangedTaskStages(digests, storedDigests) : Set.of();
        Map<String, Long> batchesStored = existing.isPresent() ? storedBatchWindows(c, appPk, s) : Map.of();
        Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, findings, digests, unchanged, batchesStored);
        Map<Table<?>, List<Object[]>> ofNewStages = existing.isPresent()
                ? rowsOfNewStages(rows, storedDigests.keySet()) : Map.of();
        Set<Table<?>> bulk = bulkTables(c, rows);
        long n = 0;
        if (existing.isEmpty()) {
            // Nothing stored and, under the lock, nobody else writing this app: every row is an insert, so the big
            // tables are COPYed straight in (parents first: Tables.ALL order). Nothing stale to delete.
            for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
                n += bulk.contains(e.getKey())
                        ? copyInto(c, appPk, e.getKey(), e.getValue())
                        : upsertBatched(c, appPk, e.getKey(), e.getValue());
            }
        } else {
            for (Table<?> t : bulk) {
                copyToStaging(c, t, rows.get(t));
            }
            deleteStale(c, appPk, rows, bulk, skipUnchangedTasks || s.partial() ? shippedStages(s, unchanged) : null,
                    s.partial());
            for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
                n += bulk.contains(e.getKey())
                        ? upsertFromStaging(c, appPk, e.getKey(), e.getValue())
                        : upsertBatched(c, appPk, e.getKey(), e.getValue());
                // after their stage rows (Tables.ALL order, parents first) and after the stale-row deletes
                List<Object[]> fresh = ofNewStages.getOrDefault(e.getKey(), List.of());
                if (!fresh.isEmpty()) {
                    n += fresh.size() >= copyThreshold && c.isWrapperFor(PGConnection.class)
                            ? copyInto(c, appPk, e.getKey(), fresh)
                            : upsertBatched(c, appPk, e.getKey(), fresh);
                }
            }
        }
        if (existing.isEmpty() || !s.partial() || !rows.get(Tables.EXECUTOR).isEmpty()) {
            // a partial snapshot that lists no executor left them all as stored: their counts stand
            ExecutorCounts.refresh(c, appPk);
        }
        boolean noRowChanged = changesBefore >= 0 && rowChanges(c) == changesBefore;
        // (a new application, or one whose event count moved, always changed a row: noRowChanged stays false)
        return new WriteResult(appPk, noRowChanged ? WriteResult.Outcome.UNCHANGED : WriteResult.Outcome.WRITTEN, n);
    }

    /**
     * PostgreSQL's count of the rows this session inserted, updated or deleted in the store's tables (the counters
     * behind {@code pg_stat_xact_user_tables}, for the tables on the search path; the session-private staging tables
     * are temporary and left out), or -1 where the server keeps no counts ({@code track_counts} off). Every upsert
     * skips rows whose values are already stored and every stale-row delete finds nothing when nothing is stale, so
     * the count does not move during a rewrite of what the database already holds. Only its change within one
     * transaction means anything: it may still include earlier transactions of the session that the server has not
     * yet folded into its statistics (it does so between transactions, at most once a second).
     */
    static long rowChanges(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT current_setting('track_counts') = 'on',"
                + " coalesce(sum(pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid)"
                + " + pg_stat_get_xact_tuples_deleted(c.oid)), 0) FROM pg_class c WHERE c.relkind = 'r'"
                + " AND c.relpersistence = 'p' AND c.relnamespace = ANY (CAST(current_schemas(false) AS regnamespace[]))");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getBoolean(1) ? rs.getLong(2) : -1;
        }
    }

    /** Tables with enough rows to go through COPY (none when the connection is not pgjdbc's). */
    private Set<Table<?>> bulkTables(Connection c, Map<Table<?>, List<Object[]>> rows) throws SQLException {
        Set<Table<?>> bulk = new HashSet<>();
        if (c.isWrapperFor(PGConnection.class)) {
            rows.forEach((t, list) -> {
                if (!list.isEmpty() && list.size() >= copyThreshold) {
                    bulk.add(t);
                }
            });
        }
        return bulk;
    }

    /** COPYs the rows of a brand-new application straight into the child table. */
    static long copyInto(Connection c, long appPk, Table<?> table, List<Object[]> rows) throws SQLException {
        copy(c, table.copyIntoSql() + BINARY, appPk, table.columns(), rows);
        return rows.size();
    }

    /** COPYs the rows into the table's staging table (created here, dropped at commit). */
    static void copyToStaging(Connection c, Table<?> table, List<Object[]> rows) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(table.createStagingSql());
        }
        copy(c, table.copySql() + BINARY, null, table.columns(), rows);
    }

    /** Binary COPY ({@link CopyBinary}): no number or array is printed here and parsed again by the server. */
    private static final String BINARY = " (FORMAT binary)";

    /** {@code appPk} not null: each row starts with it (COPY straight into a child table). */
    private static void copy(Connection c, String sql, Long appPk, List<? extends Column<?>> cols, List<Object[]> rows)
            throws SQLException {
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        try {
            CopyBinary out = new CopyBinary(COPY_CHUNK_BYTES + 4096);
            out.header();
            for (Object[] row : rows) {
                out.row(appPk, cols, row);
                if (out.length() >= COPY_CHUNK_BYTES) {
                    send(in, out);
                }
            }
            out.trailer();
            send(in, out);
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy(); // leaves the transaction failed; the caller rolls back
            }
        }
    }

    private static void send(CopyIn in, CopyBinary out) throws SQLException {
        if (out.length() > 0) {
            in.writeToCopy(out.bytes(), 0, out.length());
            out.reset();
        }
    }

    private static long upsertFromStaging(Connection c, long appPk, Table<?> table, List<Object[]> rows)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.upsertFromStagingSql())) {
            ps.setLong(1, appPk);
            ps.executeUpdate();
        }
        return rows.size();
    }

    /**
     * The stored application is another one than the snapshot's although id and attempt agree: it started at another
     * time. Every way in (listener, import, fetch) takes the start from the application's start event, so copies of
     * one application agree on it; an unknown start on either side proves nothing.
     */
    static boolean otherApplication(ApplicationRow.Existing stored, AppSnapshot incoming) {
        return stored.startTime() > 0 && incoming.startTime() > 0 && stored.startTime() != incoming.startTime();
    }

    static boolean isStale(ApplicationRow.Existing stored, AppSnapshot incoming) {
        return stored.eventCount() > incoming.eventCount() || (stored.complete() && !incoming.complete());
    }

    /**
     * Takes the lock every writer of this application holds while it writes (released when the transaction ends),
     * for other changes to the application's rows, such as pruning, that must not interleave with a write.
     */
    public static void lockApplication(Connection c, String appId, String attemptId) throws SQLException {
        lock(c, appId, attemptId);
    }

    static void lock(Connection c, String appId, String attemptId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?, hashtext(?))")) {
            ps.setInt(1, LOCK_NAMESPACE);
            // A hash collision only makes two different apps take turns; correctness never depends on it.
            ps.setString(2, appId + '\n' + ApplicationRow.attemptKey(attemptId));
            ps.execute();
        }
    }

    private long upsertBatched(Connection c, long appPk, Table<?> table, List<Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        List<? extends Column<?>> cols = table.columns();
        try (PreparedStatement ps = c.prepareStatement(table.upsertSql())) {
            int pending = 0;
            for (Object[] row : rows) {
                bindRow(c, ps, appPk, cols, row);
                ps.addBatch();
                if (++pending == batchSize) {
                    ps.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                ps.executeBatch();
            }
        }
        return rows.size();
    }

    private static Set<Long> shippedStages(AppSnapshot s, Set<Long> unchanged) {
        Set<Long> out = new HashSet<>();
        for (var st : s.stages()) {
            long key = SnapshotRows.stageKey(st.stageId(), st.attemptId());
            if (!unchanged.contains(key)) {
                out.add(key);
            }
        }
        return out;
    }

    /**
     * Stage attempts whose kept tasks are exactly what the database holds (same {@link TaskDigest} as stored with
     * the stage row): their task rows are neither shipped nor compared again.
     */
    private static Set<Long> unchangedTaskStages(Map<Long, Long> digests, Map<Long, Long> storedDigests) {
        Set<Long> out = new HashSet<>();
        storedDigests.forEach((key, stored) -> {
            Long digest = digests.get(key);
            if (stored != null && digest != null && digest.longValue() == stored) {
                out.add(key);
            }
        });
        return out;
    }

    /**
     * The statistics and task rows of stage attempts the database does not hold yet, taken out of {@code rows}: no
     * stored row can match them (they go when their stage row goes: a foreign key for tasks, a trigger for
     * statistics), so they go straight in (COPY into
     * the table, or a batch) instead of through a staging table and an upsert that compares each with nothing. On a
     * driver running many small jobs nearly every stage of a periodic write is new, and these rows (38 statistics rows
     * per stage) were most of the database's work per write.
     */
    private static Map<Table<?>, List<Object[]>> rowsOfNewStages(Map<Table<?>, List<Object[]>> rows,
                                                                 Set<Long> storedStages) {
        Map<Table<?>, List<Object[]>> out = new java.util.HashMap<>();
        for (Table<?> t : List.<Table<?>>of(Tables.STAGE_STATISTICS, Tables.TASK)) {
            List<Object[]> all = rows.get(t);
            if (all == null || all.isEmpty()) {
                continue;
            }
            List<Object[]> stored = new java.util.ArrayList<>(all.size());
            List<Object[]> fresh = new java.util.ArrayList<>();
            for (Object[] row : all) {
                // the first two key columns of both tables: stage_id, stage_attempt_id
                long key = SnapshotRows.stageKey(((Number) row[0]).intValue(), ((Number) row[1]).intValue());
                (storedStages.contains(key) ? stored : fresh).add(row);
            }
            if (!fresh.isEmpty()) {
                rows.put(t, stored);
                out.put(t, fresh);
            }
        }
        return out;
    }

    /**
     * The stored stage rows of the snapshot's stage attempts, with their task digest (null when none is stored), by
     * {@link SnapshotRows#stageKey}. Read under the app's advisory lock, in the writing transaction, so nobody changes
     * them in between. Only the snapshot's own stage attempts are looked up (by primary key): reading every stage row
     * of the application made each periodic write of a long-running driver cost more the longer it ran.
     */
    private static Map<Long, Long> storedTaskDigests(Connection c, long appPk, Map<Long, Long> digests)
            throws SQLException {
        Map<Long, Long> out = new java.util.HashMap<>();
        if (digests.isEmpty()) {
            return out;
        }
        Integer[] ids = new Integer[digests.size()];
        Integer[] attempts = new Integer[digests.size()];
        int i = 0;
        for (long key : digests.keySet()) {
            ids[i] = (int) (key >> 32);
            attempts[i++] = (int) key;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT s.stage_id, s.attempt_id, s.tasks_digest"
                + " FROM stage_attempt s JOIN unnest(CAST(? AS integer[]), CAST(? AS integer[])) AS u(stage_id,"
                + " attempt_id) ON s.stage_id = u.stage_id AND s.attempt_id = u.attempt_id WHERE s.app_pk = ?")) {
            ps.setArray(1, c.createArrayOf("integer", ids));
            ps.setArray(2, c.createArrayOf("integer", attempts));
            ps.setLong(3, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long key = SnapshotRows.stageKey(rs.getInt("stage_id"), rs.getInt("attempt_id"));
                    long digest = rs.getLong("tasks_digest");
                    out.put(key, rs.wasNull() ? null : digest);
                }
            }
        }
        return out;
    }

    /** Children first, so foreign keys never see a half-deleted parent. */
    private static void deleteStale(Connection c, long appPk, Map<Table<?>, List<Object[]>> rows, Set<Table<?>> staged)
            throws SQLException {
        deleteStale(c, appPk, rows, staged, null, false);
    }

    /**
     * @param shippedTaskStages when not null, the stage attempts whose task rows this write ships: only their stale
     *                          task rows are looked for (by primary-key prefix, not a scan of all the app's tasks).
     *                          Task rows of stages left out because unchanged stay; those of stages no longer in
     *                          the snapshot go with their stage row (ON DELETE CASCADE).
     * @param partial           the snapshot is partial: only stale tasks of its stages and stale findings go
     */
    private static void deleteStale(Connection c, long appPk, Map<Table<?>, List<Object[]>> rows, Set<Table<?>> staged,
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
                try (Statement st = c.createStatement()) {
                    st.execute(t.indexStagingSql());
                }
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
            try (Statement st = c.createStatement()) {
                st.execute(t.indexStagingSql());
            }
        }
        try (PreparedStatement ps = c.prepareStatement(t.deleteStaleWithinSql(staged))) {
            ps.setLong(1, appPk);
            ps.setArray(2, Column.array(c, t.keys.get(0).type().elementType(), ids));
            if (!staged) {
                List<Object[]> own = rows.get(t);
                for (int k = 0; k < t.keys.size(); k++) {
                    Object[] values = new Object[own.size()];
                    for (int r = 0; r < own.size(); r++) {
                        values[r] = own.get(r)[k];
                    }
                    ps.setArray(k + 3, Column.array(c, t.keys.get(k).type().elementType(), values));
                }
            }
            ps.executeUpdate();
        }
    }

    /**
     * Per streaming query run of the snapshot, the newest batch id already stored when the stored window (as its run
     * row says) starts at or before the snapshot's: every kept batch up to it is in the database and unchanged, since
     * a batch never changes once reported. A run whose window went backwards (an older snapshot written over a newer
     * one) ships all its batches.
     */
    private static Map<String, Long> storedBatchWindows(Connection c, long appPk, AppSnapshot s) throws SQLException {
        if (s.streamingQueries().isEmpty()) {
            return Map.of();
        }
        Map<String, Long> firstKept = new java.util.HashMap<>();
        for (var q : s.streamingQueries()) {
            if (!q.recentBatches().isEmpty()) {
                firstKept.put(q.runId(), q.recentBatches().get(0).batchId());
            }
        }
        Map<String, Long> out = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT run_id, kept_first_batch_id, kept_last_batch_id"
                + " FROM streaming_query WHERE app_pk = ? AND kept_last_batch_id IS NOT NULL")) {
            ps.setLong(1, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Long first = firstKept.get(rs.getString(1));
                    if (first != null && rs.getLong(2) <= first) {
                        out.put(rs.getString(1), rs.getLong(3));
                    }
                }
            }
        }
        return out;
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
            try (Statement st = c.createStatement()) {
                st.execute(t.indexStagingSql());
            }
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM task t USING unnest(CAST(? AS integer[]),"
                + " CAST(? AS integer[])) AS u(stage_id, attempt_id) WHERE t.app_pk = ? AND t.stage_id = u.stage_id"
                + " AND t.stage_attempt_id = u.attempt_id AND NOT EXISTS (SELECT 1 FROM " + keys
                + " WHERE t.stage_id = k.stage_id AND t.stage_attempt_id = k.stage_attempt_id"
                + " AND t.task_id = k.task_id)")) {
            Integer[] ids = new Integer[stages.size()];
            Integer[] attempts = new Integer[stages.size()];
            int i = 0;
            for (long key : stages) {
                ids[i] = (int) (key >> 32);
                attempts[i++] = (int) key;
            }
            ps.setArray(1, c.createArrayOf("integer", ids));
            ps.setArray(2, c.createArrayOf("integer", attempts));
            ps.setLong(3, appPk);
            if (!staged) {
                for (int k = 0; k < t.keys.size(); k++) {
                    Column<?> key = t.keys.get(k);
                    Object[] values = new Object[rows.size()];
                    for (int r = 0; r < rows.size(); r++) {
                        values[r] = rows.get(r)[k];
                    }
                    ps.setArray(k + 4, Column.array(c, key.type().elementType(), values));
                }
            }
            ps.executeUpdate();
        }
    }

    static void deleteStale(Connection c, long appPk, Table<?> table, List<Object[]> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.deleteStaleSql())) {
            ps.setLong(1, appPk);
            for (int k = 0; k < table.keys.size(); k++) {
                Column<?> key = table.keys.get(k);
                Object[] values = new Object[rows.size()];
                for (int r = 0; r < rows.size(); r++) {
                    values[r] = rows.get(r)[k];
                }
                ps.setArray(k + 2, Column.array(c, key.type().elementType(), values));
            }
            ps.executeUpdate();
        }
    }

    static void bindRow(Connection c, PreparedStatement ps, long appPk, List<? extends Column<?>> cols, Object[] row)
            throws SQLException {
        ps.setLong(1, appPk);
        for (int i = 0; i < cols.size(); i++) {
            cols.get(i).bind(c, ps, i + 2, row[i]);
        }
    }

    /**
     * The naive way, kept only for the benchmark that justifies batching: auto-commit, one statement and one round
     * trip per row, no lock. Produces the same rows as {@link #write}. Do not use it in production code.
     */
    public WriteResult writeRowByRow(DataSource dataSource, AppSnapshot s, List<Finding> findings)
            throws SQLException {
        List<Finding> fs = findings == null ? List.of() : findings;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            Optional<ApplicationRow.Existing> existing = ApplicationRow.find(c, s.appId(), s.attemptId());
            long appPk = ApplicationRow.upsert(c, s, fs,
                    existing.map(e -> OptionalLong.of(e.pk())).orElse(OptionalLong.empty()));
            Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, fs);
            if (existing.isPresent()) {
                deleteStale(c, appPk, rows, Set.of());
            }
            long n = 0;
            for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
                List<? extends Column<?>> cols = e.getKey().columns();
                for (Object[] row : e.getValue()) {
                    try (PreparedStatement ps = c.prepareStatement(e.getKey().upsertSql())) {
                        bindRow(c, ps, appPk, cols, row);
                        ps.executeUpdate();
                    }
                    n++;
                }
            }
            ExecutorCounts.refresh(c, appPk);
            return new WriteResult(appPk, WriteResult.Outcome.WRITTEN, n);
        }
    }
}
