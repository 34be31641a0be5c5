package io.sparkscope.server.cli;

import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.sql.DataSource;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code watch} and {@code serve --watch} from the command line, and the one-line errors of log locations. */
class WatchCommandTest {
    private static final long T0 = 1_764_000_000_000L;

    @Test
    void watchOnceStoresTheDirectoryAndSaysWhatItDid(@TempDir Path dir) throws Exception {
        new SyntheticLog("application_1764000000000_0401", "once", T0, 2, 20).writeTo(dir.resolve("application_1764000000000_0401"));
        new SyntheticLog("application_1764000000000_0402", "running", T0, 2, 20).running()
                .writeTo(dir.resolve("application_1764000000000_0402.inprogress"));
        Files.writeString(dir.resolve("notes.txt"), "not a log\n");
        String db = TestDb.newDatabaseName();
        CliRun run = CliRun.of("watch", dir.toString(), "--db", TestDb.url(db), "--once");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("scan 1: 3 logs: 2 new"), run.err());
        assertTrue(run.err().contains("notes.txt: skipped, not an event log"), run.err());
        DataSource ds = TestDb.dataSource(db);
        assertEquals(1, TestDb.count(ds, "select count(*) from application where status = 'COMPLETE'"));
        assertEquals(1, TestDb.count(ds, "select count(*) from application where status = 'RUNNING'"));
        CliRun again = CliRun.of("watch", dir.toString(), "--db", TestDb.url(db), "--once");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains(" 0 events in "), "a second run decodes nothing: " + again.err());
    }

    @Test
    void badLocationsAreOneLine(@TempDir Path dir) throws Exception {
        String db = TestDb.url(TestDb.newDatabaseName());
        CliRun missing = CliRun.of("watch", dir.resolve("none").toString(), "--db", db, "--once");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("sparkscope watch: " + dir.resolve("none") + ": not a directory"),
                missing.err());
        Path file = Files.writeString(dir.resolve("app-1"), "{}\n");
        CliRun aFile = CliRun.of("watch", file.toString(), "--db", db, "--once");
        assertEquals(2, aFile.exitCode());
        assertTrue(aFile.err().contains("not a directory"), aFile.err());
        CliRun interval = CliRun.of("watch", dir.toString(), "--db", db, "--interval", "soon");
        assertEquals(2, interval.exitCode());
        assertTrue(interval.err().contains("--interval: 'soon' is not a duration"), interval.err());
    }

    @Test
    void aSchemeWithNoFilesystemOnTheClasspathIsOneLine() {
        // the server's own classpath has no sparkscope-hadoop.jar
        for (String[] args : new String[][]{{"analyze", "hdfs://namenode:8020/spark-events"},
                {"import", "s3a://AKIAEXAMPLE:VerySecret@bucket/logs", "--db", "jdbc:postgresql://127.0.0.1:1/x"}}) {
            CliRun run = CliRun.of(args);
            assertEquals(2, run.exitCode(), run.err());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.err().contains("no filesystem for the scheme"), run.err());
            assertTrue(run.err().contains("sparkscope-hadoop.jar"), run.err());
            assertFalse(run.err().contains("VerySecret"), run.err());
        }
    }

    @Test
    void serveWatchShowsARunningApplicationThenItsEnd(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        // started a minute ago: the pages show a silent unfinished application as INCOMPLETE only after an hour
        SyntheticLog log = new SyntheticLog("application_1764000000000_0403", "served",
                System.currentTimeMillis() - 60_000, 3, 30);
        Path growing = dir.resolve(log.appId() + ".inprogress");
        Iterator<String> lines = log.lines();
        try (OutputStream o = Files.newOutputStream(growing)) {
            SyntheticLog.write(lines, o, 60, false);
        }
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--db", TestDb.url(db), "--port", "0", "--watch", dir.toString(),
                "--interval", "200ms");
        try (ServeCommand.Running running = serve.start()) {
            String base = "http://127.0.0.1:" + running.port();
            await(base, body -> body.contains("\"total\":1") && body.contains("RUNNING"));
            try (OutputStream o = Files.newOutputStream(growing, java.nio.file.StandardOpenOption.APPEND)) {
                SyntheticLog.write(lines, o, Long.MAX_VALUE, false);
            }
            Files.move(growing, dir.resolve(log.appId()));
            await(base, body -> body.contains("\"total\":1") && body.contains("COMPLETE") && !body.contains("RUNNING"));
        }
    }

    private static void await(String base, Predicate<String> ok) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String body = "";
        for (int i = 0; i < 300; i++) {
            body = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/apps")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            if (ok.test(body)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not seen in 30 s: " + body);
    }
}
