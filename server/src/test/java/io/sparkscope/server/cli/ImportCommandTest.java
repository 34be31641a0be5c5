package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.Spool;
import io.sparkscope.store.SpoolTarget;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sparkscope import} into a real PostgreSQL: event logs and a listener spool, idempotent. */
class ImportCommandTest {
    private static final Path SHIPPED = ExampleEventLogs.DIR;

    @Test
    void importingTwiceChangesNothing() throws Exception {
        String db = TestDb.newDatabaseName();
        CliRun first = CliRun.of("import", SHIPPED.toString(), "--db", TestDb.url(db));
        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.err().contains("imported 1 application(s)"), first.err());
        assertTrue(first.err().contains("events/s"), "progress on stderr: " + first.err());
        DataSource ds = TestDb.dataSource(db);
        long tasks = TestDb.count(ds, "select count(*) from task");
        long findings = TestDb.count(ds, "select count(*) from finding");
        assertTrue(tasks > 0 && findings > 0);

        CliRun second = CliRun.of("import", SHIPPED.toString(), "--db", TestDb.url(db));
        assertEquals(0, second.exitCode(), second.err());
        assertEquals(1, TestDb.count(ds, "select count(*) from application"));
        assertEquals(tasks, TestDb.count(ds, "select count(*) from task"));
        assertEquals(findings, TestDb.count(ds, "select count(*) from finding"));
    }

    @Test
    void reanalyzeFollowsNewThresholds(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        assertEquals(0, CliRun.of("import", SHIPPED.toString(), "--db", TestDb.url(db)).exitCode());
        DataSource ds = TestDb.dataSource(db);
        String serializer = "select count(*) from finding where heuristic = 'StageSkew'";
        assertEquals(1, TestDb.count(ds, serializer));
        Path cfg = Files.writeString(dir.resolve("t.properties"), "StageSkew.enabled=false\n");
        CliRun run = CliRun.of("reanalyze", "--db", TestDb.url(db), "--heuristics-config", cfg.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("reanalyzed 1 application(s)"), run.err());
        assertEquals(0, TestDb.count(ds, serializer));
    }

    @Test
    void spoolIsDeliveredAndEmptied(@TempDir Path spoolDir) throws Exception {
        AppSnapshot s = EventLogAnalysis.analyze(EventLogReader.discover(SHIPPED).get(0), RecorderOptions.DEFAULTS,
                p -> { }).snapshot();
        String db = TestDb.newDatabaseName();
        Spool spool = new Spool(spoolDir, 1 << 30, SpoolTarget.of(TestDb.url(db), null), m -> { });
        assertEquals(0, spool.save(s));
        CliRun run = CliRun.of("import", "--spool", spoolDir.toString(), "--db", TestDb.url(db));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(s, SnapshotReader.read(TestDb.dataSource(db), s.appId(), null).orElseThrow());
        assertTrue(spool.files().isEmpty(), "delivered spool files are removed");
    }

    @Test
    void unreachableDatabaseIsOneLine() {
        CliRun run = CliRun.of("import", SHIPPED.toString(), "--db",
                "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=1");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("sparkscope import: cannot connect to"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void notAPostgresUrl() {
        CliRun run = CliRun.of("import", SHIPPED.toString(), "--db", "mysql://x");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--db"), run.err());
    }

    @Test
    void nothingToImportIsNonZero(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("not-a-log"), "hello\n");
        CliRun run = CliRun.of("import", dir.resolve("not-a-log").toString(), "--db", TestDb.url(TestDb.newDatabaseName()));
        assertEquals(1, run.exitCode(), run.err());
    }
}
