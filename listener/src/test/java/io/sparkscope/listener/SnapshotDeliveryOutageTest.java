package io.sparkscope.listener;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.Spool;
import io.sparkscope.store.SpoolTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With the database away, the final snapshot reaches the spool at once even while delivery is backing off. */
class SnapshotDeliveryOutageTest {
    @Test
    void theFinalSnapshotIsSpooledAtOnceDuringALongBackoff(@TempDir Path spoolDir) throws Exception {
        Recorder r = new Recorder();
        Path shipped = ExampleEventLogs.DIR;
        EventLogReader.read(EventLogReader.discover(shipped).get(0), r::onEvent, p -> { });
        AppSnapshot app = r.snapshot();

        // a real JDBC store pointed at a port where no database listens
        ListenerConfig cfg = ListenerConfig.from(Map.of("spark.sparkscope.jdbc.url",
                "jdbc:postgresql://127.0.0.1:1/nowhere"), w -> { });
        SnapshotDelivery d = new SnapshotDelivery(new JdbcSnapshotStore(cfg), new Spool(spoolDir, 1L << 30,
                SpoolTarget.of(cfg.jdbcUrl(), null), w -> { }),
                s -> List.of(), 60_000);
        d.start();
        try {
            // a periodic snapshot that cannot be written: retries after 1 s, 2 s, 4 s, 8 s …, so four seconds in,
            // the writer is inside a backoff that lasts several more seconds
            d.submit(app, List.of(), false);
            Thread.sleep(4_000);
            long t0 = System.nanoTime();
            d.submit(app, List.of(), true);
            assertTrue(d.awaitFinal(1_500), "final snapshot handled within 1.5 s although the backoff lasts ~3 s more");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 1_500, "took " + ms + " ms");
            try (var files = Files.list(spoolDir)) {
                assertTrue(files.findAny().isPresent(), "the final state is in the spool");
            }
        } finally {
            d.stop();
        }
    }

    @Test
    void aFinalSnapshotTheFullSpoolCannotHoldIsSaidAtTheApplicationsEnd(@TempDir Path spoolDir) throws Exception {
        Recorder r = new Recorder();
        EventLogReader.read(EventLogReader.discover(ExampleEventLogs.DIR).get(0), r::onEvent, p -> { });
        AppSnapshot app = r.snapshot();
        ListenerConfig cfg = ListenerConfig.from(Map.of("spark.sparkscope.jdbc.url",
                "jdbc:postgresql://127.0.0.1:1/nowhere"), w -> { });
        CapturedLog captured = CapturedLog.of(SnapshotDelivery.class);
        // room for nothing: every snapshot is dropped
        SnapshotDelivery d = new SnapshotDelivery(new JdbcSnapshotStore(cfg), new Spool(spoolDir, 100,
                SpoolTarget.of(cfg.jdbcUrl(), null), w -> { }), s -> List.of(), 60_000);
        d.start();
        try {
            d.submit(app, List.of(), false);
            ListenerOutageTest.waitFor("the first spool warning", java.time.Duration.ofSeconds(30),
                    () -> captured.lines.stream().anyMatch(l -> l.contains("is full")));
            d.submit(app, List.of(), true);
            assertTrue(d.awaitFinal(30_000));
        } finally {
            d.stop();
            captured.close();
        }
        List<String> atEnd = captured.lines.stream().filter(l -> l.contains("application end")).toList();
        assertEquals(1, atEnd.size(), "one line at the application's end: " + captured.lines);
        String line = atEnd.get(0);
        assertTrue(line.contains(app.appId()) && line.contains("did not fit") && line.contains("spool.maxBytes = 100")
                && line.contains(app.jobs().size() + " job(s)") && line.contains("lost"), line);
        try (var files = Files.list(spoolDir)) {
            assertEquals(0, files.count(), "no older copy left to be delivered as a running application");
        }
    }
}
