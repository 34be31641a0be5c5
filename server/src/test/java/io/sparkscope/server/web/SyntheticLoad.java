package io.sparkscope.server.web;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;

import javax.sql.DataSource;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fills a database with synthetic applications for the web latency bench (bench/web-latency.sh):
 * {@code SyntheticLoad <jdbc-url> <user> <password> <apps> <tasksPerStage> <threads>}. Each application has 2 jobs of
 * 2 stages with {@code tasksPerStage} kept tasks each (25 → 100 task rows per app, 1 000 000 for 10 000 apps), one of
 * 200 names (so history pages have ~50 runs), one of 20 users, varied configuration and real findings.
 */
public final class SyntheticLoad {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        int apps = Integer.parseInt(args[3]);
        int tasks = Integer.parseInt(args[4]);
        int threads = Integer.parseInt(args[5]);
        try (var ds = StoreDataSources.pooled(url, args[1], args[2], threads)) {
            SchemaManager.migrate(ds);
            load(ds, apps, tasks, threads);
        }
    }

    static void load(DataSource ds, int apps, int tasks, int threads) throws Exception {
        Diagnoser diagnoser = Diagnoser.defaults();
        long now = System.currentTimeMillis();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int i = 0; i < apps; i++) {
            int n = i;
            pool.submit(() -> {
                try {
                    AppSnapshot s = SnapshotBuilder.synthetic(spec(n, apps, tasks, now));
                    new SnapshotWriter().write(ds, s, diagnoser.diagnose(s));
                    int d = done.incrementAndGet();
                    if (d % 500 == 0) {
                        double secs = (System.nanoTime() - t0) / 1e9;
                        System.err.printf(Locale.ROOT, "%,d / %,d applications (%.0f/s)%n", d, apps, d / secs);
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.DAYS);
        if (failure.get() != null) {
            throw failure.get();
        }
        System.err.printf(Locale.ROOT, "wrote %,d applications in %.0f s%n", apps, (System.nanoTime() - t0) / 1e9);
    }

    static SnapshotBuilder.SyntheticSpec spec(int i, int apps, int tasks, long now) {
        String name = "job-" + (i % 200);
        long start = now - (long) (apps - i) * 5 * 60_000L; // one start every 5 minutes, newest last
        long duration = 60_000L + (i * 7919L % 3_600_000L);
        var s = SnapshotBuilder.syntheticSpec(String.format(Locale.ROOT, "app-%08d", i), name, "user" + (i % 20),
                start, duration);
        s = s.withConf("spark.sql.shuffle.partitions", String.valueOf(100 * (1 + i % 8)));
        if (i % 10 == 0) {
            s = s.withConf("spark.serializer", "org.apache.spark.serializer.JavaSerializer");
        }
        if (i % 37 == 0) {
            s = s.withConf("spark.master", "yarn").withConf("spark.executor.memory", "40g");
        }
        for (int k = 0; k < 30; k++) {
            s = s.withConf("spark.bench.setting" + k, "value-" + (i + k) % 13);
        }
        return new SnapshotBuilder.SyntheticSpec(s.appId(), null, s.name(), s.user(), s.start(), s.durationMs(), true,
                s.conf(), 2, 2, tasks, i % 50 == 0 ? "FetchFailed(BlockManagerId(1, host, 7337), shuffleId=0)" : null,
                i % 7 == 0 ? 64L << 20 : 0, i);
    }
}
