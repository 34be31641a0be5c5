package io.sparkscope.listener;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory heuristic on real executors: applications run on Spark's {@code local-cluster} (executor JVMs whose
 * heap is {@code spark.executor.memory}) with a known memory need; their event logs are read back and diagnosed.
 * A cached 64 MiB under 3g executors is told to lower the heap, a task needing more than its 1g heap to raise it,
 * and a small clean job gets no memory finding.
 */
class MemorySizingLocalClusterTest {

    @Test
    void theRecommendationFollowsWhatTheExecutorsNeeded(@TempDir Path dir) throws Exception {
        AppSnapshot cache = run("cache", dir);
        Map<String, Long> peaks = executor(cache).peakMetrics();
        assertTrue(peaks.getOrDefault("OnHeapStorageMemory", 0L) >= (long) MemoryJobs.CACHED_MIB << 20,
                "the cache is in the executor's storage memory: " + peaks);
        Finding lower = memory(cache, "executorsOverProvisioned");
        SettingAdvice a = lower.adviceFor("spark.executor.memory");
        assertEquals("3g", a.currentValue());
        assertTrue(SettingAdvice.numeric(a.key(), a.recommendedValue()).getAsDouble()
                < SettingAdvice.numeric(a.key(), "3g").getAsDouble(), "lower: " + a);
        assertTrue((double) lower.details().get("gbHoursSaved") > 0, lower.details().toString());
        assertTrue(Efficiency.of(cache).memoryWasteShare() > 0.5, "most of the 3g container unused");

        AppSnapshot oom = run("oom", dir);
        Finding raise = memory(oom, "heap");
        assertEquals(Severity.HIGH, raise.severity());
        SettingAdvice more = raise.adviceFor("spark.executor.memory");
        assertTrue(SettingAdvice.numeric(more.key(), more.recommendedValue()).getAsDouble()
                > SettingAdvice.numeric(more.key(), "1g").getAsDouble(), "raise: " + more);
        // The executor dies of its OutOfMemoryError. Whether the worker's replacement registers before the job gives
        // up is a race: the task's second attempt may be sent to the dying executor and fail with it.
        assertTrue(oom.executors().stream().anyMatch(e -> !e.isDriver() && e.removeTime() > 0),
                "the executor died of its OutOfMemoryError: " + oom.executors());

        AppSnapshot clean = run("clean", dir);
        List<Finding> findings = HeuristicEngine.load().run(clean, HeuristicConfig.defaults()).findings();
        assertTrue(findings.stream().noneMatch(f -> f.heuristic().equals("MemorySizing")), findings.toString());
        assertTrue(Efficiency.of(clean).memoryMeasured(), "measured, and found fitting");
    }

    private static Finding memory(AppSnapshot app, String location) {
        List<Finding> findings = HeuristicEngine.load().run(app, HeuristicConfig.defaults()).findings();
        return findings.stream().filter(f -> f.id().equals("MemorySizing:" + location)).findFirst()
                .orElseThrow(() -> new AssertionError("no MemorySizing:" + location + " for " + app.appName()
                        + " in " + findings.stream().map(Finding::id).toList()));
    }

    private static ExecutorSummary executor(AppSnapshot app) {
        return app.executors().stream().filter(e -> !e.isDriver()).findFirst()
                .orElseThrow(() -> new AssertionError("no executor in " + app.executors()));
    }

    /** Runs {@link MemoryJobs} in its own JVM and reads its event log. */
    private static AppSnapshot run(String job, Path dir) throws Exception {
        Path logs = Files.createDirectories(dir.resolve(job));
        Path home = Files.createDirectories(dir.resolve("spark-home"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports")) {
                cmd.add(arg);
            }
        }
        // spark.testing hands the executors this JVM's class path; spark.test.home stands in for SPARK_HOME
        cmd.addAll(List.of("-Xmx512m", "-Dspark.testing=true", "-Dspark.test.home=" + home,
                "-cp", classPath(), MemoryJobs.class.getName(), job, logs.toUri().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(job + ".out").toFile());
        pb.environment().put("SPARK_TESTING", "1");
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        if (!p.waitFor(8, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(job + " did not finish in 8 minutes; its output: " + tail(dir, job));
        }
        assertEquals(0, p.exitValue(), job + " failed: " + tail(dir, job));
        EventLogSource log = EventLogReader.discover(logs).stream().findFirst()
                .orElseThrow(() -> new AssertionError("no event log for " + job + ": " + tail(dir, job)));
        AppSnapshot s = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS, w -> { }).snapshot();
        assertNotNull(s.appId(), job);
        return s;
    }

    /** The test's real class path (surefire hides it behind a manifest jar). */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    private static String tail(Path dir, String job) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(job + ".out"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (java.io.IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
