package io.sparkscope.server.cli;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --decode-threads}: {@code analyze --json}, {@code import} and {@code watch} give the same bytes and the
 * same stored rows with one decoding thread as with four, on logs of several batches, one with bad lines.
 */
class DecodeThreadsTest {
    /** Columns that say when a row was written, not what the log holds. */
    private static final Set<String> WRITE_TIMES = Set.of("updated_at", "modified_at", "claimed_at", "sent_at",
            "next_attempt_at", "pruned_at", "completed_at");

    @AfterEach
    void defaultThreads() {
        System.clearProperty(EventLogReader.DECODE_THREADS_PROPERTY);
    }

    /** Two logs of several 1 MiB batches each (one with bad lines), and the examples' log. */
    private static Path logs(Path dir) throws Exception {
        Path logs = dir.resolve("logs");
        new SyntheticLog("app-20261205-0101", "threads", 1_764_000_000_000L, 8, 600).writeTo(logs.resolve("app-20261205-0101"));
        Path bad = logs.resolve("app-20261205-0102");
        new SyntheticLog("app-20261205-0102", "threads-bad", 1_764_000_100_000L, 5, 500).writeTo(bad);
        List<String> lines = new ArrayList<>(Files.readAllLines(bad));
        lines.add(1500, "not json at all");
        lines.add(3000, "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":");
        lines.set(4000, lines.get(4000).replaceFirst("\"Launch Time\":\\d+", "\"Launch Time\":-5"));
        Files.write(bad, lines);
        for (Path p : Files.newDirectoryStream(ExampleEventLogs.DIR)) {
            copy(p, logs.resolve(p.getFileName()));
        }
        return logs;
    }

    private static void copy(Path from, Path to) throws Exception {
        if (Files.isDirectory(from)) {
            Files.createDirectories(to);
            try (var list = Files.newDirectoryStream(from)) {
                for (Path p : list) {
                    copy(p, to.resolve(p.getFileName()));
                }
            }
        } else {
            Files.copy(from, to);
        }
    }

    /**
     * Two separate JVMs give the same bytes: the model's immutable maps iterate in an order that changes with each JVM
     * start, so the JSON writes them in key order (one JVM alone never shows the difference).
     */
    @Test
    void analyzeJsonIsTheSameBytesFromTwoJvms(@TempDir Path dir) throws Exception {
        Path logs = logs(dir);
        List<String> outputs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            Path out = dir.resolve("out-" + run + ".json");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                    "analyze", logs.toString(), "--json", "--tasks")
                    .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            assertEquals(0, p.waitFor(), "analyze exit status");
            outputs.add(Files.readString(out));
        }
        assertTrue(outputs.get(0).contains("\"peakMetrics\" : {\n"), "executors' peaks are in the JSON");
        assertEquals(outputs.get(0), outputs.get(1));
        assertEquals(outputs.get(0), outputs.get(2));
    }

    @Test
    void analyzeJsonIsTheSameBytes(@TempDir Path dir) throws Exception {
        Path logs = logs(dir);
        CliRun one = CliRun.of("analyze", logs.toString(), "--json", "--tasks", "--decode-threads", "1");
        CliRun four = CliRun.of("analyze", logs.toString(), "--json", "--tasks", "--decode-threads", "4");
        assertEquals(0, one.exitCode(), one.err());
        assertEquals(0, four.exitCode(), four.err());
        assertTrue(one.out().length() > 100_000 && one.out().contains("app-20261205-0102"), "three applications");
        assertTrue(one.err().contains("app-20261205-0102:1501: "), "the bad line's warning: " + one.err());
        assertEquals(one.out(), four.out());
        assertEquals(one.err(), four.err(), "the same warnings, with the same file and line numbers");
    }

    @Test
    void importAndWatchStoreTheSameRows(@TempDir Path dir) throws Exception {
        Path logs = logs(dir);
        String a = TestDb.newDatabaseName();
        String b = TestDb.newDatabaseName();
        assertEquals(0, CliRun.of("import", logs.toString(), "--db", TestDb.url(a), "--decode-threads", "1").exitCode());
        CliRun four = CliRun.of("import", logs.toString(), "--db", TestDb.url(b), "--decode-threads", "4");
        assertEquals(0, four.exitCode(), four.err());
        List<String> rowsOne = dump(TestDb.dataSource(a));
        assertTrue(rowsOne.stream().filter(r -> r.matches("^[a-z_]+\\.task:.*")).count() > 1_000, "task rows stored");
        assertSameRows(rowsOne, dump(TestDb.dataSource(b)));

        String c = TestDb.newDatabaseName();
        String d = TestDb.newDatabaseName();
        assertEquals(0, CliRun.of("watch", logs.toString(), "--db", TestDb.url(c), "--once", "--decode-threads", "1")
                .exitCode());
        CliRun watchFour = CliRun.of("watch", logs.toString(), "--db", TestDb.url(d), "--once", "--decode-threads", "4");
        assertEquals(0, watchFour.exitCode(), watchFour.err());
        List<String> watchedOne = dump(TestDb.dataSource(c));
        assertTrue(watchedOne.stream().anyMatch(r -> r.matches("^[a-z_]+\\.application:.*") && r.contains("threads-bad")));
        assertSameRows(watchedOne, dump(TestDb.dataSource(d)));
    }

    @Test
    void aBadCountIsAUsageError() {
        CliRun run = CliRun.of("analyze", ExampleEventLogs.DIR.toString(), "--decode-threads", "0");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--decode-threads must be from 1 to 256, got 0"), run.err());
    }

    /** Equal lists, and if not, the rows only one of them has (cut short), not both lists whole. */
    private static void assertSameRows(List<String> expected, List<String> actual) {
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(expected);
        assertEquals(List.of(), missing.stream().limit(5).map(r -> r.substring(0, Math.min(r.length(), 600))).toList(),
                "rows of one thread missing with four; with four instead: "
                        + extra.stream().limit(5).map(r -> r.substring(0, Math.min(r.length(), 600))).toList());
        assertEquals(expected, actual);
    }

    /** Every row of every table, as "table: values" sorted, without the columns that say when it was written. */
    private static List<String> dump(DataSource ds) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT table_schema || '.' || table_name FROM information_schema.tables"
                    + " WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'"
                    + " AND table_name NOT LIKE '%schema_history' ORDER BY 1")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder(table).append(':');
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            if (!WRITE_TIMES.contains(md.getColumnName(i))) {
                                row.append(' ').append(md.getColumnName(i)).append('=').append(rs.getString(i));
                            }
                        }
                        rows.add(row.toString());
                    }
                }
            }
        }
        rows.sort(null);
        return rows;
    }
}
