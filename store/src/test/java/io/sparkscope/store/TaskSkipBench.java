package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.testing.SnapshotBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * What the listener's periodic write costs for a running 100 000-task application (10 stages × 10 000 kept tasks,
 * the per-stage cap): every snapshot ships all task rows (before V4) vs. only those of stages whose tasks changed
 * ({@link TaskDigest}). Each measured write changes one stage (its slowest task is replaced), as while the last
 * stage runs; a rewrite with nothing changed is timed too. Not a test: run by hand,
 *
 * <pre>
 * mvn -q -o -pl store -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/store-cp.txt -Dmdep.includeScope=test
 * java -cp store/target/test-classes:store/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/store-cp.txt) \
 *      io.sparkscope.store.TaskSkipBench [tasks] [rounds]   # defaults 100000 7
 * </pre>
 *
 * Embedded PostgreSQL (zonky, fsync off, synchronous_commit on) in the same JVM; medians of the rounds, which
 * alternate which writer goes first.
 */
public final class TaskSkipBench {
    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int stages = 10;
        try (var pg = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                .setServerConfig("synchronous_commit", "on").start()) {
            org.postgresql.ds.PGSimpleDataSource ds = TestDb.dataSource(pg.getPort(), "postgres");
            SchemaManager.migrate(ds);
            SnapshotWriter skipping = new SnapshotWriter(1000, SnapshotWriter.DEFAULT_COPY_THRESHOLD, true);
            SnapshotWriter shipping = new SnapshotWriter(1000, SnapshotWriter.DEFAULT_COPY_THRESHOLD, false);

            AppSnapshot base = SnapshotBuilder.big("skip-bench", stages, tasks);
            AppSnapshot baseFull = SnapshotBuilder.big("ship-bench", stages, tasks);
            skipping.write(ds, base, List.of());
            shipping.write(ds, baseFull, List.of());
            // warm-up: both paths once
            skipping.write(ds, changed(base, 1), List.of());
            shipping.write(ds, changed(baseFull, 1), List.of());

            double[] skip = new double[rounds];
            double[] ship = new double[rounds];
            double[] skipSame = new double[rounds];
            double[] shipSame = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                AppSnapshot a = changed(base, r + 2);
                AppSnapshot b = changed(baseFull, r + 2);
                if (r % 2 == 0) {
                    skip[r] = WriteBench.time(() -> skipping.write(ds, a, List.of()));
                    ship[r] = WriteBench.time(() -> shipping.write(ds, b, List.of()));
                } else {
                    ship[r] = WriteBench.time(() -> shipping.write(ds, b, List.of()));
                    skip[r] = WriteBench.time(() -> skipping.write(ds, a, List.of()));
                }
                skipSame[r] = WriteBench.time(() -> skipping.write(ds, a, List.of()));
                shipSame[r] = WriteBench.time(() -> shipping.write(ds, b, List.of()));
                if (!SnapshotReader.read(ds, "skip-bench", null).orElseThrow().equals(a)) {
                    throw new AssertionError("read-back differs from the written snapshot");
                }
                System.out.printf("round %d: one stage changed: all rows %.3f s, changed stages only %.3f s;"
                        + " nothing changed: %.3f s vs %.3f s%n", r + 1, ship[r], skip[r], shipSame[r], skipSame[r]);
            }
            System.out.printf("%d stages x %d kept tasks; medians of %d: one stage changed %.3f s -> %.3f s (%.1fx),"
                            + " nothing changed %.3f s -> %.3f s (%.1fx)%n", stages, tasks / stages, rounds,
                    WriteBench.median(ship), WriteBench.median(skip), WriteBench.median(ship) / WriteBench.median(skip),
                    WriteBench.median(shipSame), WriteBench.median(skipSame),
                    WriteBench.median(shipSame) / WriteBench.median(skipSame));
        }
    }

    /** The snapshot with the last stage's fastest task replaced by a new, slower one ({@code n}: which one). */
    static AppSnapshot changed(AppSnapshot s, int n) {
        List<StageSummary> stages = new ArrayList<>(s.stages());
        StageSummary st = stages.get(stages.size() - 1);
        List<TaskRecord> tasks = new ArrayList<>(st.keptTasks());
        TaskRecord t = tasks.remove(tasks.size() - 1);
        tasks.add(0, TaskRecord.builder().taskId(10_000_000L + n).index(t.index()).attempt(t.attempt() + n)
                .partitionId(t.partitionId()).executorId(t.executorId()).host(t.host()).locality(t.locality())
                .speculative(t.speculative()).launchTime(t.launchTime()).finishTime(t.launchTime() + 50_000 + n)
                .status(t.status()).endReason(t.endReason()).metrics(t.metrics()).build());
        stages.set(stages.size() - 1, st.toBuilder().keptTasks(tasks).deriveTaskCounts().build());
        return SnapshotRoundTripTest.with(s, stages);
    }
}
