package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.testing.SqlJobEvents;
import io.sparkscope.store.Spool;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.sparkscope.listener.ListenerOutageTest.read;
import static io.sparkscope.listener.ListenerOutageTest.spoolFiles;
import static io.sparkscope.listener.ListenerOutageTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver with a small window loses nothing through a database outage: while the database is up, written jobs
 * leave the driver; while it is away nothing unwritten leaves (within twice the window), the spool gets the retained
 * snapshot, which holds every job not yet written; once the database is back, the next writes carry them all.
 */
class WindowedOutageTest {
    private static final long T0 = 1_764_500_000_000L;
    private static final String APP = "app-windowed-outage";
    private static final int WINDOW = 5;

    @Test
    void theSpoolHoldsEveryUnwrittenJobAndTheDatabaseGetsThemAll(@TempDir Path tmp) throws Exception {
        int port = ListenerOutageTest.freePort();
        Path dataDir = tmp.resolve("pgdata");
        Path spoolDir = tmp.resolve("spool");
        ListenerConfig cfg = ListenerConfig.from(Map.of(
                "spark.sparkscope.jdbc.url", "jdbc:postgresql://localhost:" + port
                        + "/postgres?user=postgres&connectTimeout=2",
                "spark.sparkscope.spool.dir", spoolDir.toString(),
                "spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.retry.maxBackoffMs", "500",
                "spark.sparkscope.retained.jobs", Integer.toString(WINDOW),
                "spark.sparkscope.retained.stages", Integer.toString(WINDOW),
                "spark.sparkscope.retained.sqlExecutions", Integer.toString(WINDOW)), w -> { });
        EmbeddedPostgres pg = ListenerOutageTest.start(port, dataDir);
        RecordingPipeline pipeline = Wiring.pipeline(cfg);
        pipeline.start();
        try {
            pipeline.offer(new SparkEvent.ApplicationStart("windowed", APP, null, T0, "alice"));
            pipeline.offer(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(),
                    Map.of()));

            // 1. database up: 20 jobs, 4 at a time, each batch stored before the next (a window of 5 is smaller
            //    than what arrives during one slow write); the older ones leave the driver once written
            var ds = pg.getPostgresDatabase();
            for (int i = 0; i < 20; i++) {
                job(pipeline, i);
                if (i % 4 == 3) {
                    int stored = i + 1;
                    waitFor(stored + " jobs stored", Duration.ofSeconds(120),
                            () -> read(ds, APP).map(s -> s.jobs().size() == stored).orElse(false));
                }
            }
            waitFor("the driver keeping a window", Duration.ofSeconds(30),
                    () -> pipeline.lastSnapshot().jobs().size() <= 2 * WINDOW);
            assertEquals(0, pipeline.recorder().leftUnwritten());

            // 2. database away: 8 more jobs (within twice the window) wait in the driver and go to the spool
            pg.close();
            for (int i = 20; i < 28; i++) {
                job(pipeline, i);
            }
            Set<Integer> unwritten = IntStream.range(20, 28).boxed().collect(Collectors.toSet());
            AtomicReference<AppSnapshot> spool = new AtomicReference<>();
            waitFor("the retained snapshot with every unwritten job in the spool", Duration.ofSeconds(60), () -> {
                spool.set(spooled(cfg));
                return spool.get() != null && spool.get().jobs().stream().map(JobSummary::jobId).toList()
                        .containsAll(unwritten);
            });
            AppSnapshot spooled = spool.get();
            assertTrue(spooled.partial(), "jobs that were written left it: it must not replace the stored ones");
            assertEquals(28, spooled.totals().jobs(), "its totals count the whole run");
            assertTrue(pipeline.lastSnapshot().jobs().stream().map(JobSummary::jobId).toList()
                    .containsAll(unwritten), "nothing unwritten left the driver");
            assertEquals(0, pipeline.recorder().leftUnwritten());

            // 3. database back, then the application ends: every job is stored once, the spool is emptied
            pg = ListenerOutageTest.start(port, dataDir);
            var ds2 = pg.getPostgresDatabase();
            pipeline.offer(new SparkEvent.ApplicationEnd(T0 + 100_000));
            assertTrue(pipeline.awaitDone(60_000), "the final snapshot was written");
            waitFor("the final snapshot stored", Duration.ofSeconds(60),
                    () -> read(ds2, APP).map(AppSnapshot::complete).orElse(false));
            AppSnapshot stored = read(ds2, APP).orElseThrow();
            assertEquals(IntStream.range(0, 28).boxed().toList(),
                    stored.jobs().stream().map(JobSummary::jobId).toList());
            assertTrue(stored.jobs().stream().allMatch(j -> j.numCompletedTasks() == 2), stored.jobs().toString());
            assertEquals(28, stored.stages().size());
            assertEquals(28, stored.sqlExecutions().size());
            assertEquals(56, stored.totalTasks());
            waitFor("spool emptied", Duration.ofSeconds(30), () -> spoolFiles(spoolDir) == 0);
        } finally {
            pipeline.stop();
            pg.close();
        }
    }

    /** The application's spooled snapshot, or null while there is none (or it is being replaced). */
    private static AppSnapshot spooled(ListenerConfig cfg) {
        try {
            Spool spool = Wiring.spool(cfg);
            List<Path> files = spool.files();
            return files.isEmpty() ? null : spool.load(files.get(0));
        } catch (Exception e) {
            return null;
        }
    }

    /** One SQL job, one stage of 2 tasks. */
    private static void job(RecordingPipeline p, int i) {
        SqlJobEvents.events(i, T0, 2, false).forEach(p::offer);
    }
}
