package io.sparkscope.archive;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.server.cli.Main;
import io.sparkscope.store.TestDb;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The archive import on real Spark (local mode, two cores, so two tasks store at the same time) and a real
 * PostgreSQL, against {@code sparkscope import} of the same folder: every table the same, row for row; a rerun
 * reads only the running log again and changes nothing; a file that is no event log is skipped, a corrupt log is
 * one failure and costs nothing else.
 */
class ArchiveImportTest {
    static final long T0 = 1_764_000_000_000L;
    static final String CORRUPT = "application_1764000000000_0900";
    static SparkContext spark;

    @BeforeAll
    static void startSpark() {
        spark = SparkContext.getOrCreate(new SparkConf().setMaster("local[2]").setAppName("archive-import-test")
                .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    /**
     * 24 logs: runs of four recurring jobs, some of them much slower (Regression findings, so runs of one job stored
     * by two tasks at once must still see each other), in two month folders, in every layout Spark writes (plain,
     * zstd, rolling, in progress); a README, a checksum file, and a log cut off after its first line.
     */
    static Path archive(Path dir) throws IOException {
        int n = 24;
        for (int i = 0; i < n; i++) {
            int tasks = 10 + 4 * (i % 5) + (i % 7 == 6 ? 120 : 0);
            SyntheticLog log = new SyntheticLog(String.format("application_1764000000000_%04d", 100 + i),
                    "recurring-" + (i % 4), T0 + i * 3_600_000L, 2, tasks).seed(i);
            Path month = Files.createDirectories(dir.resolve(i < n / 2 ? "2026-11" : "2026-12"));
            if (i == 5 || i == 17) {
                log.writeRolling(month, 40);
            } else if (i % 9 == 4) {
                log.writeTo(month.resolve(log.appId() + ".zstd"), out -> {
                    try {
                        return new ZstdOutputStream(out);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } else {
                log.writeTo(month.resolve(log.appId()));
            }
        }
        new SyntheticLog("application_1764000000000_0199", "still-running", T0, 2, 10).running()
                .writeTo(dir.resolve("application_1764000000000_0199.inprogress"));
        Files.writeString(dir.resolve("README.txt"), "logs of the nightly jobs\n");
        Files.writeString(dir.resolve("2026-11").resolve(".application_1764000000000_0100.crc"), "crc\n");
        // a log cut off after its first line: an event log by its look, with no application in it
        Files.writeString(dir.resolve(CORRUPT), "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
                + "\u0000\u0001garbage where the rest of the log was\n");
        return dir;
    }

    record Run(int code, String out) {
        List<String> lines() {
            return Arrays.asList(out.split("\n"));
        }

        String summary() {
            List<String> l = lines();
            for (int i = l.size() - 1; i >= 0; i--) {
                if (l.get(i).contains(" written, ")) {
                    return l.get(i);
                }
            }
            throw new AssertionError("no summary line in:\n" + out);
        }
    }

    static Run sparkImport(String... args) {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = ArchiveImport.run(args);
        } finally {
            System.setErr(old);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        System.err.print(text);
        return new Run(code, text);
    }

    @Test
    void theDatabaseIsTheOneImportBuildsAndARerunChangesNothing(@TempDir Path tmp) throws Exception {
        Path dir = archive(Files.createDirectories(tmp.resolve("archive")));
        String byImport = TestDb.newDatabaseName();
        String bySpark = TestDb.newDatabaseName();
        assertEquals(1, Main.run("import", dir.toString(), "--db", TestDb.url(byImport)),
                "import: the corrupt log is not stored");

        Run first = sparkImport(dir.toString(), "--db-url", TestDb.url(bySpark), "--max-connections", "5",
                "--progress-interval", "1");
        assertEquals(1, first.code(), "as import: one log not stored\n" + first.out());
        assertTrue(first.out().contains("in 2 task(s)"), first.out());
        assertTrue(first.summary().contains(ArchiveImport.PREFIX + "25 written, 0 unchanged"), first.summary());
        assertTrue(first.summary().contains("1 skipped non-logs"), "README.txt: " + first.summary());
        assertTrue(first.summary().contains("1 failed (" + dir.resolve(CORRUPT) + ")"), first.summary());
        List<String> failureLines = first.lines().stream().filter(l -> l.contains("not imported")).toList();
        assertEquals(List.of(ArchiveImport.PREFIX + dir.resolve(CORRUPT) + ": not imported: no Spark application "
                + "events"), failureLines);
        assertTrue(first.lines().stream().noneMatch(l -> l.startsWith("\tat ")), "no stack trace");

        DataSource a = TestDb.dataSource(byImport);
        DataSource b = TestDb.dataSource(bySpark);
        assertEquals(25, TestDb.count(a, "SELECT count(*) FROM application"));
        assertTrue(TestDb.count(a, "SELECT count(*) FROM finding WHERE heuristic = 'Regression'") > 0,
                "the slow runs have Regression findings to compare");
        Map<String, String> expected = TableChecksums.of(a);
        assertEquals(expected, TableChecksums.of(b), "every table as import builds it");

        Run again = sparkImport(dir.toString(), "--db-url", TestDb.url(bySpark), "--max-connections", "5");
        assertEquals(1, again.code(), again.out());
        // the running log is read again (it may have grown), the finished ones are not
        assertTrue(again.summary().contains("0 written, 25 unchanged (24 of them not read again)"), again.summary());
        assertTrue(again.summary().contains("1 skipped non-logs, 1 failed"), again.summary());
        assertEquals(expected, TableChecksums.of(b), "and changes nothing");
    }

    @Test
    void sparksOwnLogsGiveTheSameDatabaseToo() throws Exception {
        Path shared = SharedData.eventLogs().orElse(null);
        if (shared == null) {
            System.err.println("SKIPPED: ArchiveImportTest on ../shared/eventlogs: not found (set SPARKSCOPE_SHARED)");
        }
        Assumptions.assumeTrue(shared != null, "../shared/eventlogs not found (set SPARKSCOPE_SHARED)");
        String byImport = TestDb.newDatabaseName();
        String bySpark = TestDb.newDatabaseName();
        int importCode = Main.run("import", shared.toString(), "--db", TestDb.url(byImport));
        Run run = sparkImport(shared.toString(), "--db-url", TestDb.url(bySpark));
        assertEquals(importCode, run.code(), "the same exit status as import\n" + run.out());
        DataSource a = TestDb.dataSource(byImport);
        assertTrue(TestDb.count(a, "SELECT count(*) FROM application") > 20);
        assertEquals(TableChecksums.of(a), TableChecksums.of(TestDb.dataSource(bySpark)),
                "every table as import builds it");
    }

    @Test
    void anUnreachableDatabaseIsOneLine(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("logs"));
        new SyntheticLog("application_1764000000000_0001", "one", T0, 1, 5).writeTo(dir.resolve("app-1"));
        Run run = sparkImport(dir.toString(), "--db-url", "jdbc:postgresql://127.0.0.1:1/nothing");
        assertEquals(2, run.code(), run.out());
        List<String> lines = run.lines().stream().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), run.out());
        assertTrue(lines.get(0).startsWith(ArchiveImport.PREFIX + "cannot connect to jdbc:postgresql://127.0.0.1:1/"),
                run.out());
    }

    @Test
    void badAnalysisOptionsAreOneLineNamingTheOption(@TempDir Path tmp) throws Exception {
        Path thresholds = tmp.resolve("thresholds.properties");
        Files.writeString(thresholds, "NoSuchHeuristic.limit=1\n", StandardCharsets.UTF_8);
        String db = "jdbc:postgresql://127.0.0.1:1/nothing"; // never reached: options are checked first
        List<List<String>> cases = List.of(
                List.of("--tasks-per-stage", "-1"),
                List.of("--regression-factor", "0.5"),
                List.of("--heuristics-config", thresholds.toString()));
        List<String> expected = List.of("--tasks-per-stage must be >= 0, got -1",
                "--regression-factor must be a number of at least 1, got 0.5",
                "--heuristics-config: Unknown heuristics setting 'NoSuchHeuristic.limit'");
        for (int i = 0; i < cases.size(); i++) {
            List<String> args = new java.util.ArrayList<>(List.of(tmp.toString(), "--db-url", db));
            args.addAll(cases.get(i));
            Run run = sparkImport(args.toArray(String[]::new));
            assertEquals(2, run.code(), run.out());
            List<String> lines = run.lines().stream().filter(l -> !l.isBlank()).toList();
            assertEquals(1, lines.size(), run.out());
            assertTrue(lines.get(0).startsWith(ArchiveImport.PREFIX + expected.get(i)), run.out());
        }
    }
}
