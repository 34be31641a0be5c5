package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Writes one application snapshot and its findings in one transaction.
 *
 * <ul>
 *   <li>Every row is an upsert on its natural key (DESIGN.md §4), so replays and retries never duplicate; an
 *       unchanged row is not rewritten at all (the upsert's {@code WHERE … IS DISTINCT FROM}).</li>
 *   <li>Child rows the snapshot no longer has (tasks displaced by slower ones, findings no longer produced, …) are
 *       deleted in the same transaction, so the database holds exactly the latest snapshot.</li>
 *   <li>Writers of the same application are serialised by a transaction-scoped advisory lock on the app's natural
 *       key (no deadlocks between their row locks, no lost update); writers of different apps never wait on each
 *       other. Under that lock a snapshot older than the stored one is skipped ({@link WriteResult.Outcome}).</li>
 *   <li>Rows travel in JDBC batches. Add {@code reWriteBatchedInserts=true} to the pgjdbc URL (as
 *       {@link StoreDataSources} does) so the driver folds each batch into multi-row INSERTs: several times fewer
 *       round trips and parse/plan cycles for task-heavy snapshots.</li>
 * </ul>
 */
public final class SnapshotWriter {
    /** Namespace of our advisory locks (two-int form: never collides with single-bigint locks of other software). */
    static final int LOCK_NAMESPACE = 0x53534350; // "SSCP"

    private final int batchSize;

    public SnapshotWriter() {
        this(1000);
    }

    public SnapshotWriter(int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be ≥ 1, got " + batchSize);
        }
        this.batchSize = batchSize;
    }

    /** Writes unless the database already holds a newer snapshot of this application. */
    public WriteResult write(DataSource dataSource, AppSnapshot snapshot, List<StoredFinding> findings)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return write(c, snapshot, findings);
        }
    }

    /**
     * As {@link #write(DataSource, AppSnapshot, List)} on a given connection: runs its own transaction on it
     * (commit or rollback) and restores the connection's auto-commit mode afterwards.
     */
    public WriteResult write(Connection c, AppSnapshot snapshot, List<StoredFinding> findings) throws SQLException {
        return transaction(c, snapshot, findings, false);
    }

    /** Writes even over a newer stored snapshot (e.g. an explicit re-import the user asked for). */
    public WriteResult overwrite(DataSource dataSource, AppSnapshot snapshot, List<StoredFinding> findings)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return transaction(c, snapshot, findings, true);
        }
    }

    private WriteResult transaction(Connection c, AppSnapshot snapshot, List<StoredFinding> findings, boolean force)
            throws SQLException {
        List<StoredFinding> fs = findings == null ? List.of() : findings;
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            WriteResult result = writeLocked(c, snapshot, fs, force);
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private WriteResult writeLocked(Connection c, AppSnapshot s, List<StoredFinding> findings, boolean force)
            throws SQLException {
        lock(c, s.appId(), s.attemptId());
        Optional<ApplicationRow.Existing> existing = ApplicationRow.find(c, s.appId(), s.attemptId());
        if (!force && existing.isPresent() && isStale(existing.get(), s)) {
            return new WriteResult(existing.get().pk(), WriteResult.Outcome.SKIPPED_STALE, 0);
        }
        long appPk = ApplicationRow.upsert(c, s, findings,
                existing.map(e -> OptionalLong.of(e.pk())).orElse(OptionalLong.empty()));
        Map<Table, List<Object[]>> rows = SnapshotRows.of(s, findings);
        if (existing.isPresent()) {
            deleteStale(c, appPk, rows); // a brand-new application has nothing stale
        }
        long n = 0;
        for (Map.Entry<Table, List<Object[]>> e : rows.entrySet()) {
            n += upsertBatched(c, appPk, e.getKey(), e.getValue());
        }
        return new WriteResult(appPk, WriteResult.Outcome.WRITTEN, n);
    }

    static boolean isStale(ApplicationRow.Existing stored, AppSnapshot incoming) {
        return stored.eventCount() > incoming.eventCount() || (stored.complete() && !incoming.complete());
    }

    static void lock(Connection c, String appId, String attemptId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?, hashtext(?))")) {
            ps.setInt(1, LOCK_NAMESPACE);
            // A hash collision only makes two different apps take turns; correctness never depends on it.
            ps.setString(2, appId + '\n' + ApplicationRow.attemptKey(attemptId));
            ps.execute();
        }
    }

    private long upsertBatched(Connection c, long appPk, Table table, List<Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        List<Column> cols = table.columns();
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

    /** Children first, so foreign keys never see a half-deleted parent. */
    private static void deleteStale(Connection c, long appPk, Map<Table, List<Object[]>> rows) throws SQLException {
        List<Table> tables = Tables.ALL;
        for (ListIterator<Table> it = tables.listIterator(tables.size()); it.hasPrevious(); ) {
            Table t = it.previous();
            deleteStale(c, appPk, t, rows.get(t));
        }
    }

    static void deleteStale(Connection c, long appPk, Table table, List<Object[]> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.deleteStaleSql())) {
            ps.setLong(1, appPk);
            for (int k = 0; k < table.keys.size(); k++) {
                Column key = table.keys.get(k);
                Object[] values = new Object[rows.size()];
                for (int r = 0; r < rows.size(); r++) {
                    values[r] = rows.get(r)[k];
                }
                ps.setArray(k + 2, Column.array(c, key.type().elementType(), values));
            }
            ps.executeUpdate();
        }
    }

    static void bindRow(Connection c, PreparedStatement ps, long appPk, List<Column> cols, Object[] row)
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
    public WriteResult writeRowByRow(DataSource dataSource, AppSnapshot s, List<StoredFinding> findings)
            throws SQLException {
        List<StoredFinding> fs = findings == null ? List.of() : findings;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            Optional<ApplicationRow.Existing> existing = ApplicationRow.find(c, s.appId(), s.attemptId());
            long appPk = ApplicationRow.upsert(c, s, fs,
                    existing.map(e -> OptionalLong.of(e.pk())).orElse(OptionalLong.empty()));
            Map<Table, List<Object[]>> rows = SnapshotRows.of(s, fs);
            if (existing.isPresent()) {
                deleteStale(c, appPk, rows);
            }
            long n = 0;
            for (Map.Entry<Table, List<Object[]>> e : rows.entrySet()) {
                List<Column> cols = e.getKey().columns();
                for (Object[] row : e.getValue()) {
                    try (PreparedStatement ps = c.prepareStatement(e.getKey().upsertSql())) {
                        bindRow(c, ps, appPk, cols, row);
                        ps.executeUpdate();
                    }
                    n++;
                }
            }
            return new WriteResult(appPk, WriteResult.Outcome.WRITTEN, n);
        }
    }
}
