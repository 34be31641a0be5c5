package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;

import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;

/**
 * Not a test: a JMH-free timing of every heuristic on a 100 000-task snapshot (100 stages × 1 000 tasks, all tasks
 * kept, skew and spill in every stage so most heuristics produce findings). Target: ≤ 50 ms per run (docs/benchmarks/heuristics.md).
 * Run after {@code mvn -q -o -pl heuristics-core/diagnosis -am test-compile}:
 * {@code java -cp heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes io.sparkscope.core.heuristics.HeuristicsBench [runs]}.
 */
public final class HeuristicsBench {
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        SnapshotBuilder b = app().master("yarn").durationMs(3_600_000).conf("spark.dynamicAllocation.enabled", "true");
        for (int e = 1; e <= 50; e++) {
            b.executor(String.valueOf(e), 4, 1_000_000L + e * 10_000L);
        }
        for (int s = 0; s < 100; s++) {
            b.stage(s).startAt(s * 30_000L).slots(200).tasks(1000, i -> task().runTime(i == 0 ? 60_000 : 2_000 + i % 50)
                    .executor(String.valueOf(1 + i % 50)).gc(i % 300).shuffleRead(64L << 20).spill(i % 10 == 0 ? 32L << 20 : 0, 8L << 20)
                    .schedulerDelay(i % 40)).done();
        }
        AppSnapshot snapshot = b.build();
        HeuristicEngine engine = HeuristicEngine.load();
        HeuristicConfig cfg = engine.defaultConfig();
        System.out.println("snapshot: " + snapshot.totalTasks() + " tasks, "
                + snapshot.stages().stream().mapToInt(st -> st.keptTasks().size()).sum() + " kept, "
                + engine.heuristics().size() + " heuristics");
        int findings = 0;
        for (int i = 0; i < 50; i++) { // warm-up: let the JIT compile the heuristics
            findings = engine.run(snapshot, cfg).findings().size();
        }
        // CPU time of this thread besides wall time: on a shared machine the wall clock mostly measures the others.
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            findings = engine.run(snapshot, cfg).findings().size();
        }
        double msPerRun = (System.nanoTime() - t0) / 1e6 / runs;
        double cpuMsPerRun = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6 / runs;
        System.out.printf("%d findings; %.2f ms/run wall, %.2f ms/run CPU, over %d runs (target ≤ 50 ms)%n",
                findings, msPerRun, cpuMsPerRun, runs);
        long cold = System.nanoTime();
        HeuristicEngine.load().run(snapshot, cfg);
        System.out.printf("one more run with a fresh engine: %.2f ms%n", (System.nanoTime() - cold) / 1e6);
    }
}
