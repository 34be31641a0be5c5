package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze} in its own JVM with a small heap, on logs long in one direction ({@link WideLogs}): each finishes
 * within the windows' bound, and a heap too small for even that says so in one line. The sizes here are a quarter
 * of bench/bounded-memory.sh's (200 000 jobs, 100 000 executors, 1 000 000 SQL metric updates, 100 000 streaming
 * batches under -Xmx256m) and the heap is a quarter too, so that the test stays quick on a CI machine; without the
 * windows, the jobs and executors logs need several times this heap.
 */
class BoundedMemoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HEAP = "-Xmx64m";

    @Test
    void manyOneTaskJobs(@TempDir Path dir) throws Exception {
        Run r = analyze(dir, "jobs", 50_000, HEAP);
        assertEquals(0, r.exit, r.err);
        JsonNode app = JSON.readTree(r.out.toFile());
        assertEquals("wide-jobs", app.get("appName").asText());
        assertEquals(1000, app.get("jobs").size(), "the window of jobs, as the listener keeps");
    }

    @Test
    void manyExecutorsAddedAndRemoved(@TempDir Path dir) throws Exception {
        Run r = analyze(dir, "executors", 25_000, HEAP);
        assertEquals(0, r.exit, r.err);
        JsonNode executors = JSON.readTree(r.out.toFile()).get("executors");
        assertTrue(executors.size() <= 1001 + 1, "the live one and the window of removed ones: " + executors.size());
        assertEquals("25001", executors.get(executors.size() - 1).get("executorId").asText(), "the newest stay");
    }

    @Test
    void manySqlMetricUpdatesAndStreamingBatches(@TempDir Path dir) throws Exception {
        Run sql = analyze(dir, "sql-metrics", 250_000, HEAP);
        assertEquals(0, sql.exit, sql.err);
        assertEquals(1, JSON.readTree(sql.out.toFile()).get("sqlExecutions").size());
        Run streaming = analyze(dir, "streaming", 25_000, HEAP);
        assertEquals(0, streaming.exit, streaming.err);
        assertEquals("wide-streaming", JSON.readTree(streaming.out.toFile()).get("appName").asText());
    }

    @Test
    void importOfManyJobsWritesOnTheWay(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        TestDb.dataSource(db); // created and migrated here, so the forked import only writes
        Run r = run(dir, "jobs", 25_000, HEAP, "import", "--db", TestDb.url(db));
        assertEquals(0, r.exit, r.err);
        try (Connection c = TestDb.dataSource(db).getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM job")) {
            rs.next();
            assertEquals(25_000, rs.getLong(1), "every job stored, though the recorder held a thousand");
        }
    }

    @Test
    void aHeapTooSmallIsOneLine(@TempDir Path dir) throws Exception {
        Run r = analyze(dir, "jobs", 10_000, "-Xmx20m");
        assertEquals(1, r.exit, r.err);
        assertTrue(r.err.contains("not read in full: the Java heap"), r.err);
        assertFalse(r.err.contains("\tat "), "no stack trace: " + r.err);
        assertFalse(r.err.contains("Exception in thread"), r.err);
    }

    private record Run(int exit, Path out, String err) {
    }

    private static Run analyze(Path dir, String kind, int n, String heap) throws IOException, InterruptedException {
        return run(dir, kind, n, heap, "analyze", "--json");
    }

    /** Writes the log, then runs {@code command <log> args…} in a JVM of its own; its output goes to a file. */
    private static Run run(Path dir, String kind, int n, String heap, String command, String... args)
            throws IOException, InterruptedException {
        Path log = dir.resolve(kind + ".log");
        WideLogs.write(kind, log, n);
        Path out = dir.resolve(kind + ".json");
        Path err = dir.resolve(kind + ".err");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), "io.sparkscope.server.cli.Main", command, log.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(kind + ": analyze did not finish in 120 s");
        }
        Files.delete(log);
        return new Run(p.exitValue(), out, Files.readString(err, StandardCharsets.UTF_8));
    }
}
