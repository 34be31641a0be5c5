package io.sparkscope.store;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.testing.SampleFindings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Many writers at once through a Hikari pool, as 20 Spark drivers or the listener plus an import would do. */
class ConcurrentWriteTest {
    static HikariDataSource pool;

    @BeforeAll
    static void database() {
        PGSimpleDataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        pool = StoreDataSources.pooled(ds.getUrl(), "postgres", null, 24);
    }

    @AfterAll
    static void close() {
        pool.close();
    }

    @Test
    void twentyApplicationsWritingAtOnceLoseNothing() throws Exception {
        int apps = 20;
        ExecutorService threads = Executors.newFixedThreadPool(apps);
        try {
            List<Callable<Void>> jobs = new ArrayList<>();
            for (int i = 0; i < apps; i++) {
                String id = "app-many-" + i;
                jobs.add(() -> {
                    SnapshotWriter writer = new SnapshotWriter();
                    // Each app is written as running, then complete, then replayed: the listener's life.
                    writer.write(pool, SnapshotBuilder.rich(id, null, false), List.of());
                    writer.write(pool, SnapshotBuilder.rich(id, null, true), SampleFindings.skewAndGc());
                    writer.write(pool, SnapshotBuilder.rich(id, null, true), SampleFindings.skewAndGc());
                    return null;
                });
            }
            for (Future<Void> f : threads.invokeAll(jobs, 120, TimeUnit.SECONDS)) {
                f.get(); // rethrows a writer's exception (a deadlock would surface here as PSQLException 40P01)
            }
        } finally {
            threads.shutdownNow();
        }
        for (int i = 0; i < apps; i++) {
            String id = "app-many-" + i;
            assertEquals(SnapshotBuilder.rich(id, null, true), SnapshotReader.read(pool, id, null).orElseThrow(), id);
        }
        long tasksPerApp = SnapshotBuilder.rich("x", null,
                true).stages().stream().mapToLong(s -> s.keptTasks().size()).sum();
        assertEquals(apps, TestDb.count(pool, "SELECT count(*) FROM application WHERE app_id LIKE 'app-many-%'"));
        assertEquals(apps * tasksPerApp, TestDb.count(pool, "SELECT count(*) FROM task t JOIN application a"
                + " USING (app_pk) WHERE a.app_id LIKE 'app-many-%'"));
        assertEquals(apps * 2L, TestDb.count(pool, "SELECT count(*) FROM finding f JOIN application a"
                + " USING (app_pk) WHERE a.app_id LIKE 'app-many-%'"));
    }

    @Test
    void concurrentWritersOfOneApplicationLeaveTheNewestSnapshotAndNoDuplicates() throws Exception {
        String id = "app-contended";
        // Ten successive snapshots of one running app: more events each time, a different set of kept tasks each
        // time (so every write also deletes rows), the last one complete.
        List<AppSnapshot> versions = new ArrayList<>();
        for (int v = 1; v <= 10; v++) {
            versions.add(version(id, v));
        }
        List<Callable<WriteResult>> jobs = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            List<AppSnapshot> order = new ArrayList<>(versions);
            Collections.shuffle(order, new Random(t));
            jobs.add(() -> {
                WriteResult last = null;
                for (AppSnapshot s : order) {
                    last = new SnapshotWriter().write(pool, s, s.complete() ? SampleFindings.skewAndGc() : List.of());
                }
                return last;
            });
        }
        ExecutorService threads = Executors.newFixedThreadPool(jobs.size());
        try {
            for (Future<WriteResult> f : threads.invokeAll(jobs, 120, TimeUnit.SECONDS)) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
        AppSnapshot newest = versions.get(versions.size() - 1);
        assertEquals(newest, SnapshotReader.read(pool, id, null).orElseThrow());
        assertEquals(1, TestDb.count(pool, "SELECT count(*) FROM application WHERE app_id = '" + id + "'"));
        long kept = newest.stages().stream().mapToLong(s -> s.keptTasks().size()).sum();
        assertEquals(kept, TestDb.count(pool, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                + " WHERE a.app_id = '" + id + "'"));
        assertEquals(2, new SnapshotReader(pool).findings(id, null).size());
    }

    /**
     * The advisory lock is what makes "check the stored version, then write" atomic: a writer of the same app waits
     * for the holder's transaction, a writer of another app does not.
     */
    @Test
    void writersOfTheSameApplicationTakeTurnsOnItsAdvisoryLock() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (var holder = pool.getConnection()) {
            holder.setAutoCommit(false);
            SnapshotWriter.lock(holder, "app-locked", null);
            Future<WriteResult> same = threads.submit(
                    () -> new SnapshotWriter().write(pool, SnapshotBuilder.rich("app-locked", null, true), List.of()));
            Future<WriteResult> other = threads.submit(
                    () -> new SnapshotWriter().write(pool, SnapshotBuilder.rich("app-unlocked", null, true),
                            List.of()));
            assertEquals(WriteResult.Outcome.WRITTEN, other.get(30, TimeUnit.SECONDS).outcome());
            Thread.sleep(300);
            assertFalse(same.isDone(), "a writer of the locked app must wait for the lock holder");
            holder.commit(); // releases the transaction-scoped lock
            assertEquals(WriteResult.Outcome.WRITTEN, same.get(30, TimeUnit.SECONDS).outcome());
        } finally {
            threads.shutdownNow();
        }
    }

    /** Version v of a running app: v·100 events, stage 0 keeping only its v % 8 + 1 first tasks. */
    static AppSnapshot version(String id, int v) {
        AppSnapshot base = SnapshotBuilder.rich(id, null, v == 10);
        List<StageSummary> stages = new ArrayList<>(base.stages());
        StageSummary s0 = stages.get(0);
        stages.set(0, s0.toBuilder().keptTasks(s0.keptTasks().subList(0, v % 8 + 1)).taskDetail(null).taskTimes(null)
                .deriveTaskCounts().build());
        return SnapshotBuilder.copy(base).stages(stages).eventCount(v * 100L).build();
    }
}
