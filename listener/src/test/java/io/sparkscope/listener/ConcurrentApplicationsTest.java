package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Twenty applications recording into one database at the same moment (one SparkContext per JVM, so each
 * application here is a listener pipeline fed the events of a real run the examples module recorded): no lost
 * rows, no duplicates, no deadlock.
 */
class ConcurrentApplicationsTest {
    private static final int APPS = 20;

    @Test
    void twentyApplicationsAtOnce(@TempDir Path spool) throws Exception {
        Path log = ExampleEventLogs.DIR;
        List<SparkEvent> events = new ArrayList<>();
        EventLogReader.read(EventLogReader.discover(log).get(0), events::add,
                p -> { throw new AssertionError(p); });
        String db = TestDb.newDatabaseName();
        ListenerConfig cfg = ListenerConfig.from(Map.of(
                "spark.sparkscope.jdbc.url", TestDb.url(db),
                "spark.sparkscope.spool.dir", spool.toString(),
                "spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.report.enabled", "false"), w -> { throw new AssertionError(w); });

        ExecutorService pool = Executors.newFixedThreadPool(APPS);
        List<Future<Boolean>> done = new ArrayList<>();
        for (int i = 0; i < APPS; i++) {
            String appId = "app-concurrent-" + i;
            done.add(pool.submit(() -> {
                RecordingPipeline p = Wiring.pipeline(cfg);
                p.start();
                for (SparkEvent e : events) {
                    p.offer(e instanceof SparkEvent.ApplicationStart s
                            ? new SparkEvent.ApplicationStart(s.appName(), appId, s.attemptId(), s.time(), s.sparkUser())
                            : e);
                    if (e instanceof SparkEvent.StageCompleted) {
                        Thread.sleep(20); // let intermediate snapshots race each other
                    }
                }
                boolean finished = p.awaitFinished(60_000);
                p.stop();
                return finished;
            }));
        }
        for (Future<Boolean> f : done) {
            assertTrue(f.get(120, TimeUnit.SECONDS), "final snapshot written within the flush timeout");
        }
        pool.shutdown();

        DataSource ds = TestDb.dataSource(db);
        AppSnapshot reference = null;
        for (int i = 0; i < APPS; i++) {
            AppSnapshot s = SnapshotReader.read(ds, "app-concurrent-" + i, null).orElseThrow();
            assertTrue(s.complete());
            if (reference == null) {
                reference = s;
            }
            assertEquals(reference.stages(), s.stages(), "every application has all its stages and tasks");
            assertEquals(reference.jobs(), s.jobs());
        }
        long tasksPerApp = reference.stages().stream().mapToLong(st -> st.keptTasks().size()).sum();
        assertEquals(APPS, TestDb.count(ds, "select count(*) from application"));
        assertEquals(APPS * (long) reference.stages().size(), TestDb.count(ds, "select count(*) from stage_attempt"));
        assertEquals(APPS * tasksPerApp, TestDb.count(ds, "select count(*) from task"));
    }
}
