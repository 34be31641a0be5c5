package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory and core advice by the platform the application ran on (Kubernetes, YARN, Databricks, local mode). */
class PlatformAdviceTest {
    private static final long HOUR = 3_600_000;

    /** A Kubernetes PySpark job: 4g heaps with 4g explicit overhead, executors measured at {@code rss} resident. */
    private static AppSnapshot k8sPython(long rss) {
        SnapshotBuilder b = SnapshotBuilder.app().master("k8s://https://172.20.0.1:443").sparkVersion("3.5.3")
                .durationMs(HOUR).conf("spark.kubernetes.resource.type", "python")
                .conf("spark.executor.memory", "4g").conf("spark.executor.memoryOverhead", "4g")
                .conf("spark.executor.cores", "1");
        for (int i = 1; i <= 4; i++) {
            b.executor(Integer.toString(i), 1, HOUR / 2);
            b.peaks(Integer.toString(i), Map.of("JVMHeapMemory", 3900 * Units.MiB, "JVMOffHeapMemory",
                    120 * Units.MiB, "ProcessTreeJVMRSSMemory", rss, "ProcessTreePythonRSSMemory", 0L));
        }
        return b.stage(0).startAt(0).durationMs(HOUR)
                .tasks(8, i -> task().runTime(HOUR / 4).executor(Integer.toString(i % 4 + 1))).done().build();
    }

    @Test
    void kubernetesOverheadIsNeverAdvisedBelowTheMeasuredProcessTree() {
        long rss = 4925 * Units.MiB; // what the executors held: more than the 4g heap
        Finding f = single(Severity.LOW, run(new MemoryConfig(), k8sPython(rss)));
        assertEquals("MemoryConfig:overheadLarge", f.id());
        SettingAdvice a = f.adviceFor("spark.executor.memoryOverhead");
        long advised = Units.parseBytes(a.recommendedValue(), Units.MiB);
        assertTrue(4 * Units.GiB + advised >= rss * 1.1, "container " + a.recommendedValue() + " + 4g under the "
                + Units.bytes(rss) + " measured plus a margin");
        assertTrue(advised >= (long) (0.4 * 4 * Units.GiB), "not below Kubernetes' 40 % default for Python");
        assertEquals("2g", a.recommendedValue());
        assertEquals("4g", a.currentValue());
        assertTrue(f.message().contains("40 % of the heap") && f.message().contains("PySpark job on Kubernetes"),
                f.message());

        // executors that held nearly all of their 8g container leave nothing to take back
        silent(run(new MemoryConfig(), k8sPython(7600 * Units.MiB)));
    }

    @Test
    void aSmallerHeapKeepsTheContainerAboveTheProcessTree() {
        // 16g heaps peaking at 3.9 GiB, but the processes held 12 GiB (native memory, Python): 5g + overhead would be
        // killed, so the heap offered keeps the container above 13.2 GiB
        SnapshotBuilder b = SnapshotBuilder.app().master("k8s://https://h:443").sparkVersion("3.5.3").durationMs(HOUR)
                .conf("spark.executor.memory", "16g");
        for (int i = 1; i <= 4; i++) {
            b.executor(Integer.toString(i), 4, HOUR / 2);
            b.peaks(Integer.toString(i), Map.of("JVMHeapMemory", (long) (3.9 * Units.GiB), "JVMOffHeapMemory",
                    100 * Units.MiB, "ProcessTreeJVMRSSMemory", 12 * Units.GiB));
        }
        AppSnapshot app = b.stage(0).startAt(0).durationMs(HOUR)
                .tasks(8, i -> task().runTime(HOUR / 2).executor(Integer.toString(i % 4 + 1))).done().build();
        Finding f = new MemorySizing().evaluate(app, HeuristicConfig.defaults()).stream()
                .filter(x -> x.id().equals("MemorySizing:executorsOverProvisioned")).findFirst().orElseThrow();
        long heap = Units.parseBytes(f.adviceFor("spark.executor.memory").recommendedValue(), Units.MiB);
        long container = heap + Math.max(384 * Units.MiB, heap / 10);
        assertTrue(container >= 12 * Units.GiB * 1.1, "container of a " + Units.bytes(heap) + " heap: "
                + Units.bytes(container));
    }

    /** A Databricks job cluster of r5.8xlarge workers: one 32-core executor per node, 49896m heaps. */
    private static SnapshotBuilder databricks() {
        SnapshotBuilder b = SnapshotBuilder.app().master("spark://10.77.195.186:7077").sparkVersion("3.1.2")
                .durationMs(HOUR).conf("spark.databricks.workerNodeTypeId", "r5.8xlarge")
                .conf("spark.databricks.clusterUsageTags.clusterNodeType", "r5.8xlarge")
                .conf("spark.executor.memory", "49896m").conf("spark.driver.maxResultSize", "4g");
        for (int i = 0; i < 8; i++) {
            b.executor(Integer.toString(i), 32, HOUR / 2);
            b.peaks(Integer.toString(i), Map.of("JVMHeapMemory", 20 * Units.GiB, "JVMOffHeapMemory", 300 * Units.MiB));
        }
        return b;
    }

    @Test
    void databricksExecutorsOfTheNodesSizeAreNotVeryLargeAndGetANodeTypeNotExecutorSettings() {
        AppSnapshot app = databricks().stage(0).startAt(0).durationMs(HOUR)
                .tasks(64, i -> task().runTime(HOUR / 4).executor(Integer.toString(i % 8))).done().build();
        silent(run(new MemoryConfig(), app));
        silent(run(new CoreNumber(), app));
        List<Finding> sizing = new MemorySizing().evaluate(app, HeuristicConfig.defaults());
        Finding over = sizing.stream().filter(f -> f.id().equals("MemorySizing:executorsOverProvisioned"))
                .findFirst().orElseThrow();
        assertNull(over.adviceFor("spark.executor.memory"), "the platform sets the executors' memory");
        assertTrue(over.recommendation().contains("node type with less memory per core than r5.8xlarge"),
                over.recommendation());
        for (Finding f : sizing) {
            assertFalse(f.advice().stream().anyMatch(a -> a.key().equals("spark.executor.cores")
                    || a.key().equals("spark.executor.memory")), f.toString());
        }
    }

    @Test
    void databricksGcAsksForANodeTypeWithMoreMemoryPerCore() {
        AppSnapshot app = databricks().stage(0).startAt(0).durationMs(HOUR)
                .tasks(100, i -> task().runTime(1_000).gc(300).executor(Integer.toString(i % 8))).done().build();
        // the heap peaked at 20 GiB of 48.7: under half, so this is churn, not a short heap
        Finding churn = single(Severity.HIGH, run(new ExecutorGc(), app));
        assertTrue(churn.advice().isEmpty(), churn.advice().toString());
        SnapshotBuilder full = databricks();
        for (int i = 0; i < 8; i++) {
            full.peaks(Integer.toString(i), Map.of("JVMHeapMemory", 46 * Units.GiB));
        }
        Finding f = single(Severity.HIGH, run(new ExecutorGc(), full.stage(0).startAt(0).durationMs(HOUR)
                .tasks(100, i -> task().runTime(1_000).gc(300).executor(Integer.toString(i % 8))).done().build()));
        assertNull(f.adviceFor("spark.executor.memory"));
        assertTrue(f.recommendation().contains("node type with more memory per core than r5.8xlarge"),
                f.recommendation());
    }

    @Test
    void gcWithALowHeapPeakIsChurnAndGetsNoLargerHeap() {
        // 30 % of task time in GC while the heap never went above 1.2 GiB of 30g (4 %)
        SnapshotBuilder b = SnapshotBuilder.app().master("yarn").conf("spark.executor.memory", "30g");
        b.executor("1", 4, 100_000);
        b.peaks("1", Map.of("JVMHeapMemory", (long) (1.2 * Units.GiB)));
        AppSnapshot app = b.stage(0).tasks(100, i -> task().runTime(1_000).gc(300).executor("1")).done().build();
        Finding f = single(Severity.HIGH, run(new ExecutorGc(), app));
        assertNull(f.adviceFor("spark.executor.memory"), "no spark.executor.memory=45g for a heap used at 4 %");
        assertFalse(f.recommendation().contains("45g"), f.recommendation());
        assertTrue(f.recommendation().contains("churn") && f.recommendation().contains("Kryo"), f.recommendation());
        assertEquals("allocationChurn", f.details().get("cause"));

        // unmeasured heaps keep the old advice: nothing says the heap was not short
        Finding unmeasured = single(Severity.HIGH, run(new ExecutorGc(), SnapshotBuilder.app().master("yarn")
                .conf("spark.executor.memory", "30g").stage(0).tasks(100, i -> task().runTime(1_000).gc(300)).done()
                .build()));
        assertEquals("45g", unmeasured.adviceFor("spark.executor.memory").recommendedValue());
    }

    @Test
    void localModeOneJvmGetsOneGcFinding() {
        // local mode: the driver's GC (40 s of a 100 s run) is the tasks' GC, which ExecutorGc already reports
        AppSnapshot app = SnapshotBuilder.app().master("local[4]").durationMs(100_000).driverGcMs(40_000)
                .stage(0).tasks(100, i -> task().runTime(1_000).gc(400)).done().build();
        single(Severity.HIGH, run(new ExecutorGc(), app));
        silent(run(new DriverGc(), app));

        // GC the tasks do not explain (a driver-side collect loop) is still the driver's own
        AppSnapshot driverSide = SnapshotBuilder.app().master("local[4]").durationMs(100_000).driverGcMs(40_000)
                .stage(0).tasks(100, i -> task().runTime(1_000).gc(10)).done().build();
        Finding d = single(Severity.HIGH, run(new DriverGc(), driverSide));
        assertEquals(39_000L, d.details().get("driverGcTimeMs"));
    }

    @Test
    void yarnAdviceNamesTheReportedCoresAndYarnsOwnDefaults() {
        // standalone executors reporting 16 cores with spark.executor.cores unset: "now 16", never "now unknown"
        SnapshotBuilder b = SnapshotBuilder.app().master("spark://h:7077").conf("spark.executor.memory", "40g");
        b.executor("1", 16, 1000).executor("2", 16, 1000);
        Finding large = single(Severity.HIGH, run(new MemoryConfig(), b.build()));
        SettingAdvice cores = large.adviceFor("spark.executor.cores");
        assertEquals("16", cores.currentValue());
        assertFalse(large.recommendation().contains("unknown"), large.recommendation());

        // YARN: 10 % overhead for a Python job too, and a one-core default named as YARN's
        AppSnapshot yarn = SnapshotBuilder.app().master("yarn").conf("spark.submit.pyFiles", "job.py")
                .conf("spark.executor.memory", "8g").conf("spark.executor.memoryOverhead", "4g")
                .executor("1", 1, 1000).build();
        List<Finding> findings = run(new MemoryConfig(), yarn);
        Finding overhead = findings.stream().filter(f -> f.id().equals("MemoryConfig:overheadLarge")).findFirst()
                .orElseThrow();
        assertEquals("820m", overhead.adviceFor("spark.executor.memoryOverhead").recommendedValue());
        Finding one = single(Severity.LOW, run(new CoreNumber(), yarn));
        assertTrue(one.message().contains("the YARN default"), one.message());
    }

    @Test
    void onEmrTheExecutorSizeEmrChoseIsInForceWhenTheApplicationSetsNone() {
        // EMR wrote its instance type's executor size under spark.emr.default.*; the application set no size
        SnapshotBuilder b = SnapshotBuilder.app().master("yarn").sparkVersion("3.5.1")
                .conf("spark.emr.default.executor.memory", "9397M").conf("spark.emr.default.executor.cores", "3");
        AppSnapshot app = b.stage(0).tasks(100, i -> task().runTime(1_000).gc(150)).done().build();
        SparkSettings conf = SparkSettings.of(app);
        assertEquals(9397 * Units.MiB, conf.executorMemoryBytes());
        assertEquals("9397M", conf.current("spark.executor.memory").value());
        assertEquals("3", conf.current("spark.executor.cores").value());
        Finding f = single(Severity.LOW, run(new ExecutorGc(), app));
        assertTrue(f.recommendation().contains("spark.executor.memory=14g (now 9397M, the default)"),
                f.recommendation());
        // set by the application: that wins
        AppSnapshot set = SnapshotBuilder.app().master("yarn").conf("spark.emr.default.executor.memory", "9397M")
                .conf("spark.executor.memory", "4g").build();
        assertEquals(4 * Units.GiB, SparkSettings.of(set).executorMemoryBytes());
    }
}
