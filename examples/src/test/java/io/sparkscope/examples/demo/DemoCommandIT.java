package io.sparkscope.examples.demo;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's demo command itself, {@code java -jar examples/target/sparkscope-demo.jar}, on the packaged jar
 * (this runs in the integration-test phase, after {@code package}): a short example subset, the search page, a
 * second start on the same data, the bad-input messages, and Ctrl-C leaving no PostgreSQL or server behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoCommandIT {
    static final Path JAR = Path.of("target", "sparkscope-demo.jar").toAbsolutePath();

    @TempDir
    static Path dataDir;

    /** Maven runs *IT after package; run in the test phase (e.g. with -Dtest=…) the jar is missing or stale. */
    @org.junit.jupiter.api.BeforeAll
    static void jarIsPackaged() throws IOException {
        Path classes = Path.of("target", "classes", "io", "sparkscope", "examples", "demo", "Demo.class");
        Assumptions.assumeTrue(Files.isRegularFile(JAR) && (!Files.exists(classes)
                        || Files.getLastModifiedTime(JAR).compareTo(Files.getLastModifiedTime(classes)) >= 0),
                JAR + " is missing or older than the compiled classes: this test runs after package (mvn verify)");
    }

    @Test
    @Order(1)
    void demoRunsAnExampleAndServesTheSearchPage() throws Exception {
        int port = freePort();
        Result r = run(List.of("--data-dir", dataDir.toString(), "--port", Integer.toString(port),
                "--examples", "clean", "--no-wait"), 600);
        assertTrue(r.out.contains("[ 1/1] clean"), r.out);
        assertTrue(r.out.contains("PostgreSQL on port"), r.out);
        try (DemoDb db = new DemoDb(dataDir)) {
            assertEquals(1, db.appsByName().size(), "the clean example was recorded");
        }
        serveMustExist(r.out);
        assertTrue(r.out.contains("Sparkscope is ready: http://127.0.0.1:" + port + "/"), r.out);
        assertTrue(r.out.contains("GET / -> 200"), "search page fetched:\n" + r.out);
        assertTrue(r.out.contains("GET /api/v1/apps -> 200"), r.out);
        assertEquals(0, r.code, r.out);
    }

    @Test
    @Order(2)
    void ctrlCStopsServerAndPostgresAndBadInputIsExplained() throws Exception {
        int port = freePort();
        ProcessBuilder pb = new ProcessBuilder(command(List.of("--data-dir", dataDir.toString(), "--port",
                Integer.toString(port), "--examples", "clean"))).redirectErrorStream(true);
        Process demo = pb.start();
        List<String> lines = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(() -> {
            try {
                for (String l; (l = in.readLine()) != null; ) {
                    System.out.println("[demo] " + l);
                    synchronized (lines) {
                        lines.add(l);
                    }
                }
            } catch (IOException ignored) {
                // process ended
            }
        });
        reader.start();
        try {
            long deadline = System.currentTimeMillis() + 180_000;
            while (!text(lines).contains("Press Ctrl-C to stop") && demo.isAlive()
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertTrue(text(lines).contains("Press Ctrl-C to stop"), text(lines));
            assertTrue(text(lines).contains("already recorded"), "the second start reuses the data");

            Path pid = dataDir.resolve("pg").resolve("postmaster.pid");
            long postgres = Long.parseLong(Files.readAllLines(pid).get(0).trim());
            assertTrue(ProcessHandle.of(postgres).isPresent(), "PostgreSQL runs while the demo runs");
            List<ProcessHandle> children = demo.descendants().toList();

            // A second demo on the same data while this one runs: refused.
            Result second = run(List.of("--data-dir", dataDir.toString(), "--port", Integer.toString(freePort()),
                    "--examples", "clean", "--no-wait"), 60);
            assertEquals(2, second.code, second.out);
            assertTrue(second.out.contains("another demo is already running on " + dataDir), second.out);

            // Port taken.
            Path other = Files.createTempDirectory("sparkscope-demo-port");
            try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
                Result busy = run(List.of("--data-dir", other.toString(), "--port",
                        Integer.toString(taken.getLocalPort()), "--no-wait"), 60);
                assertEquals(2, busy.code, busy.out);
                assertTrue(busy.out.contains("port " + taken.getLocalPort() + " on 127.0.0.1 is already in use"),
                        busy.out);
                assertTrue(busy.out.contains("--port"), busy.out);
            }

            // Data directory not writable (beneath a regular file: root can write anywhere else).
            Path file = Files.createTempFile("sparkscope-demo", ".txt");
            Result unwritable = run(List.of("--data-dir", file.resolve("demo").toString(), "--no-wait"), 60);
            assertEquals(2, unwritable.code, unwritable.out);
            assertTrue(unwritable.out.contains("cannot use data directory " + file.resolve("demo")), unwritable.out);
            assertTrue(unwritable.out.contains("--data-dir"), unwritable.out);

            // Ctrl-C.
            new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).inheritIO().start().waitFor();
            if (!demo.waitFor(20, TimeUnit.SECONDS)) {
                // A JVM started with SIGINT ignored (a background job of a non-interactive shell, as CI runners
                // may start Maven) keeps ignoring it; SIGTERM runs the same shutdown path.
                // Sent with kill, not Process.destroy(): destroy() also closes our end of the demo's output, and
                // the lines its shutdown prints would be lost.
                System.out.println("SIGINT is ignored in this environment; sending SIGTERM (same shutdown path)");
                new ProcessBuilder("kill", "-TERM", Long.toString(demo.pid())).inheritIO().start().waitFor();
            }
            assertTrue(demo.waitFor(60, TimeUnit.SECONDS), "the demo ends after Ctrl-C");
            // The demo's last lines can still be in the pipe when it has exited; on a busy machine the reader needs
            // more than a moment to drain them.
            reader.join(30_000);
            // Should this fail, say how the demo ended and what its web server logged last.
            assertTrue(text(lines).contains("Stopped."), "exit " + demo.exitValue() + ", reader done: "
                    + !reader.isAlive() + "\n" + text(lines) + "\n--- server.log (end):\n" + serverLogTail());
            ProcessHandle.of(postgres).ifPresent(h -> {
                try {
                    h.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // checked below
                }
            });
            assertFalse(ProcessHandle.of(postgres).map(ProcessHandle::isAlive).orElse(false),
                    "no orphaned postgres");
            assertFalse(Files.exists(pid), "PostgreSQL shut down cleanly (no postmaster.pid left)");
            for (ProcessHandle c : children) {
                assertFalse(c.isAlive(), "child process " + c.pid() + " " + c.info().command().orElse("") + " ended");
            }
        } finally {
            demo.destroyForcibly();
        }
    }

    /** In a build whose {@code serve} command is a stub (no web server yet), skip the HTTP checks with a visible reason. */
    private void serveMustExist(String out) throws IOException {
        Path log = dataDir.resolve("logs").resolve("server.log");
        String serverLog = Files.exists(log) ? Files.readString(log) : "";
        Assumptions.assumeFalse(out.contains("The web server did not start")
                        && (serverLog.contains("Unknown options") || serverLog.contains("not built yet")),
                "the server's serve command is not built in this branch yet; checked the URL path up to it");
    }

    private static String serverLogTail() {
        try {
            Path log = dataDir.resolve("logs").resolve("server.log");
            List<String> all = Files.exists(log) ? Files.readAllLines(log) : List.of();
            return String.join("\n", all.subList(Math.max(0, all.size() - 20), all.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    record Result(int code, String out) {
    }

    static List<String> command(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString()));
        cmd.addAll(args);
        return cmd;
    }

    static Result run(List<String> args, long timeoutSeconds) throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " (built by package)");
        Process p = new ProcessBuilder(command(args)).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes(); // until the demo closes stdout (it exits)
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        String s = new String(out, StandardCharsets.UTF_8);
        System.out.println(s);
        return new Result(p.exitValue(), s);
    }

    private static String text(List<String> lines) {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
