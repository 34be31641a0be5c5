package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import io.sparkscope.core.heuristics.builtin.CoreNumber;
import io.sparkscope.core.heuristics.builtin.DiskSpill;
import io.sparkscope.core.heuristics.builtin.DriverTime;
import io.sparkscope.core.heuristics.builtin.ExecutorGc;
import io.sparkscope.core.heuristics.builtin.MemoryConfig;
import io.sparkscope.core.heuristics.builtin.SmallTasks;
import io.sparkscope.core.heuristics.builtin.StageSkew;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.report.TextReport;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Diagnosis as a whole: advice that fits the application, knock-on findings under their cause, one value per
 * setting, short applications still judged at extremes. Each test builds the snapshot of one such application.
 */
class DiagnosisTest {
    private static HeuristicEngine.Result diagnose(AppSnapshot app) {
        HeuristicEngine engine = HeuristicEngine.load();
        HeuristicEngine.Result r = engine.run(app, engine.defaultConfig());
        assertEquals(List.of(), r.errors());
        Invariants.check(r.findings());
        return r;
    }

    @Test
    void skewWithAqeSwitchedOffAsksToSwitchItOnAndNeverCallsItDefault() {
        AppSnapshot app = app().master("yarn").sparkVersion("3.5.1").durationMs(600_000)
                .conf("spark.sql.adaptive.enabled", "false").sqlJob(0, 0)
                .stage(3).tasks(100, i -> task().runTime(i == 0 ? 120_000 : 4_000)
                        .shuffleRead(i == 0 ? 2 * GiB : 20 * MiB)).done()
                .build();
        Finding f = single(Severity.HIGH, run(new StageSkew(), app));
        assertFalse(f.recommendation().contains("default"), f.recommendation());
        SettingAdvice aqe = f.adviceFor("spark.sql.adaptive.enabled");
        assertEquals("true", aqe.recommendedValue());
        assertEquals("false", aqe.currentValue());
        assertEquals(SettingAdvice.ValueSource.SET, aqe.currentSource());
        assertTrue(f.recommendation().contains("spark.sql.adaptive.enabled=true (now false)"), f.recommendation());
        assertEquals(116_000L, f.impact().wallMs()); // slowest − median
    }

    @Test
    void skewWithEvenPartitionsDoesNotRecommendSkewJoin() {
        AppSnapshot app = app().master("yarn").sparkVersion("3.5.1").durationMs(600_000)
                .conf("spark.sql.adaptive.enabled", "false").sqlJob(0, 0)
                .stage(3).tasks(100, i -> task().runTime(i == 0 ? 120_000 : 4_000).shuffleRead(20 * MiB)).done()
                .build();
        // Even data: no partitioning remedy reaches the straggler, so it is a note (LOW), not a skew to fix first.
        Finding f = single(Severity.LOW, run(new StageSkew(), app));
        assertTrue(f.message().contains("sizes are even"), f.message());
        assertNull(f.adviceFor("spark.sql.adaptive.enabled"));
        assertNull(f.adviceFor("spark.sql.adaptive.skewJoin.enabled"));
        assertFalse(f.recommendation().toLowerCase().contains("enable aqe"), f.recommendation());
        assertTrue(f.recommendation().contains("skew join or salting will not help"), f.recommendation());
    }

    @Test
    void aqeOnByDefaultFromSpark32IsNotRecommendedAgain() {
        AppSnapshot app = app().master("yarn").sparkVersion("3.3.0").durationMs(600_000).sqlJob(0, 0)
                .stage(3).tasks(100, i -> task().runTime(i == 0 ? 120_000 : 4_000)
                        .shuffleRead(i == 0 ? 2 * GiB : 20 * MiB)).done()
                .build();
        Finding f = single(Severity.HIGH, run(new StageSkew(), app));
        assertNull(f.adviceFor("spark.sql.adaptive.enabled"));
        assertTrue(f.recommendation().contains("AQE's skew join is on"), f.recommendation());
    }

    @Test
    void rddStageWithThousandsOfTinyTasksIsNeverToldToLowerSqlShufflePartitions() {
        AppSnapshot app = app().master("local[4]").durationMs(120_000).job(0, JobStatus.SUCCEEDED, null)
                .executor("driver", 4, 60_000)
                .stage(0).tasks(5_200, i -> task().runTime(5).schedulerDelay(10)).done()
                .build();
        Finding f = single(Severity.LOW, run(new SmallTasks(), app));
        assertFalse(f.recommendation().contains("spark.sql.shuffle.partitions="), f.recommendation());
        assertTrue(f.advice().stream().noneMatch(a -> a.key().startsWith("spark.sql.")), f.advice().toString());
        assertTrue(f.recommendation().contains("RDD stage") && f.recommendation().contains("coalesce("),
                f.recommendation());
        // The 5 200 partitions came from the code, not from spark.default.parallelism (4, the cores): that setting
        // would not change this stage, so it is not advised (applied and rerun, it made such an app slower).
        assertNull(f.adviceFor("spark.default.parallelism"), f.advice().toString());
        assertTrue(f.impact().taskMs() > 0, f.impact().toString());
    }

    @Test
    void shortApplicationWithHeavyGcGetsALowFinding() {
        // 40 s of run time (under the one-minute floor), a third of it in GC
        AppSnapshot app = app().master("yarn").durationMs(45_000).conf("spark.executor.memory", "2g")
                .stage(0).tasks(40, i -> task().runTime(1_000).gc(340)).done().build();
        Finding f = single(Severity.LOW, run(new ExecutorGc(), app));
        assertTrue(f.message().contains("short run"), f.message());
        assertEquals("3g", f.adviceFor("spark.executor.memory").recommendedValue());
        // the same share over enough task time is HIGH: the floor lowered the severity, it did not silence
        AppSnapshot longer = app().master("yarn").durationMs(200_000).conf("spark.executor.memory", "2g")
                .stage(0).tasks(100, i -> task().runTime(1_000).gc(340)).done().build();
        single(Severity.HIGH, run(new ExecutorGc(), longer));
    }

    @Test
    void shortDriverBoundApplicationGetsALowFinding() {
        // 40 s, of which tasks ran 2 s: the driver worked alone the rest of the time
        // (its first job came at once: the wait before the stage is the driver planning, not start-up)
        AppSnapshot app = app().master("yarn").durationMs(40_000).executor("1", 4, 2_000)
                .job(0, JobStatus.SUCCEEDED, null).stage(0).startAt(30_000).tasks(4, i -> task().runTime(2_000)).done().build();
        Finding f = single(Severity.LOW, run(new DriverTime(), app));
        assertTrue(f.impact().wallMs() > 30_000, f.impact().toString());
        assertEquals("true", f.adviceFor("spark.dynamicAllocation.enabled").recommendedValue());
        // with dynamic allocation on, it is not recommended again
        AppSnapshot dyn = app().master("yarn").durationMs(40_000).conf("spark.dynamicAllocation.enabled", "true")
                .executor("1", 4, 2_000).job(0, JobStatus.SUCCEEDED, null).stage(0).startAt(30_000).tasks(4, i -> task().runTime(2_000)).done().build();
        Finding g = single(Severity.LOW, run(new DriverTime(), dyn));
        assertNull(g.adviceFor("spark.dynamicAllocation.enabled"));
        assertTrue(g.recommendation().contains("dynamic allocation is on"), g.recommendation());
    }

    @Test
    void aFailingStageIsTheRootOfItsTasksItsJobAndTheStagesItCancelled() {
        String oom = "java.lang.OutOfMemoryError: Java heap space (buffer 0x7f00%d, id=%d)";
        AppSnapshot app = app().master("yarn").durationMs(230_000)
                .job(1, JobStatus.FAILED, "Job aborted due to stage failure: Task 3 in stage 3.0 failed 4 times")
                .job(2, JobStatus.FAILED, "Job 2 cancelled because SparkContext was shut down")
                // an unrelated skewed stage first, so the failure must outrank it by impact, not by position
                .stage(1).jobs(0).skewed(50, 30_000, 2_000).done()
                .stage(3).jobs(1).startAt(60_000).durationMs(150_000).failed("Job aborted due to stage failure: Task 3"
                        + " in stage 3.0 failed 4 times, most recent failure: java.lang.OutOfMemoryError")
                .tasks(40, i -> i < 10 ? task().runTime(20_000).failed(String.format(oom, i, 1000 + i))
                        : task().runTime(60_000)).done()
                .stage(4).jobs(2).startAt(60_000).durationMs(160_000).failed("Stage cancelled because SparkContext was"
                        + " shut down").tasks(5, i -> task().runTime(1_000)).done()
                .build();
        HeuristicEngine.Result r = diagnose(app);
        Map<String, Finding> byId = new HashMap<>();
        r.findings().forEach(f -> byId.put(f.id(), f));
        assertNull(byId.get("TaskFailure:3.0").causedBy());
        assertEquals("TaskFailure:3.0", byId.get("StageFailure:3.0").causedBy());
        assertEquals("StageFailure:3.0", byId.get("JobFailure").causedBy());
        assertEquals("StageFailure:3.0", byId.get("StageFailure:4.0").causedBy());
        assertEquals(Severity.LOW, byId.get("StageFailure:4.0").severity()); // a cancellation is a knock-on
        List<String> order = r.findings().stream().map(Finding::id).toList();
        assertEquals("TaskFailure:3.0", order.get(0), order.toString());
        assertTrue(order.indexOf("StageFailure:3.0") < order.indexOf("StageSkew:1.0"), order.toString());
        assertTrue(order.indexOf("StageFailure:4.0") < order.indexOf("StageSkew:1.0"), order.toString());
        FixFirst.Item first = r.fixFirst().items().get(0);
        assertEquals("TaskFailure:3.0", first.findingId());
        assertTrue(first.knockOns().containsAll(List.of("StageFailure:3.0", "JobFailure", "StageFailure:4.0")),
                first.knockOns().toString());
        assertTrue(first.sentence().contains("could save about"), first.sentence());
        assertTrue(r.fixFirst().items().size() <= FixFirst.MAX_ITEMS);
        assertTrue(r.fixFirst().items().stream().noneMatch(i -> byId.get(i.findingId()).causedBy() != null));
        // the ten errors differ only in address and id: one group of ten, first occurrence verbatim
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> groups = (List<Map<String, Object>>) byId.get("TaskFailure:3.0").details()
                .get("errorGroups");
        assertEquals(1, groups.size(), groups.toString());
        assertEquals(10, groups.get(0).get("count"));
        assertEquals(String.format(oom, 0, 1000), groups.get(0).get("first"));
        assertEquals(List.of("3.0"), groups.get(0).get("stages"));
        // out of memory: the advice is memory and partitions, with the values in force
        Finding task = byId.get("TaskFailure:3.0");
        assertNotNull(task.adviceFor("spark.executor.memory"), task.recommendation());
        // the driver-log report (and analyze's text) opens with the same list, right under the run's header
        String report = TextReport.render(app, r.findings(), 5, null);
        int fix = report.indexOf("  Fix this first:\n    1. [HIGH] " + first.sentence() + "\n");
        assertTrue(fix > 0 && fix < report.indexOf("  Jobs "), report);
        assertTrue(report.lines().filter(l -> l.matches(" {4}\\d\\. \\[(HIGH|LOW)] .*")).count()
                <= FixFirst.MAX_ITEMS, report);
    }

    @Test
    void conflictingMemoryAdviceIsReconciledToOneValueWithAllReasons() {
        // 20g executors (MemoryConfig: "use smaller ones") whose tasks spend 30 % in GC (ExecutorGc: "more heap")
        AppSnapshot app = app().master("yarn").durationMs(600_000).conf("spark.executor.memory", "20g")
                .conf("spark.executor.cores", "4").executor("1", 4, 300_000)
                .stage(0).slots(4).tasks(200, i -> task().runTime(1_500).gc(450)).done().build();
        HeuristicEngine.Result r = diagnose(app);
        Finding gc = r.findings().stream().filter(f -> f.id().equals("ExecutorGc")).findFirst().orElseThrow();
        Finding big = r.findings().stream().filter(f -> f.id().equals("MemoryConfig:executorMemoryLarge"))
                .findFirst().orElseThrow();
        assertEquals("30g", gc.adviceFor("spark.executor.memory").recommendedValue());
        assertNull(big.adviceFor("spark.executor.memory"), big.advice().toString());
        assertTrue(big.recommendation().contains("ExecutorGc sets it to 30g"), big.recommendation());
        assertTrue(gc.adviceFor("spark.executor.memory").reasons().stream()
                .anyMatch(x -> x.startsWith("MemoryConfig (asked for 10g)")), gc.advice().toString());
    }

    @Test
    void gpuExecutorsGetNoCpuCoreAdvice() {
        AppSnapshot app = app().master("spark://master:7077").durationMs(600_000).sqlJob(0, 0)
                .conf("spark.plugins", "com.nvidia.spark.SQLPlugin").conf("spark.executor.resource.gpu.amount", "1")
                .conf("spark.executor.cores", "16").conf("spark.executor.memory", "40g")
                .conf("spark.rapids.sql.concurrentGpuTasks", "4")
                .executor("1", 16, 300_000)
                .stage(5).spilling(10, 80 * MiB, 0).done()
                .build();
        assertEquals(List.of(), run(new CoreNumber(), app));
        assertEquals(List.of(), run(new MemoryConfig(), app));
        Finding spill = single(Severity.HIGH, run(new DiskSpill(), app));
        assertTrue(spill.title().contains("out of memory (none to disk)"), spill.title());
        assertTrue(spill.recommendation().contains("GPU"), spill.recommendation());
        assertNull(spill.adviceFor("spark.executor.memory"));
        HeuristicEngine.Result r = diagnose(app);
        assertTrue(r.findings().stream().noneMatch(f -> f.adviceFor("spark.executor.cores") != null));
    }

    @Test
    void diskSpillNamesDiskBytesOnlyWhenTheyReachedDisk() {
        AppSnapshot app = app().sqlJob(0, 0)
                .stage(5).spilling(10, 80 * MiB, 20 * MiB).done().build();
        // LOW: written and read back, 200 MiB cost about 0.4 s of this one-second stage, too little to be HIGH
        Finding f = single(Severity.LOW, run(new DiskSpill(), app));
        assertEquals("Stage 5 spilled 200 MiB to disk", f.title());
    }

    @Test
    void everyFindingOfBusyApplicationsKeepsTheInvariants() {
        // a mixed bag: small executors, one core, skew, spill, tiny tasks, GC; run everything
        AppSnapshot app = app().master("yarn").durationMs(900_000).conf("spark.executor.memory", "1g")
                .executor("1", 1, 200_000).executor("2", 1, 100_000).executor("3", 1, 100_000)
                .sqlJob(0, 0)
                .stage(0).tasks(6_000, i -> task().runTime(50).shuffleRead(1024)).done()
                .stage(1).tasks(50, i -> task().runTime(i == 0 ? 60_000 : 3_000).gc(800)
                        .shuffleRead(i == 0 ? GiB : 10 * MiB).spill(50 * MiB, 10 * MiB)).done()
                .build();
        HeuristicEngine.Result r = diagnose(app);
        Set<String> heuristics = new HashSet<>();
        r.findings().forEach(f -> heuristics.add(f.heuristic()));
        assertTrue(heuristics.containsAll(Set.of("MemoryConfig", "CoreNumber", "SmallTasks", "DiskSpill")),
                heuristics.toString());
    }
}
