package io.sparkscope.ingest.watch;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.DatabricksRollover;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.ingest.IngestService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The watcher on Databricks rollover folders (dated {@code eventlog-….gz} files and the current {@code eventlog}):
 * one application each, read when first seen, when a file rolls, and once the folder is left alone for an interval.
 */
class DatabricksRolloverWatchTest {
    private static final String APP = "app-20220114165818-0000";
    /** Long, so that a file written by the test is "being written" for the whole test unless its time is set back. */
    private static final Duration INTERVAL = Duration.ofMinutes(10);
    private static final long LONG_AGO = 1_642_179_495_331L;

    private static LogWatcher watcher(Path dir, DataSource ds, String owner, List<String> out) {
        Diagnoser d = Diagnoser.defaults();
        IngestService ingest = IngestService.builder(ds).heuristics(d::diagnose).build();
        LogWatcher.Options o = new LogWatcher.Options(INTERVAL, 8, RecorderOptions.DEFAULTS, Duration.ofMinutes(2));
        return new LogWatcher(dir, ingest, new LogWatchStates(ds, owner, o.lease()), o, out::add);
    }

    private static long tasks(DataSource ds) {
        return TestDb.count(ds, "select coalesce(sum(s.num_complete_tasks), 0) from stage_attempt s join application a"
                + " using (app_pk) where a.app_id = '" + APP + "'");
    }

    private static String status(DataSource ds) {
        long complete = TestDb.count(ds, "select count(*) from application where app_id = '" + APP
                + "' and status = 'COMPLETE'");
        long running = TestDb.count(ds, "select count(*) from application where app_id = '" + APP
                + "' and status = 'RUNNING'");
        return complete == 1 ? "COMPLETE" : running == 1 ? "RUNNING" : "complete " + complete + ", running " + running;
    }

    /** The application's lines as Databricks writes them: without SparkListenerLogStart. */
    private static List<String> lines(SyntheticLog app) {
        List<String> lines = new ArrayList<>();
        for (Iterator<String> it = app.lines(); it.hasNext(); ) {
            String line = it.next();
            if (!line.startsWith("{\"Event\":\"SparkListenerLogStart\"")) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static void append(Path file, List<String> lines) throws IOException {
        StringBuilder b = new StringBuilder();
        lines.forEach(l -> b.append(l).append('\n'));
        Files.writeString(file, b, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Databricks' rollover: the current file is compressed under its dated name, a new current one begins. */
    private static void roll(Path folder, String datedName, int rolloverNumber) throws IOException {
        Path current = folder.resolve("eventlog");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(folder.resolve(datedName)))) {
            out.write(Files.readAllBytes(current));
        }
        Files.setLastModifiedTime(folder.resolve(datedName), FileTime.fromMillis(LONG_AGO));
        Files.writeString(current, DatabricksRollover.metadata(rolloverNumber) + "\n", StandardCharsets.UTF_8);
    }

    private static void settle(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, FileTime.fromMillis(LONG_AGO));
            }
        }
    }

    @Test
    void aNestedRolloverFolderIsOneApplicationReadWhenAFileRollsAndWhenItSettles(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.migrated();
        SyntheticLog app = new SyntheticLog(APP, "Databricks Shell", LONG_AGO, 8, 30);
        List<String> lines = lines(app);
        int q = lines.size() / 4;
        // as Databricks nests it: <cluster>/eventlog/<cluster>_<driver ip>/<context id>/
        Path folder = Files.createDirectories(dir.resolve("0114-165512-abcd123/eventlog/0114-165512-abcd123_10_0_0_1"
                + "/3987391921526261116"));
        Files.writeString(folder.resolve("eventlog"), DatabricksRollover.metadata(0) + "\n");
        append(folder.resolve("eventlog"), lines.subList(0, q));
        roll(folder, "eventlog-2022-01-14--17-00.gz", 1);
        append(folder.resolve("eventlog"), lines.subList(q, 2 * q));
        settle(folder);
        SyntheticLog plain = new SyntheticLog("application_1764000000000_0501", "plain", LONG_AGO, 2, 20);
        plain.writeTo(dir.resolve(plain.appId()));
        List<String> out = new ArrayList<>();
        LogWatcher w = watcher(dir, ds, "w1", out);

        LogWatcher.Scan first = w.scan();
        String said = String.join("\n", out);
        assertEquals(null, first.error(), said);
        assertEquals(2, first.logs(), "the rollover folder is one log beside the plain one: " + first.line());
        assertEquals(2, first.newLogs(), first.line() + "\n" + said);
        assertEquals(2, TestDb.count(ds, "select count(*) from application"), said);
        assertEquals("RUNNING", status(ds), "no ApplicationEnd yet: " + said);
        long tasksAtFirst = tasks(ds);
        assertTrue(tasksAtFirst > 0, said);
        assertTrue(said.contains(folder + ": " + APP + " no ApplicationEnd yet"), said);

        assertEquals(2, w.scan().unchanged(), "nothing changed, nothing read");

        // the current file grows: the folder waits until it is left alone or a file rolls
        append(folder.resolve("eventlog"), lines.subList(2 * q, 2 * q + q / 2));
        LogWatcher.Scan growing = w.scan();
        assertEquals(1, growing.settling(), growing.line());
        assertEquals(0, growing.events(), growing.line());
        assertTrue(growing.line().contains("1 Databricks rollover(s) still being written"), growing.line());
        assertEquals(tasksAtFirst, tasks(ds));

        // a file rolls: read again at once, still one application
        roll(folder, "eventlog-2022-01-14--18-00.gz", 2);
        append(folder.resolve("eventlog"), lines.subList(2 * q + q / 2, 3 * q));
        LogWatcher.Scan rolled = w.scan();
        assertEquals(1, rolled.grown(), rolled.line() + "\n" + String.join("\n", out));
        long tasksAfterRoll = tasks(ds);
        assertTrue(tasksAfterRoll > tasksAtFirst, tasksAfterRoll + " after the roll, " + tasksAtFirst + " before");
        assertEquals(2, TestDb.count(ds, "select count(*) from application"));

        // the application ends; the folder is read once it has been left alone for an interval
        append(folder.resolve("eventlog"), lines.subList(3 * q, lines.size()));
        assertEquals(1, w.scan().settling());
        assertEquals("RUNNING", status(ds));
        settle(folder);
        LogWatcher.Scan ended = w.scan();
        assertEquals(1, ended.grown(), ended.line() + "\n" + String.join("\n", out));
        assertEquals("COMPLETE", status(ds), String.join("\n", out));
        assertEquals(app.tasks(), tasks(ds));
        assertEquals(2, TestDb.count(ds, "select count(*) from application"));
        assertEquals(2, w.scan().unchanged());

        // a restart reads nothing again
        List<String> out2 = new ArrayList<>();
        LogWatcher.Scan restarted = watcher(dir, ds, "w2", out2).scan();
        assertEquals(0, restarted.events(), restarted.line() + "\n" + out2);
        assertEquals(2, restarted.unchanged(), restarted.line());
    }

    @Test
    void aWatchedDirectoryThatIsARolloverFolderIsOneApplication(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.migrated();
        SyntheticLog app = new SyntheticLog(APP, "Databricks Shell", LONG_AGO, 6, 40);
        DatabricksRollover.write(dir, app);
        settle(dir);
        List<String> out = new ArrayList<>();
        LogWatcher.Scan s = watcher(dir, ds, "w1", out).scan();
        assertEquals(1, s.logs(), "three files, one log: " + s.line() + "\n" + out);
        assertEquals(1, s.newLogs(), s.line() + "\n" + out);
        assertEquals(1, TestDb.count(ds, "select count(*) from application"));
        assertEquals("COMPLETE", status(ds), String.join("\n", out));
        assertEquals(app.tasks(), tasks(ds));

        // stored under the directory's own name, which a restarted watcher finds again
        List<String> out2 = new ArrayList<>();
        LogWatcher.Scan again = watcher(dir, ds, "w2", out2).scan();
        assertEquals(0, again.events(), again.line() + "\n" + out2);
        assertEquals(1, again.unchanged(), again.line());
    }

    /** The real rollover from a Databricks cluster (Spark 3.1.2, still running when copied), watched in place. */
    @Test
    void theRealDatabricksRolloverIsWatchedAsOneApplication() throws Exception {
        Path real = SharedData.eventLogs().map(p -> p.resolve("other/databricks-rollover")).filter(Files::isDirectory)
                .orElse(null);
        assumeTrue(real != null, "../shared/eventlogs/other/databricks-rollover not found (set SPARKSCOPE_SHARED or"
                + " run from a checkout next to it): skipping the watch of a real Databricks rollover");
        DataSource ds = TestDb.migrated();
        List<String> out = new ArrayList<>();
        LogWatcher.Scan s = watcher(real, ds, "w1", out).scan();
        String said = String.join("\n", out);
        assertEquals(null, s.error(), said);
        assertEquals(1, s.logs(), s.line() + "\n" + said);
        assertEquals(1, s.newLogs(), s.line() + "\n" + said);
        assertEquals(0, s.failed(), s.line() + "\n" + said);
        assertEquals(1, TestDb.count(ds, "select count(*) from application"));
        assertEquals("RUNNING", status(ds), "no ApplicationEnd: the application was still running");
        // counted over the three files, as the reader's own test on this rollover counts them
        assertEquals(8_247, TestDb.count(ds, "select coalesce(sum(s.num_complete_tasks), 0) from stage_attempt s"));
    }
}
