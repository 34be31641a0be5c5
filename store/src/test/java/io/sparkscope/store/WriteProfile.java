package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Where a big batched write spends its time, per table and per statement (not a test; run like {@link WriteBench}):
 * the JDBC-batch upsert per table, then the COPY path per table with {@code EXPLAIN (ANALYZE, BUFFERS)} of the
 * staged upsert and stale-row delete, first for a new application, then for a rewrite of the same snapshot.
 */
public final class WriteProfile {
    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg = io.zonky.test.db.postgres.embedded.EmbeddedPostgres
                .builder().setServerConfig("synchronous_commit", "on").start();
        org.postgresql.ds.PGSimpleDataSource ds = TestDb.dataSource(pg.getPort(), "postgres");
        SchemaManager.migrate(ds);
        new SnapshotWriter().write(ds, SnapshotBuilder.big("warmup", 10, 10_000), List.of());
        try (Connection c = ds.getConnection()) {
            System.out.println("== JDBC batches (1000 rows, reWriteBatchedInserts), new app");
            batched(c, SnapshotBuilder.big("profile-batched", 100, tasks));
            System.out.println("== COPY straight into the tables, new app");
            direct(c, SnapshotBuilder.big("profile-direct", 100, tasks));
            System.out.println("== COPY + staged upsert, new app");
            AppSnapshot s = SnapshotBuilder.big("profile-copy", 100, tasks);
            copy(c, s, false);
            System.out.println("== COPY + staged delete/upsert, rewrite of the same snapshot");
            copy(c, s, true);
        }
        pg.close();
    }

    private static void batched(Connection c, AppSnapshot s) throws SQLException {
        c.setAutoCommit(false);
        long appPk = ApplicationRow.upsert(c, s, List.of(), OptionalLong.empty());
        Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, List.of());
        for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
            long t0 = System.nanoTime();
            List<? extends Column<?>> cols = e.getKey().columns();
            try (PreparedStatement ps = c.prepareStatement(e.getKey().upsertSql())) {
                int n = 0;
                for (Object[] row : e.getValue()) {
                    SnapshotWriter.bindRow(c, ps, appPk, cols, row);
                    ps.addBatch();
                    if (++n % 1000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            System.out.printf("%-18s %7d rows %8.0f ms%n", e.getKey().name, e.getValue().size(), ms(t0));
        }
        long t0 = System.nanoTime();
        c.commit();
        System.out.printf("commit %.0f ms%n", ms(t0));
    }

    private static void direct(Connection c, AppSnapshot s) throws SQLException {
        c.setAutoCommit(false);
        long appPk = ApplicationRow.upsert(c, s, List.of(), OptionalLong.empty());
        long t0 = System.nanoTime();
        Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, List.of());
        System.out.printf("flatten snapshot %8.0f ms%n", ms(t0));
        for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
            t0 = System.nanoTime();
            if (!e.getValue().isEmpty()) {
                CopyRows.copyInto(c, appPk, e.getKey(), e.getValue());
            }
            System.out.printf("COPY %-13s %7d rows %8.0f ms%n", e.getKey().name, e.getValue().size(), ms(t0));
        }
        t0 = System.nanoTime();
        c.commit();
        System.out.printf("commit %.0f ms%n", ms(t0));
    }

    private static void copy(Connection c, AppSnapshot s, boolean rewrite) throws SQLException {
        c.setAutoCommit(false);
        long appPk = ApplicationRow.upsert(c, s, List.of(), OptionalLong.empty());
        Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, List.of());
        for (Table<?> t : List.<Table<?>>of(Tables.STAGE_STATISTICS, Tables.TASK)) {
            long t0 = System.nanoTime();
            CopyRows.copyToStaging(c, t, rows.get(t));
            System.out.printf("COPY %-13s %7d rows %8.0f ms%n", t.name, rows.get(t).size(), ms(t0));
        }
        if (rewrite) {
            for (Table<?> t : List.<Table<?>>of(Tables.TASK, Tables.STAGE_STATISTICS)) {
                long t0 = System.nanoTime();
                try (var st = c.createStatement()) {
                    st.execute(t.indexStagingSql());
                }
                System.out.printf("index %-12s %8.0f ms%n", t.name, ms(t0));
                explain(c, t.deleteStaleFromStagingSql(), appPk);
            }
        }
        for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
            Table<?> t = e.getKey();
            if (t == Tables.STAGE_STATISTICS || t == Tables.TASK) {
                explain(c, t.upsertFromStagingSql(), appPk);
            } else if (!rewrite) {
                try (PreparedStatement ps = c.prepareStatement(t.upsertSql())) {
                    for (Object[] row : e.getValue()) {
                        SnapshotWriter.bindRow(c, ps, appPk, t.columns(), row);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
        }
        long t0 = System.nanoTime();
        c.commit();
        System.out.printf("commit %.0f ms%n", ms(t0));
    }

    private static void explain(Connection c, String sql, long appPk) throws SQLException {
        long t0 = System.nanoTime();
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + sql)) {
            ps.setLong(1, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                System.out.println("-- " + sql.substring(0, Math.min(90, sql.length())) + "…");
                while (rs.next()) {
                    System.out.println("   " + rs.getString(1));
                }
            }
        }
        System.out.printf("   (%.0f ms wall)%n", ms(t0));
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }
}
