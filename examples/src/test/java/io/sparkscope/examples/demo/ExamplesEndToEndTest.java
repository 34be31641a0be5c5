package io.sparkscope.examples.demo;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.function.Executable;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end: the demo's quick examples run as real Spark applications (each in its own JVM) with the Sparkscope
 * listener attached through spark.extraListeners, into an embedded PostgreSQL; the recorded findings are read back
 * through the store. Then a second start on the same data directory reuses the data instead of duplicating it.
 */
class ExamplesEndToEndTest {

    @TempDir
    Path dataDir;

    @Test
    void eachProblemJobIsRecordedWithItsFindingAndASecondStartDuplicatesNothing() throws Exception {
        String first = demo("--data-dir", dataDir.toString(), "--examples", "quick", "--no-server");
        assertTrue(first.contains("Running 6 of 6 example applications"), first);
        assertTrue(first.contains("[ 6/6]"), "progress shows n of m:\n" + first);

        Map<String, String> apps;
        long tasks;
        try (DemoDb db = new DemoDb(dataDir)) {
            apps = db.appsByName();
            tasks = db.count("task");
            SnapshotReader reader = new SnapshotReader(db.ds);
            assertEquals(List.of("clean", "skewed-join", "spilling-sort", "failing-stage", "tiny-tasks",
                    "serializer-java"), List.copyOf(apps.keySet()), "one application per quick example");
            List<Executable> checks = new ArrayList<>();
            checks.add(expect(reader, apps, "skewed-join", "StageSkew"));
            checks.add(expect(reader, apps, "spilling-sort", "DiskSpill"));
            checks.add(expect(reader, apps, "failing-stage", "StageFailure"));
            // the failed job's end follows ApplicationEnd; the listener records such late events before the JVM exits
            checks.add(expect(reader, apps, "failing-stage", "JobFailure"));
            checks.add(expect(reader, apps, "tiny-tasks", "SmallTasks"));
            checks.add(expect(reader, apps, "serializer-java", "SerializerConfig"));
            checks.add(() -> {
                List<Finding> f = reader.findings(apps.get("clean"), null);
                long durationMs = reader.read(apps.get("clean"), null).orElseThrow().durationMs();
                List<Finding> high = f.stream().filter(x -> x.severity() == Severity.HIGH).toList();
                // DriverTime judges applications of 60 s or more. The clean job takes about 10 s on two idle cores;
                // on a machine so overloaded that Spark's start-up and query planning stretch it past a minute, the
                // driver-only share really is that high and DriverTime rightly says so: say it, don't fail on it.
                if (durationMs >= 60_000 && high.stream().allMatch(x -> x.heuristic().equals("DriverTime"))
                        && !high.isEmpty()) {
                    System.out.println("WARNING: the clean example took " + durationMs / 1000 + " s (about 10 s on"
                            + " idle cores): this machine is overloaded, so DriverTime judged it; findings "
                            + describe(f));
                    high = List.of();
                }
                assertTrue(high.isEmpty(), "the clean job has no HIGH finding: " + describe(f));
                assertTrue(f.stream().noneMatch(x -> x.heuristic().equals("SerializerConfig")), describe(f));
            });
            for (String name : apps.keySet()) {
                checks.add(() -> {
                    Optional<AppSnapshot> s = reader.read(apps.get(name), null);
                    assertTrue(s.isPresent() && s.get().complete() && !s.get().stages().isEmpty(),
                            name + " recorded complete, with stages");
                });
            }
            assertAll(checks);
        }

        String second = demo("--data-dir", dataDir.toString(), "--examples", "quick", "--no-server");
        assertTrue(second.contains("All 6 example applications are already recorded"), second);
        try (DemoDb db = new DemoDb(dataDir)) {
            assertEquals(apps, db.appsByName(), "the second start reused the data");
            assertEquals(tasks, db.count("task"));
        }
    }

    private static Executable expect(SnapshotReader reader, Map<String, String> apps, String app, String heuristic) {
        return () -> {
            List<Finding> f = reader.findings(apps.get(app), null);
            assertTrue(f.stream().anyMatch(x -> x.heuristic().equals(heuristic)),
                    app + " should have a " + heuristic + " finding; it has: " + describe(f));
        };
    }

    private static String describe(List<Finding> findings) {
        return findings.stream().map(x -> x.severity() + " " + x.heuristic() + " (" + x.title() + ")").toList()
                .toString();
    }

    /** Runs the demo in this JVM (its examples still run in their own JVMs), echoing and returning its output. */
    static String demo(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                buf.write(b);
                System.out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                buf.write(b, off, len);
                System.out.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8);
        int code = Demo.run(tee, args);
        tee.flush();
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, "demo exit status; output:\n" + out);
        return out;
    }
}
