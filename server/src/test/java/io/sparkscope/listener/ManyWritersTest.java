package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.server.cli.CliRun;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Twelve listeners (each its own recorder, writer thread and pool of two connections, as twelve drivers have) and an
 * {@code import} writing into one empty database at the same moment: all twelve migrate the schema at their first
 * write, the listeners' applications grow stage by stage and flush every 100 ms with small windows (so most writes
 * are partial and old stages leave the driver), and the imported runs are earlier runs of the listeners'
 * applications, so each one the import stores may send it back to rewrite the Regression finding of a listener run
 * that ended before. Nothing may deadlock, be refused or be lost: every application's stored row holds its own last
 * snapshot's event count, complete, with every stage and task.
 */
class ManyWritersTest {
    private static final int LISTENERS = 12;
    private static final int IMPORTED = 6;
    private static final int STAGES = 40;
    private static final int TASKS = 6;
    private static final int WINDOW = 10;
    private static final long START = 1_764_000_000_000L;

    @Test
    void twelveListenersAndAnImportLoseNothing(@TempDir Path dir) throws Exception {
        Path reference = dir.resolve("reference");
        new SyntheticLog("app-reference", "reference", START + 86_400_000L, STAGES, TASKS).executors(2)
                .writeTo(reference);
        List<SparkEvent> events = new ArrayList<>();
        EventLogReader.read(EventLogReader.discover(reference).get(0), events::add,
                p -> { throw new AssertionError(p); });
        Path logs = Files.createDirectories(dir.resolve("logs"));
        for (int j = 0; j < IMPORTED; j++) {
            // earlier runs of the listeners' applications: stored late, they change the later runs' comparisons
            new SyntheticLog("application_1764000000000_000" + j, "nightly-" + j % 3, START + j * 60_000L, STAGES,
                    TASKS).executors(2).seed(j).writeTo(logs.resolve("application_1764000000000_000" + j));
        }
        String db = TestDb.newDatabaseName();
        String url = TestDb.url(db);
        ListenerConfig cfg = ListenerConfig.from(Map.of(
                "spark.sparkscope.jdbc.url", url,
                "spark.sparkscope.spool.dir", dir.resolve("spool").toString(),
                "spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.retained.jobs", Integer.toString(WINDOW),
                "spark.sparkscope.retained.stages", Integer.toString(WINDOW),
                // not a timing test: on a busy machine a final write may take longer than the default 10 s
                "spark.sparkscope.flush.timeoutMs", "120000",
                "spark.sparkscope.report.enabled", "false"), w -> { throw new AssertionError(w); });

        CyclicBarrier go = new CyclicBarrier(LISTENERS + 1);
        ExecutorService pool = Executors.newFixedThreadPool(LISTENERS + 1);
        List<Future<RecordingPipeline>> listeners = new ArrayList<>();
        // What the databases refused, the writes that failed and were retried (the database slow to connect on a
        // busy machine: the listener retries, nothing is lost), and the events each listener has written.
        List<String> refused = new CopyOnWriteArrayList<>();
        List<String> retried = new CopyOnWriteArrayList<>();
        for (int i = 0; i < LISTENERS; i++) {
            String appId = "app-listener-" + i;
            String name = "nightly-" + i % 3;
            AtomicLong written = new AtomicLong();
            listeners.add(pool.submit(() -> {
                RecordingPipeline p = pipeline(cfg, appId, refused, retried, written);
                p.start();
                go.await();
                long offered = 0;
                int jobs = 0;
                for (SparkEvent e : events) {
                    if (e instanceof SparkEvent.JobStart && jobs++ % (WINDOW / 2) == 0) {
                        // The application grows no faster than its writes: every half window it waits until all it
                        // did so far is written. Otherwise, while twelve migrations queue on an empty database (or
                        // writes crawl on a busy machine), its window would fill and unwritten stages would leave it,
                        // which is the window's bound on driver memory, not what this test is about.
                        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                        while (written.get() < offered) {
                            assertTrue(System.nanoTime() < deadline, appId + ": writes keep up");
                            Thread.sleep(10);
                        }
                    }
                    p.offer(e instanceof SparkEvent.ApplicationStart s
                            ? new SparkEvent.ApplicationStart(name, appId, s.attemptId(), s.time(), s.sparkUser())
                            : e);
                    offered++;
                    if (e instanceof SparkEvent.StageCompleted) {
                        Thread.sleep(25); // a growing application: several periodic flushes race the others
                    }
                }
                assertTrue(p.awaitFinished(150_000), appId + ": final snapshot handled");
                p.stop();
                return p;
            }));
        }
        Future<CliRun> imported = pool.submit(() -> {
            go.await();
            return CliRun.of("import", logs.toString(), "--db", url);
        });
        CliRun run = imported.get(180, TimeUnit.SECONDS);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        List<RecordingPipeline> done = new ArrayList<>();
        for (Future<RecordingPipeline> f : listeners) {
            done.add(f.get(180, TimeUnit.SECONDS));
        }
        pool.shutdown();
        assertEquals(List.of(), refused, "no snapshot was refused");
        if (!retried.isEmpty()) {
            System.out.println("writes retried after a failure: " + retried);
        }

        DataSource ds = TestDb.dataSource(db);
        for (int i = 0; i < LISTENERS; i++) {
            RecordingPipeline p = done.get(i);
            String appId = "app-listener-" + i;
            assertNull(p.notStored(), appId + " is stored");
            assertEquals(0, p.droppedEvents(), appId);
            assertEquals(0, p.recorder().leftUnwritten(), appId + ": nothing left the driver unwritten");
            AppSnapshot stored = SnapshotReader.read(ds, appId, null).orElseThrow();
            assertTrue(stored.complete(), appId + " complete");
            assertEquals(p.lastSnapshot().eventCount(), stored.eventCount(),
                    appId + ": the stored row is the listener's last snapshot");
            assertEquals(STAGES, stored.stages().size(), appId + ": every stage, also those that left the driver");
            assertEquals(STAGES, stored.jobs().size(), appId);
            assertEquals(STAGES * TASKS, stored.stages().stream().mapToLong(s -> s.keptTasks().size()).sum(),
                    appId + ": every task");
        }
        for (int j = 0; j < IMPORTED; j++) {
            AppSnapshot stored = SnapshotReader.read(ds, "application_1764000000000_000" + j, null).orElseThrow();
            assertTrue(stored.complete());
            assertEquals(STAGES, stored.stages().size());
        }
        assertEquals(LISTENERS + IMPORTED, TestDb.count(ds, "select count(*) from application"));
        assertEquals((LISTENERS + IMPORTED) * (long) STAGES * TASKS, TestDb.count(ds, "select count(*) from task"));
        // Every pool is closed by now, so each backend has reported its deadlocks on exit.
        assertEquals(0, TestDb.count(ds, "select deadlocks from pg_stat_database where datname = current_database()"));
    }

    /**
     * The listener's recording path as {@link Wiring#pipeline} builds it for a database, with the store's outcomes
     * noted: a failed write is otherwise only a log line (and the next one may well succeed).
     */
    private static RecordingPipeline pipeline(ListenerConfig cfg, String appId, List<String> refused,
                                              List<String> retried, AtomicLong writtenEvents) {
        SnapshotStore jdbc = new JdbcSnapshotStore(cfg);
        SnapshotStore noted = new SnapshotStore() {
            @Override
            public void write(AppSnapshot snapshot, List<Finding> findings) throws Exception {
                try {
                    jdbc.write(snapshot, findings);
                    writtenEvents.accumulateAndGet(snapshot.eventCount(), Math::max);
                } catch (SnapshotRejectedException e) {
                    refused.add(appId + ": " + e.getMessage());
                    throw e;
                } catch (Exception e) {
                    retried.add(appId + ": " + SnapshotDelivery.oneLine(e));
                    throw e;
                }
            }

            @Override
            public void close() {
                jdbc.close();
            }
        };
        Function<AppSnapshot, List<Finding>> diagnose = Wiring.diagnoser(cfg);
        SnapshotDelivery delivery = new SnapshotDelivery(noted, Wiring.spool(cfg), diagnose, cfg.retryMaxBackoffMs());
        return new RecordingPipeline(cfg, delivery, diagnose, (s, f) -> { });
    }
}
