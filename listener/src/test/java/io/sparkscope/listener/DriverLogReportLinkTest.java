package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver-log report links to the Sparkscope server only when the application reached the database; when it did
 * not (the database cannot be reached), one line says so and why, instead of a link to a page that does not exist.
 */
class DriverLogReportLinkTest {
    private static final String UI = "http://sparkscope.example:7070";

    @Test
    void aStoredApplicationGetsItsLink(@TempDir Path spool) throws Exception {
        String db = TestDb.newDatabaseName();
        SchemaManager.migrate(TestDb.dataSource(db));
        String report = reportOf(TestDb.url(db), spool);
        assertTrue(report.contains("  Details: " + UI + "/apps/"), report);
        assertFalse(report.contains("Not stored"), report);
    }

    @Test
    void nothingStoredMeansNoLinkButOneLineSayingWhy(@TempDir Path spool) throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens there once closed
        }
        String report = reportOf("jdbc:postgresql://127.0.0.1:" + closed + "/sparkscope?user=nobody&connectTimeout=2",
                spool);
        assertFalse(report.contains(UI), "no link to a run the server does not have:\n" + report);
        List<String> why = report.lines().filter(l -> l.contains("Not stored in the Sparkscope database")).toList();
        assertEquals(1, why.size(), report);
        assertTrue(why.get(0).contains("the database could not be reached"), why.get(0));
        assertTrue(why.get(0).contains("sparkscope import --spool " + spool), why.get(0));
    }

    @Test
    void withoutADatabaseTheServerAddressIsNotLinkedEither() throws Exception {
        ListenerConfig cfg = ListenerConfig.from(Map.of("spark.sparkscope.ui.url", UI), w -> { });
        Recorder recorder = new Recorder();
        exampleEvents().forEach(recorder::onEvent);
        String report = SparkscopeListener.reportText(cfg, recorder.snapshot(), List.of(),
                Wiring.pipeline(cfg).notStored());
        assertFalse(report.contains(UI + "/apps/"), report);
        assertTrue(report.contains("Not stored in the Sparkscope database: no database is configured"
                + " (spark.sparkscope.jdbc.url)"), report);
    }

    private static List<SparkEvent> exampleEvents() throws Exception {
        List<SparkEvent> events = new ArrayList<>();
        EventLogReader.read(EventLogReader.discover(ExampleEventLogs.DIR).get(0), events::add,
                p -> { throw new AssertionError(p); });
        return events;
    }

    /** Runs the example application through the listener's pipeline and returns the report it logged. */
    private static String reportOf(String jdbcUrl, Path spool) throws Exception {
        List<SparkEvent> events = exampleEvents();
        ListenerConfig cfg = ListenerConfig.from(Map.of(
                "spark.sparkscope.jdbc.url", jdbcUrl,
                "spark.sparkscope.spool.dir", spool.toString(),
                "spark.sparkscope.ui.url", UI,
                "spark.sparkscope.flush.intervalMs", "100"), w -> { throw new AssertionError(w); });
        RecordingPipeline p = Wiring.pipeline(cfg);
        try (CapturedLog log = CapturedLog.atInfo(SparkscopeListener.class)) {
            p.start();
            for (SparkEvent e : events) {
                p.offer(e);
            }
            assertTrue(p.awaitFinished(60_000), "the final snapshot handled");
            p.awaitDone(30_000);
            List<String> reports = log.lines.stream().filter(l -> l.contains("Sparkscope report:")).toList();
            assertEquals(1, reports.size(), "one report: " + log.lines);
            return reports.get(0);
        } finally {
            p.stop();
        }
    }
}
