package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.Spool;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver whose database goes away and which then exits (no {@code spark.stop()}), run as its own JVM with the
 * listener embedded: the driver's output says so in a line, with no stack trace, and the spool holds the
 * application's snapshot and no cut file.
 */
class ShutdownWithDatabaseAwayTest {

    /**
     * The driver: records the example application into a database of its own, which goes away before the
     * application's end; then the driver exits (no end posted), so the shutdown hook writes the final snapshot on
     * connections the database has dropped.
     */
    public static void main(String[] args) throws Exception {
        List<SparkEvent> events = new ArrayList<>();
        EventLogReader.read(EventLogReader.discover(ExampleEventLogs.DIR).get(0), events::add, p -> { });
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres?user=postgres&connectTimeout=2";
        SparkscopeListener listener = new SparkscopeListener(Map.of(
                "spark.sparkscope.jdbc.url", url,
                "spark.sparkscope.spool.dir", args[0],
                "spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.report.enabled", "false"));
        int half = events.size() / 2;
        for (SparkEvent e : events.subList(0, half)) {
            listener.pipeline().offer(e);
        }
        DataSource ds = pg.getPostgresDatabase();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ListenerOutageTest.read(ds, listener.lastSnapshot() == null ? "-" : listener.lastSnapshot().appId())
                .isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("nothing written within 60 s");
            }
            Thread.sleep(100);
        }
        pg.close(); // the database goes away with the listener's connections open
        for (SparkEvent e : events.subList(half, events.size())) {
            if (!(e instanceof SparkEvent.ApplicationEnd)) {
                listener.pipeline().offer(e);
            }
        }
        Thread.sleep(1_000);
        System.exit(0);
    }

    @Test
    void exitingWithTheDatabaseAwayPrintsNoStackTraceAndLeavesNoCutFile(@TempDir Path tmp) throws Exception {
        Path spool = tmp.resolve("spool");
        // What an earlier driver left when it died mid-write: removed, being long past any write under way.
        Files.createDirectories(spool);
        Path cut = Files.write(spool.resolve(".spool123456.tmp"), new byte[]{31, (byte) 139, 8});
        Files.setLastModifiedTime(cut, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
                - TimeUnit.HOURS.toMillis(1)));
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", cp, ShutdownWithDatabaseAwayTest.class.getName(), spool.toString())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the driver exited");
        assertEquals(0, p.exitValue(), output);

        assertFalse(output.contains("\tat "), "no stack trace in the driver's output:\n" + output);
        assertFalse(output.contains("Exception in thread"), output);
        assertTrue(output.contains("cannot write to the database"), "the outage is said, once:\n" + output);

        List<String> names;
        try (Stream<Path> s = Files.list(spool)) {
            names = s.map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertEquals(1, names.size(), "one snapshot and nothing else: " + names);
        assertTrue(names.get(0).endsWith(Spool.SUFFIX), names.get(0));
    }
}
