package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemorySizingTest {
    private static final long HOUR = 3_600_000;
    private static final HeuristicConfig CFG = HeuristicConfig.defaults();

    /** Four executors for an hour under {@code heap}, each with a measured peak heap. */
    private static SnapshotBuilder cluster(String heap, long... peakHeaps) {
        SnapshotBuilder b = SnapshotBuilder.app().master("yarn").durationMs(HOUR).conf("spark.executor.memory", heap);
        for (int i = 0; i < peakHeaps.length; i++) {
            String id = Integer.toString(i + 1);
            b.executor(id, 4, HOUR);
            if (peakHeaps[i] > 0) {
                b.peaks(id, Map.of("JVMHeapMemory", peakHeaps[i], "JVMOffHeapMemory", 100 * Units.MiB));
            }
        }
        return b.stage(0).startAt(0).durationMs(HOUR)
                .tasks(8, i -> SnapshotBuilder.task().runTime(HOUR / 2).executor(Integer.toString(i % peakHeaps.length + 1)))
                .done();
    }

    private static List<Finding> run(AppSnapshot app) {
        return new MemorySizing().evaluate(app, CFG);
    }

    private static Finding only(List<Finding> findings, String location) {
        return findings.stream().filter(f -> f.id().equals(MemorySizing.ID + ":" + location)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + location + " in " + findings));
    }

    private static long gib(double g) {
        return (long) (g * Units.GiB);
    }

    @Test
    void overProvisionedExecutorsGetThePeakPlusMarginRounded() {
        List<Finding> findings = run(cluster("16g", gib(3.9), gib(2.5), gib(3.0), gib(1.0)).build());
        Finding f = only(findings, "executorsOverProvisioned");
        assertEquals(Severity.HIGH, f.severity(), "76 % of the heap never used, tens of GB-hours");
        SettingAdvice a = f.adviceFor("spark.executor.memory");
        assertEquals("5g", a.recommendedValue(), "3.9 GiB × 1.25 = 4.9, rounded up to 5g");
        assertEquals("16g", a.currentValue());
        // 16g + 1.6g overhead before, 5g + 512m after, 4 executors for an hour
        double saved = 4 * ((16 + 1.6) - (5 + 0.5));
        assertEquals(Units.round2(saved), (double) f.details().get("gbHoursSaved"), 0.01);
        assertTrue(f.message().contains("3.9 GiB of the 16.0 GiB spark.executor.memory"), f.message());
        assertTrue(f.recommendation().contains("spark.executor.memory=5g (now 16g)"), f.recommendation());
        assertEquals(List.of("1"), f.executorIds(), "the executor with the largest peak");
    }

    @Test
    void aWellSizedOrUnmeasuredApplicationGetsNothing() {
        assertEquals(List.of(), run(cluster("4g", gib(3.2), gib(3.0)).build()), "4g already fits 3.2 GiB + 25 %");
        assertEquals(List.of(), run(cluster("16g", 0, 0, 0, 0).build()), "nothing measured, nothing judged");
        assertEquals(List.of(), run(cluster("16g", gib(1), 0, 0, 0).build()),
                "one measured executor of four ran too little of the work to speak for all");
    }

    @Test
    void signsOfShortMemoryKeepItFromAskingForLess() {
        AppSnapshot spilled = cluster("16g", gib(2), gib(2)).stage(1).startAt(0)
                .task(SnapshotBuilder.task().runTime(1000).spill(10 * Units.MiB, 5 * Units.MiB).executor("1")).done()
                .build();
        assertEquals(List.of(), run(spilled), "spilled to disk: not over-provisioned");
        AppSnapshot gc = cluster("16g", gib(2), gib(2)).stage(1).startAt(0)
                .task(SnapshotBuilder.task().runTime(HOUR).gc(HOUR / 2).executor("1")).done().build();
        assertTrue(run(gc).stream().noneMatch(f -> f.id().endsWith("OverProvisioned")), "heavy GC");
    }

    @Test
    void outOfHeapRaisesTheHeap() {
        AppSnapshot app = cluster("4g", gib(3.9), gib(3.5)).stage(1).startAt(0)
                .tasks(3, i -> SnapshotBuilder.task().runTime(60_000).executor("1")
                        .failed("java.lang.OutOfMemoryError: Java heap space\n\tat java.util.Arrays.copyOf"))
                .done().build();
        List<Finding> findings = run(app);
        Finding f = only(findings, "heap");
        assertEquals(Severity.HIGH, f.severity());
        assertEquals("6g", f.adviceFor("spark.executor.memory").recommendedValue(), "4g × 1.5");
        assertEquals(3, f.details().get("failedAttempts"));
        assertEquals(3 * 60_000, f.impact().taskMs(), "the attempts that ran out of memory");
        assertTrue(f.message().contains("java.lang.OutOfMemoryError: Java heap space"), f.message());
        assertEquals(List.of("1.0"), f.stageIds());
        assertTrue(findings.stream().noneMatch(x -> x.id().endsWith("OverProvisioned")));
    }

    @Test
    void containerKillsRaiseTheOverheadNotTheHeap() {
        AppSnapshot app = cluster("4g", gib(2), gib(2))
                .removed("2", SnapshotBuilder.START + HOUR / 2, "Container killed by YARN for exceeding memory"
                        + " limits. 4.9 GB of 4.4 GB physical memory used. Consider boosting"
                        + " spark.yarn.executor.memoryOverhead.")
                .build();
        Finding f = only(run(app), "overhead");
        assertEquals(Severity.HIGH, f.severity());
        SettingAdvice a = f.adviceFor("spark.executor.memoryOverhead");
        assertEquals("1g", a.recommendedValue(), "twice the 410 MiB default, rounded up");
        assertEquals(List.of("2"), f.executorIds());
        assertTrue(f.recommendation().contains("A larger heap would not help"), f.recommendation());
    }

    @Test
    void pythonWorkersOutOfMemoryRaiseTheirMemory() {
        AppSnapshot app = cluster("4g", gib(1), gib(1)).conf("spark.executor.pyspark.memory", "2g").stage(1)
                .startAt(0).task(SnapshotBuilder.task().runTime(1000).executor("1").failed(
                        "org.apache.spark.api.python.PythonException: Traceback (most recent call last):\nMemoryError"))
                .done().build();
        Finding f = only(run(app), "python");
        assertEquals("3g", f.adviceFor("spark.executor.pyspark.memory").recommendedValue());
    }

    @Test
    void offHeapShortageRaisesSparksOffHeapMemory() {
        AppSnapshot app = cluster("4g", gib(1), gib(1)).conf("spark.memory.offHeap.enabled", "true")
                .conf("spark.memory.offHeap.size", "2g").stage(1).startAt(0)
                .task(SnapshotBuilder.task().runTime(1000).executor("1").failed(
                        "org.apache.spark.memory.SparkOutOfMemoryError: Unable to acquire 65536 bytes of memory, got 0"))
                .done().build();
        Finding f = only(run(app), "offHeap");
        assertEquals("3g", f.adviceFor("spark.memory.offHeap.size").recommendedValue());
    }

    @Test
    void aFullHeapWithHeavyGcAgreesWithExecutorGcOnOneValue() {
        AppSnapshot app = cluster("4g", gib(3.8), gib(3.7)).stage(1).startAt(0)
                .tasks(4, i -> SnapshotBuilder.task().runTime(HOUR).gc(HOUR / 4).executor("1")).done().build();
        List<Finding> findings = HeuristicEngine.load().run(app, CFG).findings();
        Finding mine = only(findings, "heap");
        assertEquals(Severity.LOW, mine.severity());
        assertOneValuePerKey(findings);
        assertEquals("6g", mine.adviceFor("spark.executor.memory").recommendedValue());
    }

    @Test
    void overProvisioningReconcilesWithTheOtherMemoryFindings() {
        // 32g heaps: MemoryConfig calls them very large, ExecutorGc over-allocated; the measured peak sets the value
        AppSnapshot app = cluster("32g", gib(5), gib(4), gib(4), gib(3)).build();
        List<Finding> findings = HeuristicEngine.load().run(app, CFG).findings();
        assertOneValuePerKey(findings);
        Finding mine = only(findings, "executorsOverProvisioned");
        assertEquals("7g", mine.adviceFor("spark.executor.memory").recommendedValue(), "5 GiB × 1.25, rounded up");
    }

    @Test
    void anOverProvisionedClusterDriver() {
        AppSnapshot app = cluster("4g", gib(3.2), gib(3.0)).conf("spark.driver.memory", "8g")
                .executor("driver", 0, 0).peaks("driver", Map.of("JVMHeapMemory", 500 * Units.MiB)).build();
        Finding f = only(run(app), "driverOverProvisioned");
        assertEquals("1g", f.adviceFor("spark.driver.memory").recommendedValue());
        assertEquals(List.of("driver"), f.executorIds());
    }

    @Test
    void sizesAreRoundedAsPeopleWriteThem() {
        assertEquals(Units.GiB, MemorySizing.roundUp(300 * Units.MiB));
        assertEquals(5 * Units.GiB, MemorySizing.roundUp(gib(4.875)));
        assertEquals(10 * Units.GiB, MemorySizing.roundUp(gib(9.1)));
        assertEquals(36 * Units.GiB, MemorySizing.roundUp(gib(33)));
    }

    static void assertOneValuePerKey(List<Finding> findings) {
        Map<String, String> values = new HashMap<>();
        for (Finding f : findings) {
            for (SettingAdvice a : f.advice()) {
                String before = values.putIfAbsent(a.key(), a.recommendedValue());
                assertTrue(before == null || SettingAdvice.sameValue(a.key(), before, a.recommendedValue()),
                        a.key() + ": " + before + " vs " + a.recommendedValue() + " in " + f.id());
            }
        }
        assertNotNull(values);
    }
}
