package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import org.postgresql.PGConnection;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Writes one application snapshot and its findings in one transaction. This class is the transaction: the lock, the
 * checks against what is stored, the order of the steps, commit or rollback. The steps that need a page of their own
 * live beside it: {@link UnchangedRows} (what need not be shipped), {@link StaleRows} (what must be deleted) and
 * {@link CopyRows} (how big tables travel); small tables travel in JDBC batches here.
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

    private final int batchSize;
    private final int copyThreshold;
    /** Whether stages whose kept tasks did not change since the stored snapshot skip their task rows (see TaskDigest). */
    private final boolean skipUnchangedTasks;
    /** What this writer's partial writes left in the database, so the next one's efficiency figures need not read it. */
    private final EfficiencyFigures.Memory efficiencyMemory = new EfficiencyFigures.Memory();
    /** The last month whose task partition this writer made sure of ({@link #ensureTaskPartition}). */
    private volatile long ensuredMonth = Long.MIN_VALUE;

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
        if (autoCommit) {
            ensureTaskPartition(c, snapshot);
        }
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

    /**
     * Creates the task partition of the application's start month before the write, in a transaction of its own:
     * creating one briefly locks the task table, which the write's long transaction must not hold. Only needed once
     * per month per writer; without it (a caller's own transaction, or a partition dropped meanwhile) the task rows
     * still go in, to the default partition.
     */
    private void ensureTaskPartition(Connection c, AppSnapshot snapshot) throws SQLException {
        long month = TaskPartitions.monthOfStart(snapshot.startTime());
        if (month != ensuredMonth) {
            try {
                TaskPartitions.ensure(c, month);
            } catch (SQLException e) {
                // A schema from before partitioning (its upgrade left to an administrator) has no such function and
                // no partitions to create: the write goes on as it always did.
                if (!"42883".equals(e.getSQLState())) {
                    throw e;
                }
            }
            ensuredMonth = month;
        }
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
        Map<Long, Long> storedDigests = existing.isPresent() ? UnchangedRows.storedTaskDigests(c, appPk, digests) : Map.of();
        Set<Long> unchanged = skipUnchangedTasks ? UnchangedRows.unchangedTaskStages(digests, storedDigests) : Set.of();
        Map<String, Long> batchesStored = existing.isPresent() ? UnchangedRows.storedBatchWindows(c, appPk, s) : Map.of();
        Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, findings, digests, unchanged, batchesStored);
        if (existing.isPresent()) {
            // the rows are sorted, staged and compared with what is stored: each is read more than once
            SnapshotRows.materialised(rows);
        }
        Map<Table<?>, List<Object[]>> ofNewStages = existing.isPresent()
                ? UnchangedRows.rowsOfNewStages(rows, storedDigests) : Map.of();
        // No stale task row to look for in stage attempts stored without tasks, nor in those not stored at all (a task
        // row needs its stage row): on a driver running many small jobs most stages of a periodic write are new.
        Set<Long> noStaleTasks = new java.util.HashSet<>(unchanged);
        noStaleTasks.addAll(UnchangedRows.stagesWithoutStoredTasks(storedDigests));
        for (Long key : digests.keySet()) {
            if (!storedDigests.containsKey(key)) {
                noStaleTasks.add(key);
            }
        }
        Set<Table<?>> bulk = CopyRows.bulkTables(c, rows, copyThreshold);
        long n = 0;
        if (existing.isEmpty()) {
            // Nothing stored and, under the lock, nobody else writing this app: every row is an insert, so the big
            // tables are COPYed straight in (parents first: Tables.ALL order). Nothing stale to delete.
            for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
                n += bulk.contains(e.getKey())
                        ? CopyRows.copyInto(c, appPk, e.getKey(), e.getValue())
                        : upsertBatched(c, appPk, e.getKey(), e.getValue());
            }
        } else {
            for (Table<?> t : bulk) {
                CopyRows.copyToStaging(c, t, rows.get(t));
            }
            StaleRows.deleteStale(c, appPk, rows, bulk,
                    skipUnchangedTasks || s.partial() ? UnchangedRows.shippedStages(s, noStaleTasks) : null,
                    s.partial());
            for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
                n += bulk.contains(e.getKey())
                        ? CopyRows.upsertFromStaging(c, appPk, e.getKey(), e.getValue())
                        : upsertBatched(c, appPk, e.getKey(), e.getValue());
                // after their stage rows (Tables.ALL order, parents first) and after the stale-row deletes
                List<Object[]> fresh = ofNewStages.getOrDefault(e.getKey(), List.of());
                if (!fresh.isEmpty()) {
                    n += fresh.size() >= copyThreshold && c.isWrapperFor(PGConnection.class)
                            ? CopyRows.copyInto(c, appPk, e.getKey(), fresh)
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

    static void bindRow(Connection c, PreparedStatement ps, long appPk, List<? extends Column<?>> cols, Object[] row)
            throws SQLException {
        ps.setLong(1, appPk);
        for (int i = 0; i < cols.size(); i++) {
            cols.get(i).bind(c, ps, i + 2, row[i]);
        }
    }
}
