package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/**
 * Batched vs row-by-row persistence of a 100 000-task application (issue 3's benchmark). Not a test: run by hand,
 *
 * <pre>
 * mvn -q -o -pl store -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/store-cp.txt -Dmdep.includeScope=test
 * java -cp store/target/test-classes:store/target/classes:heuristics-core/target/classes:$(cat /tmp/store-cp.txt) \
 *      io.sparkscope.store.WriteBench [tasks] [rounds]
 * </pre>
 *
 * Starts its own embedded PostgreSQL (zonky). {@code -Dbench.synchronousCommit=on} (the default) is PostgreSQL's own
 * default and what a shared server runs: every auto-committed row waits for its WAL flush. zonky's test default is
 * {@code off}, which flatters the row-by-row writer; pass {@code off} to see that figure too. Each measured write goes
 * to a new application id, so every write inserts all rows; a rewrite of an unchanged snapshot and a full read are
 * timed too.
 */
public final class WriteBench {
    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int stages = 100;
        String syncCommit = System.getProperty("bench.synchronousCommit", "on");
        io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg = io.zonky.test.db.postgres.embedded.EmbeddedPostgres
                .builder().setServerConfig("synchronous_commit", syncCommit).start();
        org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
        ds.setServerNames(new String[]{"localhost"});
        ds.setPortNumbers(new int[]{pg.getPort()});
        ds.setDatabaseName("postgres");
        ds.setUser("postgres");
        ds.setReWriteBatchedInserts(true);
        SchemaManager.migrate(ds);
        System.out.printf("PostgreSQL embedded, synchronous_commit=%s, reWriteBatchedInserts=true%n", syncCommit);
        SnapshotWriter writer = new SnapshotWriter();

        // Warm up JIT, driver and server caches on a smaller app.
        writer.write(ds, Snapshots.big("warmup-a", 10, 10_000), List.of());
        writer.writeRowByRow(ds, Snapshots.big("warmup-b", 10, 2_000), List.of());

        AppSnapshot[] apps = new AppSnapshot[rounds * 2];
        for (int i = 0; i < apps.length; i++) {
            apps[i] = Snapshots.big("bench-" + i, stages, tasks);
        }
        long rows = writer.write(ds, apps[0], Snapshots.findings()).rows(); // also the first batched round's data
        System.out.printf("snapshot: %d stages, %d kept tasks, %d child rows%n", stages, tasks, rows);

        double batched = Double.MAX_VALUE;
        double rowByRow = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            writer.write(ds, apps[2 * r + 1], Snapshots.findings());
            double b = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            writer.writeRowByRow(ds, apps[2 * r == 0 ? apps.length - 1 : 2 * r], Snapshots.findings());
            double n = (System.nanoTime() - t0) / 1e9;
            System.out.printf("round %d: batched %.2f s, row-by-row %.2f s, ratio %.1f×%n", r + 1, b, n, n / b);
            batched = Math.min(batched, b);
            rowByRow = Math.min(rowByRow, n);
        }
        long t0 = System.nanoTime();
        WriteResult again = writer.write(ds, apps[1], Snapshots.findings());
        double rewrite = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        AppSnapshot read = SnapshotReader.read(ds, apps[1].appId(), null).orElseThrow();
        double readTime = (System.nanoTime() - t0) / 1e9;
        if (!read.equals(apps[1]) || !again.written()) {
            throw new AssertionError("read-back differs from the written snapshot");
        }
        System.out.printf("best: batched %.2f s (%.0f rows/s), row-by-row %.2f s (%.0f rows/s): batched is %.1f× faster%n",
                batched, rows / batched, rowByRow, rows / rowByRow, rowByRow / batched);
        System.out.printf("rewrite of an unchanged snapshot %.2f s; full read-back %.2f s (equal: true)%n",
                rewrite, readTime);
        pg.close();
    }
}
