package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-running driver in miniature: 2 000 one-task SQL jobs back to back in real local Spark, recorded into
 * PostgreSQL with a window of 100 jobs, stages and SQL executions and a flush every 200 ms. The driver's heap after a
 * full GC does not grow with the jobs, every flush carries only what changed since the last write, and the database
 * holds every job, stage and SQL execution of the run.
 */
class ManyJobsListenerTest {
    private static final int JOBS = 2000;
    private static final int WINDOW = 100;

    @Test
    void heapStaysFlatAndFlushesCarryOnlyWhatChanged(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        SparkSession spark = LocalSpark.start("many-jobs", Map.of(
                "spark.sparkscope.jdbc.url", TestDb.url(db),
                "spark.sparkscope.spool.dir", dir.resolve("spool").toString(),
                "spark.sparkscope.flush.intervalMs", "200",
                "spark.sparkscope.retained.jobs", Integer.toString(WINDOW),
                "spark.sparkscope.retained.stages", Integer.toString(WINDOW),
                "spark.sparkscope.retained.sqlExecutions", Integer.toString(WINDOW),
                // Spark's own status store keeps a window too; small, so that its plateau comes early
                "spark.ui.retainedJobs", "100",
                "spark.ui.retainedStages", "100",
                "spark.sql.ui.retainedExecutions", "100"));
        String appId = spark.sparkContext().applicationId();
        RecordingPipeline pipeline = SparkscopeListener.latest().pipeline();

        // Watches what each flush hands to the writer.
        List<int[]> flushes = new ArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread sampler = new Thread(() -> {
            AppSnapshot last = null;
            while (!done.get()) {
                AppSnapshot c = pipeline.lastChanged();
                if (c != null && c != last) {
                    synchronized (flushes) {
                        flushes.add(new int[]{c.jobs().size(), c.stages().size(), c.sqlExecutions().size(),
                                c.totals().jobs()});
                    }
                    last = c;
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();

        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapAtWarmUp = 0;
        for (int i = 0; i < JOBS; i++) {
            spark.range(0, 4, 1, 1).selectExpr("id * 2 AS x").collectAsList();
            if (i + 1 == 500) {
                heapAtWarmUp = usedAfterGc(memory);
            }
        }
        long heapAtEnd = usedAfterGc(memory);
        ListenerOutageTest.waitFor("the last jobs in a flush", Duration.ofSeconds(20),
                () -> pipeline.lastSnapshot() != null && pipeline.lastSnapshot().totals().jobs() == JOBS);
        AppSnapshot retained = pipeline.lastSnapshot();
        spark.stop();
        done.set(true);
        sampler.join();

        System.out.printf("ManyJobsListenerTest: heap after GC %.1f MB at 500 jobs, %.1f MB at %d; %d flushes seen%n",
                heapAtWarmUp / 1e6, heapAtEnd / 1e6, JOBS, flushes.size());
        assertTrue(heapAtEnd - heapAtWarmUp < 30_000_000L, "the driver's heap grew by "
                + (heapAtEnd - heapAtWarmUp) / 1e6 + " MB from 500 to " + JOBS + " jobs");
        assertEquals(JOBS, retained.totals().jobs(), "the run's totals count every job");
        assertEquals(JOBS, retained.totalTasks());
        assertTrue(retained.jobs().size() <= 2 * WINDOW, "jobs kept in the driver: " + retained.jobs().size());
        assertTrue(retained.stages().size() <= 2 * WINDOW, "stages kept: " + retained.stages().size());

        assertTrue(flushes.size() >= 20, "flushes seen: " + flushes.size());
        int largest = 0;
        for (int[] f : flushes) {
            largest = Math.max(largest, Math.max(f[0], Math.max(f[1], f[2])));
        }
        // A flush every 200 ms carries the jobs of those 200 ms (and any not yet acknowledged), never the run so far.
        assertTrue(largest < JOBS / 4, "largest flush held " + largest + " entities of one kind");
        int[] lastPeriodic = flushes.get(flushes.size() / 2);
        assertTrue(lastPeriodic[0] < lastPeriodic[3] / 2, "a mid-run flush held " + lastPeriodic[0] + " of "
                + lastPeriodic[3] + " jobs");

        // The final write, too, carries only what changed since the last periodic one.
        AppSnapshot finalWrite = pipeline.lastChanged();
        assertTrue(finalWrite.complete() && finalWrite.partial());
        assertEquals(JOBS, finalWrite.totals().jobs());
        assertTrue(finalWrite.jobs().size() < WINDOW, "the final write held " + finalWrite.jobs().size() + " jobs");

        // Nothing that left the driver is missing from the database.
        AppSnapshot stored = SnapshotReader.read(ds, appId, null).orElseThrow();
        assertTrue(stored.complete());
        assertEquals(JOBS, stored.jobs().size());
        assertEquals(JOBS, stored.stages().size());
        assertEquals(JOBS, stored.sqlExecutions().size());
        assertEquals(JOBS, TestDb.count(ds, "select num_jobs from application"));
        assertEquals(JOBS, TestDb.count(ds, "select num_tasks from application"));
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
