package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SampleFindings;
import io.sparkscope.core.testing.SnapshotBuilder;

import java.util.List;

/**
 * Batched vs row-by-row persistence of a 100 000-task application (docs/benchmarks/store-write.md, target ≥ 10× faster batched). Not a test: run by hand,
 *
 * <pre>
 * mvn -q -o -pl store -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/store-cp.txt -Dmdep.includeScope=test
 * java -cp store/target/test-classes:store/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/store-cp.txt) \
 *      io.sparkscope.store.WriteBench [tasks] [rounds]   # defaults 100000 5
 * </pre>
 *
 * Rounds alternate which path runs first; medians are reported. With {@code -Dbench.jdbcUrl=jdbc:postgresql://host/db}
 * (and {@code -Dbench.user}, {@code -Dbench.password}) it runs against that server with the server's own settings,
 * after deleting the bench applications ({@code bench-%}, {@code warmup-%}) a previous run left there; use a database
 * of its own. Without it, it starts an embedded PostgreSQL (zonky). The server's durability settings (fsync,
 * synchronous_commit, full_page_writes) are printed first. The embedded server runs with zonky's {@code fsync=off}, so
 * no commit waits for the disk there: a durable server (Debian's PostgreSQL with its defaults) is the fair measure of
 * "persisting", see docs/benchmarks/store-write.md. {@code -Dbench.synchronousCommit=on} (the default, embedded only) is PostgreSQL's
 * own default; zonky's test default is {@code off}; pass {@code off} to see that figure too. Each measured write goes
 * to a new application id, so every write inserts all rows (the batched one by COPY straight into the tables); a
 * rewrite of the unchanged snapshot (COPY to staging tables, upsert that changes nothing, stale-row delete that
 * deletes nothing) and a full read are timed too.
 */
public final class WriteBench {
    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int stages = 100;
        String jdbcUrl = System.getProperty("bench.jdbcUrl");
        String syncCommit = System.getProperty("bench.synchronousCommit", "on");
        io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg = null;
        org.postgresql.ds.PGSimpleDataSource ds;
        if (jdbcUrl == null) {
            pg = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    .setServerConfig("synchronous_commit", syncCommit).start();
            ds = TestDb.dataSource(pg.getPort(), "postgres");
        } else {
            // An existing server, run with its own settings (synchronous_commit is not overridden).
            ds = new org.postgresql.ds.PGSimpleDataSource();
            ds.setUrl(jdbcUrl);
            if (System.getProperty("bench.user") != null) {
                ds.setUser(System.getProperty("bench.user"));
            }
            if (System.getProperty("bench.password") != null) {
                ds.setPassword(System.getProperty("bench.password"));
            }
        }
        ds.setReWriteBatchedInserts(true);
        SchemaManager.migrate(ds);
        try (java.sql.Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
            if (jdbcUrl != null) {
                // Start from no bench applications (a previous run's rows would turn new-app writes into rewrites).
                int n = st.executeUpdate("DELETE FROM application WHERE app_id LIKE 'bench-%' OR app_id LIKE 'warmup-%'");
                st.execute("VACUUM ANALYZE");
                System.out.printf("deleted %d bench applications left by a previous run%n", n);
            }
            StringBuilder settings = new StringBuilder();
            for (String name : new String[]{"server_version", "fsync", "synchronous_commit", "full_page_writes",
                    "wal_sync_method", "shared_buffers"}) {
                try (java.sql.ResultSet rs = st.executeQuery("SHOW " + name)) {
                    rs.next();
                    settings.append(settings.length() == 0 ? "" : ", ").append(name).append('=').append(rs.getString(1));
                }
            }
            System.out.printf("PostgreSQL %s (%s), reWriteBatchedInserts=true%n",
                    jdbcUrl == null ? "embedded (zonky)" : jdbcUrl, settings);
        }
        SnapshotWriter writer = new SnapshotWriter();

        // Warm up JIT, driver and server caches on smaller apps (both paths, both COPY variants).
        writer.write(ds, SnapshotBuilder.big("warmup-a", 10, 10_000), List.of());
        writer.write(ds, SnapshotBuilder.big("warmup-a", 10, 10_000), List.of());
        RowByRowWriter.write(ds, SnapshotBuilder.big("warmup-b", 10, 2_000), List.of());

        double[] batched = new double[rounds];
        double[] rowByRow = new double[rounds];
        double[] rewrite = new double[rounds];
        double[] read = new double[rounds];
        long rows = 0;
        for (int r = 0; r < rounds; r++) {
            // Alternate which path goes first, so drift in the machine's load hits both alike.
            AppSnapshot b = SnapshotBuilder.big("bench-batched-" + r, stages, tasks);
            AppSnapshot n = SnapshotBuilder.big("bench-rowbyrow-" + r, stages, tasks);
            if (r % 2 == 1) {
                rowByRow[r] = time(() -> RowByRowWriter.write(ds, n, SampleFindings.skewAndGc()));
            }
            long[] written = new long[1];
            batched[r] = time(() -> written[0] = writer.write(ds, b, SampleFindings.skewAndGc()).rows());
            rows = written[0];
            if (r % 2 == 0) {
                rowByRow[r] = time(() -> RowByRowWriter.write(ds, n, SampleFindings.skewAndGc()));
            }
            WriteResult[] again = new WriteResult[1];
            rewrite[r] = time(() -> again[0] = writer.write(ds, b, SampleFindings.skewAndGc()));
            AppSnapshot[] back = new AppSnapshot[1];
            read[r] = time(() -> back[0] = SnapshotReader.read(ds, b.appId(), null).orElseThrow());
            if (!back[0].equals(b) || !again[0].written()) {
                throw new AssertionError("read-back differs from the written snapshot");
            }
            System.out.printf("round %d: batched %.2f s, row-by-row %.2f s (%.1f×); unchanged rewrite %.2f s;"
                    + " read-back %.2f s%n", r + 1, batched[r], rowByRow[r], rowByRow[r] / batched[r], rewrite[r],
                    read[r]);
        }
        System.out.printf("snapshot: %d stages, %d kept tasks, %d child rows%n", stages, tasks, rows);
        double mb = median(batched);
        double mn = median(rowByRow);
        System.out.printf("median of %d: batched %.2f s (%.0f rows/s), row-by-row %.2f s (%.0f rows/s):"
                + " batched is %.1f× faster (per-round ratios %s)%n", rounds, mb, rows / mb, mn, rows / mn, mn / mb,
                ratios(rowByRow, batched));
        System.out.printf("median: rewrite of an unchanged snapshot %.2f s; full read-back %.2f s (equal: true)%n",
                median(rewrite), median(read));
        if (pg != null) {
            pg.close();
        }
    }

    interface Timed {
        void run() throws Exception;
    }

    static double time(Timed t) throws Exception {
        System.gc(); // no collection of the previous round's garbage inside the timed write
        long t0 = System.nanoTime();
        t.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static String ratios(double[] num, double[] den) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < num.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format("%.1f", num[i] / den[i]));
        }
        return sb.toString();
    }
}
