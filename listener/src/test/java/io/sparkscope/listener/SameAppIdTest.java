package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two applications under one {@code spark.app.id}: while the database holds the other one complete, a live
 * listener's writes are refused with one line in the driver log and never merged into it, and what the listener
 * recorded stays in the driver, since none of it was written.
 */
class SameAppIdTest {
    private static final String APP_ID = "app-same-id";

    @Test
    void aSecondApplicationWithTheSameIdIsRefusedNotMerged(@TempDir Path spool) throws Exception {
        List<SparkEvent> events = new ArrayList<>();
        EventLogReader.read(EventLogReader.discover(ExampleEventLogs.DIR).get(0), events::add,
                p -> { throw new AssertionError(p); });
        // The other application: the same id, started an hour earlier, already stored complete.
        Recorder other = new Recorder();
        for (SparkEvent e : events) {
            other.onEvent(e instanceof SparkEvent.ApplicationStart s
                    ? new SparkEvent.ApplicationStart(s.appName(), APP_ID, s.attemptId(), s.time() - 3_600_000,
                    s.sparkUser())
                    : e);
        }
        AppSnapshot stored = other.snapshot();
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        SchemaManager.migrate(ds);
        new SnapshotWriter().write(ds, stored, List.of());
        AppSnapshot before = SnapshotReader.read(ds, APP_ID, stored.attemptId()).orElseThrow();

        CapturedLog captured = CapturedLog.of(SnapshotDelivery.class);
        ListenerConfig cfg = ListenerConfig.from(Map.of(
                "spark.sparkscope.jdbc.url", TestDb.url(db),
                "spark.sparkscope.spool.dir", spool.toString(),
                "spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.retained.jobs", "2",
                "spark.sparkscope.retained.stages", "3",
                "spark.sparkscope.report.enabled", "false"), w -> { throw new AssertionError(w); });
        RecordingPipeline p = Wiring.pipeline(cfg);
        try {
            p.start();
            for (SparkEvent e : events) {
                p.offer(e instanceof SparkEvent.ApplicationStart s
                        ? new SparkEvent.ApplicationStart(s.appName(), APP_ID, s.attemptId(), s.time(), s.sparkUser())
                        : e);
                if (e instanceof SparkEvent.JobEnd || e instanceof SparkEvent.StageCompleted) {
                    Thread.sleep(150); // a periodic write after each, which would let written entities leave
                }
            }
            assertTrue(p.awaitFinished(60_000), "the final snapshot handled");
            assertTrue(p.awaitDone(30_000));
        } finally {
            p.stop();
            captured.close();
        }

        AppSnapshot after = SnapshotReader.read(ds, APP_ID, stored.attemptId()).orElseThrow();
        assertEquals(before.startTime(), after.startTime(), "the stored application is still the other one");
        assertEquals(before.jobs(), after.jobs(), "nothing of this application merged into the other's jobs");
        assertEquals(before.stages(), after.stages(), "nor into its stages");
        assertEquals(before.eventCount(), after.eventCount());

        List<String> refusals = captured.lines.stream().filter(l -> l.contains("another application")).toList();
        assertEquals(1, refusals.size(), "one line in the driver log: " + captured.lines);
        assertTrue(refusals.get(0).contains(APP_ID) && refusals.get(0).contains("spark.app.id"), refusals.get(0));

        // Nothing was written, so nothing left the driver: the final snapshot still holds every job and stage.
        AppSnapshot recorded = p.lastSnapshot();
        assertEquals(stored.jobs().size(), recorded.jobs().size(), "every job kept in the driver");
        assertEquals(stored.stages().size(), recorded.stages().size(), "every stage attempt kept in the driver");
        assertTrue(recorded.jobs().size() > 1, "the windows (2 jobs, 3 stage attempts) would have let the others go once written");
    }
}
