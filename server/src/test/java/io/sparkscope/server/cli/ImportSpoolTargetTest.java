package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.Spool;
import io.sparkscope.store.SpoolTarget;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code import --spool} delivers a spool file only to the database it was spooled for. */
class ImportSpoolTargetTest {
    private static final Path SHIPPED = ExampleEventLogs.DIR;

    private static AppSnapshot shipped() throws Exception {
        return EventLogAnalysis.analyze(EventLogReader.discover(SHIPPED).get(0), RecorderOptions.DEFAULTS, p -> { })
                .snapshot();
    }

    @Test
    void aFileSpooledForAnotherDatabaseIsLeftInPlace(@TempDir Path spoolDir) throws Exception {
        String meant = TestDb.newDatabaseName();
        String other = TestDb.newDatabaseName();
        AppSnapshot s = shipped();
        Spool spool = new Spool(spoolDir, 1 << 30, SpoolTarget.of(TestDb.url(meant), null), m -> { });
        spool.save(s);
        Path file = spool.files().get(0);

        CliRun wrong = CliRun.of("import", "--spool", spoolDir.toString(), "--db", TestDb.url(other));
        assertNotEquals(0, wrong.exitCode(), wrong.err());
        assertTrue(wrong.err().contains("spooled for another database"), wrong.err());
        assertTrue(Files.exists(file), "left in place");
        assertTrue(SnapshotReader.read(TestDb.dataSource(other), s.appId(), null).isEmpty(), "nothing written");

        CliRun right = CliRun.of("import", "--spool", spoolDir.toString(), "--db", TestDb.url(meant));
        assertEquals(0, right.exitCode(), right.err());
        assertEquals(s, SnapshotReader.read(TestDb.dataSource(meant), s.appId(), null).orElseThrow());
        assertFalse(Files.exists(file), "delivered and removed");
    }

    @Test
    void anUntaggedFileNeedsAcceptUntagged(@TempDir Path spoolDir) throws Exception {
        AppSnapshot s = shipped();
        Path file = spoolDir.resolve(s.appId() + Spool.SUFFIX);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            SnapshotCodec.write(s, out); // the format of listeners before spool files named their database
        }
        String db = TestDb.newDatabaseName();
        CliRun refused = CliRun.of("import", "--spool", spoolDir.toString(), "--db", TestDb.url(db));
        assertNotEquals(0, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("--accept-untagged"), refused.err());
        assertTrue(Files.exists(file));

        CliRun accepted = CliRun.of("import", "--spool", spoolDir.toString(), "--db", TestDb.url(db),
                "--accept-untagged");
        assertEquals(0, accepted.exitCode(), accepted.err());
        assertEquals(s, SnapshotReader.read(TestDb.dataSource(db), s.appId(), null).orElseThrow());
        assertFalse(Files.exists(file));
    }
}
