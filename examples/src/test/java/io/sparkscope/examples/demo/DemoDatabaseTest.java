package io.sparkscope.examples.demo;

import io.sparkscope.ingest.cli.ImportCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's PostgreSQL as a newcomer meets it: on the same port at every start, on another (said) port when that one
 * is taken, and reachable with the {@code sparkscope import} command the demo prints, exactly as printed.
 */
class DemoDatabaseTest {

    @Test
    void theSamePortOnEveryStart(@TempDir Path dir) throws Exception {
        int port = freePort();
        try (DemoDatabase db = DemoDatabase.start(dir.resolve("pg"), port, false)) {
            assertEquals(port, db.port());
            assertTrue(db.url().contains(":" + port + "/"), db.url());
        }
        try (DemoDatabase db = DemoDatabase.start(dir.resolve("pg"), port, false)) {
            assertEquals(port, db.port(), "a second start keeps the port, so printed commands keep working");
        }
    }

    @Test
    void aTakenDefaultPortGivesWayToAFreeOneAndAChosenPortIsAnError(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertThrows(DemoDatabase.PortTaken.class, () -> DemoDatabase.start(dir.resolve("pg"), port, true),
                    "a port the user chose with --pg-port is not silently replaced");
            try (DemoDatabase db = DemoDatabase.start(dir.resolve("pg"), port, false)) {
                assertNotEquals(port, db.port());
                assertTrue(db.applicationCount() >= 0, "the database on the fallback port answers");
            }
        }
    }

    @Test
    void thePrintedImportCommandWorksAsPrinted(@TempDir Path dir) throws Exception {
        Path logs = Path.of("eventlogs").toAbsolutePath();
        assertTrue(Files.isDirectory(logs), logs + " ships with the repository");
        try (DemoDatabase db = DemoDatabase.start(dir.resolve("pg"), freePort(), false)) {
            DemoCommands printed = DemoCommands.of(null, db.url(), DemoDatabase.USER);
            String line = printed.importLine(logs.toString());
            assertTrue(line.startsWith("java -jar server/target/sparkscope.jar import --db " + db.url()
                    + " --user postgres "), line);
            // What follows "java -jar server/target/sparkscope.jar": the words of the printed line, as a shell splits
            // them (nothing in them needs quoting here).
            List<String> words = List.of(line.split(" "));
            assertEquals(printed.importArgs(logs.toString()), words.subList(3, words.size()));
            int exit = new CommandLine(new ImportCommand()).execute(words.subList(4, words.size()).toArray(String[]::new));
            assertEquals(0, exit, "the printed import command exits 0");
            assertEquals(1, db.applicationCount(), "and stored the shipped application");
        }
    }

    @Test
    void theServeCommandNamesTheUserAndAPort() {
        DemoCommands c = DemoCommands.of(null, "jdbc:postgresql://localhost:15432/sparkscope", "postgres");
        assertEquals("java -jar server/target/sparkscope.jar serve --db jdbc:postgresql://localhost:15432/sparkscope"
                + " --user postgres --port 7071", c.serveLine(7071));
        assertEquals("java -jar '/tmp/my jars/sparkscope.jar' import --db jdbc:postgresql://localhost:15432/sparkscope"
                        + " --user postgres <event-log-dir>",
                DemoCommands.of(Path.of("/tmp/my jars/sparkscope.jar"), c.url(), "postgres").importLine("<event-log-dir>"));
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
