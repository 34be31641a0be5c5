package io.sparkscope.store;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The COPY path for big tables (tasks, stage statistics): rows travel as binary COPY data ({@link CopyBinary}), either
 * straight into a table (rows nothing stored can match) or into a session-private staging table that one
 * {@code INSERT … SELECT … ON CONFLICT} then upserts from. One statement for all rows costs the database far less
 * than a statement per batch; it needs pgjdbc's COPY API, so it lives apart from the plain-JDBC batched path in
 * {@link SnapshotWriter}.
 */
final class CopyRows {
    private CopyRows() {
    }

    private static final int COPY_CHUNK_BYTES = 1 << 16;

    /** Tables with enough rows to go through COPY (none when the connection is not pgjdbc's). */
    static Set<Table<?>> bulkTables(Connection c, Map<Table<?>, List<Object[]>> rows, int copyThreshold)
            throws SQLException {
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

    static long upsertFromStaging(Connection c, long appPk, Table<?> table, List<Object[]> rows)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.upsertFromStagingSql())) {
            ps.setLong(1, appPk);
            ps.executeUpdate();
        }
        return rows.size();
    }
}
