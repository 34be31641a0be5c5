package io.sparkscope.core.redact;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What redaction costs on a large snapshot (a benchmark, not a test): 100 000 tasks in 10 stages, 1 000 failed tasks
 * per stage with distinct error messages (a tenth of them with a credential), 50 SQL executions with 100 KB plans.
 * Prints the recorder's snapshot time (redaction included), a first redaction of every string (nothing remembered
 * yet) and a repeated one (what every periodic snapshot of a live application pays), in CPU time of the thread.
 *
 * <pre>
 * mvn -q -pl heuristics-core/diagnosis -am test-compile
 * java -cp heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes io.sparkscope.core.redact.RedactionBench [tasks]
 * </pre>
 */
public final class RedactionBench {
    private RedactionBench() {
    }

    public static void main(String[] args) {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int stages = 10;
        int perStage = tasks / stages;
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart("bench", "app-bench", null, 1_000, "bench"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[8]",
                "spark.sparkscope.jdbc.url", "jdbc:postgresql://u:pw@db/x"), Map.of(), Map.of(), Map.of()));
        StringBuilder planText = new StringBuilder("== Physical Plan ==\n");
        while (planText.length() < 100_000) {
            planText.append("+- *(1) Project [id#1L, name#2, (id#1L * 2) AS x#3L] ReadSchema: struct<id:bigint>\n");
        }
        for (int q = 0; q < 50; q++) {
            PlanNode leaf = new PlanNode("Scan", "Scan parquet [id#1L] Batched: true, Location: /data/t" + q,
                    List.of(), List.of());
            r.onEvent(new SparkEvent.SqlExecutionStart(q, "SELECT * FROM t" + q + " WHERE id > 5",
                    planText + " query " + q, new PlanNode("Root", "Root", List.of(leaf), List.of()), 1_100));
        }
        long taskId = 0;
        for (int s = 0; s < stages; s++) {
            StageInfo info = new StageInfo(s, 0, "stage " + s, perStage, List.of(), "org.x.Main.main(Main.java:1)",
                    1_200, -1, null, List.of());
            r.onEvent(new SparkEvent.JobStart(s, 1_200, List.of(s), List.of(info),
                    Map.of("spark.job.description", "job " + s)));
            r.onEvent(new SparkEvent.StageSubmitted(info));
            for (int i = 0; i < perStage; i++) {
                boolean failed = i % 10 == 0;
                TaskInfo t = new TaskInfo(taskId++, i, 0, i, 2_000, "1", "h1", "PROCESS_LOCAL", false, 0,
                        2_000 + 10 + i % 997, failed, false);
                TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 5 + i % 997).build();
                TaskEndReason reason = failed ? new TaskEndReason("ExceptionFailure", "java.io.IOException: task " + i
                        + (i % 100 == 0 ? " cannot reach jdbc:postgresql://u:pw" + i + "@db/x" : " failed reading "
                        + "/data/part-" + i + ".parquet"), null) : TaskEndReason.SUCCESS;
                r.onEvent(new SparkEvent.TaskEnd(s, 0, "ResultTask", reason, t, m));
            }
            r.onEvent(new SparkEvent.StageCompleted(new StageInfo(s, 0, "stage " + s, perStage, List.of(),
                    "org.x.Main.main(Main.java:1)", 1_200, 5_000, null, List.of())));
        }
        // warm up the JIT on the same work
        for (int i = 0; i < 5; i++) {
            SnapshotRedactor.withoutMemory(Redactor.defaultRedactor()).apply(r.snapshot());
        }
        AppSnapshot snap = r.snapshot();
        long keptTasks = snap.stages().stream().mapToLong(st -> st.keptTasks().size()).sum();
        long t0 = cpuNanos();
        int rounds = 10;
        for (int i = 0; i < rounds; i++) {
            r.snapshot();
        }
        double snapshotMs = (cpuNanos() - t0) / 1e6 / rounds;

        Redactor builtIn = Redactor.forSparkProperties(snap.config().sparkProperties());
        double coldMs = cold(snap, builtIn, rounds);
        double coldExtraMs = cold(snap, Redactor.forSparkProperties(
                Map.of(Redactor.EXTRA_REGEX_KEY, "(?i)acme-[0-9]{4}")), rounds);
        SnapshotRedactor same = SnapshotRedactor.of(Redactor.forSparkProperties(snap.config().sparkProperties()));
        same.apply(snap);
        long w0 = cpuNanos();
        for (int i = 0; i < rounds * 10; i++) {
            same.apply(snap);
        }
        double warmMs = (cpuNanos() - w0) / 1e6 / (rounds * 10);
        List<String> lines = new ArrayList<>();
        lines.add(String.format("snapshot: %,d tasks, %,d kept in detail, %,d failed with error text, %d plans of %,d chars",
                snap.totalTasks(), keptTasks, snap.failedTasks(), snap.sqlExecutions().size(), planText.length()));
        lines.add(String.format("recorder.snapshot() (redaction included, repeated): %.2f ms", snapshotMs));
        lines.add(String.format("redaction, first time (every string scanned):       %.2f ms", coldMs));
        lines.add(String.format("  the same with a spark.sparkscope.redaction.regex: %.2f ms", coldExtraMs));
        lines.add(String.format("redaction, again (unchanged objects remembered):    %.2f ms", warmMs));
        lines.forEach(System.out::println);
    }

    /**
     * This thread's CPU time: on a shared machine wall time also counts the other processes' turns (this machine
     * had 2 cores and a load of 16 when it was measured).
     */
    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** A first redaction: a redactor that remembers nothing, so every string is scanned. */
    private static double cold(AppSnapshot snap, Redactor redactor, int rounds) {
        double ms = 0;
        for (int i = 0; i < rounds; i++) {
            SnapshotRedactor fresh = SnapshotRedactor.withoutMemory(redactor);
            long c0 = cpuNanos();
            fresh.apply(snap);
            ms += (cpuNanos() - c0) / 1e6;
        }
        return ms / rounds;
    }
}
