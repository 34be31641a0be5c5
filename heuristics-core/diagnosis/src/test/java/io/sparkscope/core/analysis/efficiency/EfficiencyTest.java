package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.analysis.whatif.WhatIfPoint;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.testing.SqlJobEvents;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskSpanSummary;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EfficiencyTest {
    private static final long HOUR = 3_600_000;
    private static final double EPS = 1e-9;

    /** Two 4-core executors for an hour; tasks for 1 h and 2 h; one stage from minute 10 to minute 50. */
    private static SnapshotBuilder cluster() {
        return SnapshotBuilder.app().master("yarn").durationMs(HOUR).conf("spark.executor.memory", "4g")
                .executor("1", 4, HOUR).executor("2", 4, 2 * HOUR)
                .stage(0).startAt(10 * 60_000).durationMs(40 * 60_000)
                .task(SnapshotBuilder.task().runTime(40 * 60_000).executor("1")).done();
    }

    @Test
    void coreHoursAllocatedUsedIdleAndDriverAlone() {
        Efficiency e = Efficiency.of(cluster().build());
        assertFalse(e.local());
        assertEquals(8.0, e.coreHoursAllocated(), EPS);
        assertEquals(3.0, e.coreHoursUsed(), EPS);
        assertEquals(5.0, e.coreHoursIdle(), EPS);
        assertEquals(0.625, e.coreWasteShare(), EPS);
        assertEquals(20 * 60_000, e.driverAloneMs(), "the 10 minutes before and after the one stage");
        assertEquals(8.0 / 3, e.coreHoursDriverAlone(), EPS);
        assertEquals(1.0 / 3, e.coreDriverAloneShare(), EPS);
    }

    /**
     * A long-running driver's snapshot lists only its recent stages; the older ones are summed up in the run's
     * totals. The figures must still describe the whole run, not count the older stages' time as the driver's alone.
     */
    @Test
    void aWindowedSnapshotGivesTheFiguresOfTheWholeRun() {
        Recorder windowed = new Recorder(RecorderOptions.DEFAULTS.withWindow(5, 5, 5));
        Recorder whole = new Recorder(RecorderOptions.DEFAULTS);
        for (Recorder r : List.of(windowed, whole)) {
            r.onEvent(new SparkEvent.ApplicationStart("long", "app-long", null, T0, "alice"));
            r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(),
                    Map.of()));
            r.onEvent(new SparkEvent.ExecutorAdded(T0, "driver", "localhost", 2));
            for (int i = 0; i < 40; i++) {
                SqlJobEvents.oneStageJob(r, i, T0, true);
                r.written(r.snapshot().eventCount()); // written, so the window lets the oldest leave
            }
            r.onEvent(new SparkEvent.ApplicationEnd(T0 + 10_000));
        }
        AppSnapshot recent = windowed.snapshot();
        AppSnapshot all = whole.snapshot();
        assertTrue(recent.stages().size() < 40 && recent.totals().taskSpans() != null,
                "the windowed snapshot lists its recent stages and sums up the others");
        assertEquals(40, all.stages().size());
        Efficiency expected = Efficiency.of(all);
        Efficiency e = Efficiency.of(recent);
        assertTrue(expected.driverAloneMs() > 5_000, "the driver works alone between the jobs and after them");
        assertEquals(expected.driverAloneMs(), e.driverAloneMs());
        assertEquals(expected.coreMsDriverAlone(), e.coreMsDriverAlone(), EPS);
        assertEquals(expected.byteMsDriverAlone(), e.byteMsDriverAlone(), EPS);
        assertEquals(expected.coreMsAllocated(), e.coreMsAllocated(), EPS);
    }

    /**
     * The folded stages are one block whose alone time is known in total only: an executor that lived through all of
     * it gets all of it, one that lived through part of it its share; after the block the listed stages' gaps count
     * exactly.
     */
    @Test
    void driverAloneTimeAfterFoldedStagesIsExactAndWithinTheBlockProportional() {
        // folded: [0, 1 000) with 600 ms covered by tasks; listed: one stage over [1 200, 1 500); the app ends at 2 000
        // (times from the application's start)
        long s0 = SnapshotBuilder.START;
        TaskSpanSummary earlier = new TaskSpanSummary(s0, s0 + 1_000, 600, "9.0", List.of());
        List<StageSummary> listed = SnapshotBuilder.app().durationMs(2_000)
                .stage(10).startAt(1_200).task(SnapshotBuilder.task().runTime(300)).done()
                .build().stages();
        DriverAloneTime alone = DriverAloneTime.of(listed, earlier, s0, s0 + 2_000);
        assertEquals(400 + 200 + 500, alone.totalMs(), "400 in the block, 200 before the stage, 500 after it");
        assertEquals(alone.totalMs(), alone.within(s0, s0 + 2_000));
        assertEquals(200, alone.within(s0 + 500, s0 + 1_000), "half the block: half its 400");
        assertEquals(200 + 200, alone.within(s0 + 500, s0 + 1_300), "then [1 000, 1 200) before the stage");
        assertEquals(0, alone.within(s0 + 1_300, s0 + 1_400), "the stage ran then");
        DriverAloneTime noBlock = DriverAloneTime.of(listed, null, s0, s0 + 2_000);
        assertEquals(1_200 + 500, noBlock.totalMs(), "without the summary the whole start counts as alone time");
    }

    private static final long T0 = 1_764_500_000_000L;

    @Test
    void gbHoursCountTheWholeContainerAndWasteOnlyWhereMeasured() {
        AppSnapshot app = cluster().peaks("1", Map.of("JVMHeapMemory", Units.GiB, "JVMOffHeapMemory", 100 * Units.MiB,
                "DirectPoolMemory", 0L, "ProcessTreeJVMRSSMemory", 0L)).build();
        Efficiency e = Efficiency.of(app);
        // 4g heap + max(384m, 10 % of 4g) overhead = 4.4 GiB per container
        double container = 4 + 0.4;
        assertEquals(2 * container, e.gbHoursAllocated(), 1e-6);
        assertEquals(MemoryPeaks.Basis.JVM, e.basis());
        assertEquals(1 + 100.0 / 1024, e.gbHoursPeakUsed(), 1e-6);
        assertEquals(container - (1 + 100.0 / 1024), e.gbHoursWasted(), 1e-6, "executor 2 was not measured");
        assertEquals((container - 1 - 100.0 / 1024) / container, e.memoryWasteShare(), 1e-6);
        assertEquals(1, e.coverage().measured());
        assertEquals(2, e.coverage().executors());
        assertEquals(2 * container / 3, e.gbHoursDriverAlone(), 1e-6);
    }

    @Test
    void theProcessTreeIsTheUsedMemoryWhenMeasured() {
        AppSnapshot app = cluster().peaks("1", Map.of("JVMHeapMemory", Units.GiB, "ProcessTreeJVMRSSMemory",
                        2 * Units.GiB, "ProcessTreePythonRSSMemory", Units.GiB))
                .peaks("2", Map.of("JVMHeapMemory", Units.GiB, "ProcessTreeJVMRSSMemory", Units.GiB)).build();
        Efficiency e = Efficiency.of(app);
        assertEquals(MemoryPeaks.Basis.PROCESS_TREE, e.basis());
        assertEquals(3 + 1, e.gbHoursPeakUsed(), 1e-6);
        assertEquals(List.of(MeasuringSetting.LOG_STAGE_EXECUTOR_METRICS), e.coverage().missing(),
                "only the cluster driver is unmeasured");
    }

    @Test
    void nothingMeasuredSaysWhichSettingsWouldMeasureIt() {
        Efficiency e = Efficiency.of(cluster().sparkVersion("3.5.1").build());
        assertFalse(e.memoryMeasured());
        assertEquals(-1, e.gbHoursWasted());
        assertEquals(-1, e.memoryWasteShare());
        assertEquals(List.of(MeasuringSetting.LOG_STAGE_EXECUTOR_METRICS, MeasuringSetting.METRICS_POLLING_INTERVAL,
                MeasuringSetting.PROCESS_TREE_METRICS), e.coverage().missing());
        Efficiency set = Efficiency.of(cluster().conf("spark.eventLog.logStageExecutorMetrics", "true")
                .conf("spark.executor.metrics.pollingInterval", "5s")
                .conf("spark.executor.processTreeMetrics.enabled", "true").build());
        assertEquals(List.of(), set.coverage().missing(), "never asks for what is already set");
        Efficiency old = Efficiency.of(cluster().sparkVersion("2.4.8").build());
        assertTrue(old.coverage().tooOld());
        assertEquals(List.of(), old.coverage().missing());
    }

    @Test
    void localModeCountsTheDriversCoresAndHeapForTheWholeRun() {
        AppSnapshot app = SnapshotBuilder.app().master("local[4]").durationMs(HOUR).conf("spark.driver.memory", "2g")
                .executor("driver", 4, HOUR / 2)
                .peaks("driver", Map.of("JVMHeapMemory", 512 * Units.MiB)).build();
        Efficiency e = Efficiency.of(app);
        assertTrue(e.local());
        assertEquals(4.0, e.coreHoursAllocated(), EPS);
        assertEquals(0.5, e.coreHoursUsed(), EPS);
        assertEquals(2.0, e.gbHoursAllocated(), EPS);
        assertEquals(0.5, e.gbHoursPeakUsed(), EPS);
        assertEquals(0.75, e.memoryWasteShare(), EPS);
    }

    @Test
    void anExecutorsLifetimeIsWhileItWasRegistered() {
        AppSnapshot app = SnapshotBuilder.app().master("yarn").durationMs(HOUR)
                .executor("1", 2, HOUR / 4, SnapshotBuilder.START + HOUR / 2, SnapshotBuilder.START + 3 * HOUR / 4)
                .build();
        Efficiency e = Efficiency.of(app);
        assertEquals(0.5, e.coreHoursAllocated(), EPS);
        assertEquals(0.25, e.coreHoursUsed(), EPS, "used is at most the held core time");
    }

    @Test
    void containersFollowTheVersionsRules() {
        SparkSettings v33 = settings("3.3.0", Map.of("spark.executor.memory", "10g",
                "spark.executor.memoryOverheadFactor", "0.2"));
        assertEquals(2 * Units.GiB, ContainerMemory.executor(v33).overheadBytes());
        SparkSettings k8s32 = settings("3.2.0", Map.of("spark.master", "k8s://x", "spark.executor.memory", "10g",
                "spark.kubernetes.memoryOverheadFactor", "0.4"));
        assertEquals(4 * Units.GiB, ContainerMemory.executor(k8s32).overheadBytes());
        SparkSettings v40 = settings("4.0.0", Map.of("spark.executor.minMemoryOverhead", "1g"));
        assertEquals(Units.GiB, ContainerMemory.executor(v40).overheadBytes(), "4.0's minimum applies to a 1g heap");
        SparkSettings v35 = settings("3.5.0", Map.of("spark.executor.minMemoryOverhead", "1g"));
        assertEquals(384 * Units.MiB, ContainerMemory.executor(v35).overheadBytes(), "no such key before 4.0");
        Map<String, String> offHeap = Map.of("spark.memory.offHeap.enabled", "true", "spark.memory.offHeap.size", "2g",
                "spark.executor.pyspark.memory", "1g", "spark.executor.memoryOverhead", "512m");
        assertEquals(Units.GiB + 512 * Units.MiB + 2 * Units.GiB + Units.GiB,
                ContainerMemory.executor(settings("3.1.0", offHeap)).totalBytes());
        assertEquals(0, ContainerMemory.executor(settings("2.4.0", offHeap)).offHeapBytes(),
                "before 3.0 off-heap memory came out of the overhead");
    }

    @Test
    void localHeapComesFromTheBlockManagerWhenDriverMemoryIsUnset() {
        SparkSettings conf = settings("4.0.4", Map.of("spark.master", "local[2]"));
        long heap = ContainerMemory.localHeapFromBlockManager(conf, Math.round((3 * Units.GiB - 300 * Units.MiB) * 0.6));
        assertEquals(3 * Units.GiB, heap, Units.MiB);
        assertEquals(heap, ContainerMemory.driver(conf, heap).totalBytes());
        SparkSettings set = settings("4.0.4", Map.of("spark.master", "local[2]", "spark.driver.memory", "2g"));
        assertEquals(2 * Units.GiB, ContainerMemory.driver(set, heap).totalBytes(), "a set value wins");
    }

    @Test
    void costIsCoreHoursTimesPricePlusGbHoursTimesPrice() {
        AppSnapshot app = cluster().peaks("1", Map.of("JVMHeapMemory", Units.GiB)).build();
        Efficiency e = Efficiency.of(app);
        Prices p = new Prices(0.05, 0.01, "EUR");
        Cost c = Cost.of(e, p);
        assertEquals(8 * 0.05, c.coreAllocated(), EPS);
        assertEquals(8.8 * 0.01, c.memoryAllocated(), 1e-6);
        assertEquals(8 * 0.05 + 8.8 * 0.01, c.allocated(), 1e-6);
        assertEquals(5 * 0.05, c.coreWasted(), EPS);
        assertEquals((4.4 - 1) * 0.01, c.memoryWasted(), 1e-6, "only the measured executor's unused memory");
        assertEquals(c.allocated() - c.wasted(), c.used(), EPS);
        assertEquals(8.0 / 3 * 0.05 + 8.8 / 3 * 0.01, c.driverAlone(), 1e-6);
        Cost unmeasured = Cost.of(Efficiency.of(cluster().build()), p);
        assertEquals(0, unmeasured.memoryWasted(), "unmeasured memory is never called waste");
        assertFalse(unmeasured.memoryMeasured());
        Cost doubled = Cost.of(e, new Prices(0.10, 0.02, "EUR"));
        assertEquals(2 * c.allocated(), doubled.allocated(), 1e-9, "cost scales with the prices");
    }

    @Test
    void pricesAreCheckedAndNamedInErrors() {
        assertEquals(new Prices(0.05, 0.004, "EUR"), Prices.parse("0.05", " 0.004 ", "eur"));
        assertEquals(Prices.NONE, Prices.parse(null, "", null));
        assertFalse(Prices.NONE.configured());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> Prices.parse("cheap", "0", "", "--cost-core-hour", "--cost-gb-hour", "--currency"));
        assertEquals("--cost-core-hour must be a number of at least 0 (e.g. 0.05), got \"cheap\"", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Prices.parse("0", "-1", ""));
        assertThrows(IllegalArgumentException.class, () -> Prices.parse("NaN", "0", ""));
        assertThrows(IllegalArgumentException.class, () -> Prices.parse("1", "0", "<script>"));
        assertEquals("$", Prices.parse("1", "0", "$").currency());
    }

    @Test
    void whatIfCostConcludesWithTheCheapestCountOfAboutTheSameTime() {
        WhatIfResult w = whatIf(List.of(new WhatIfPoint(1, 4, 120_000, false), new WhatIfPoint(2, 8, 31_000, false),
                new WhatIfPoint(4, 16, 30_000, true), new WhatIfPoint(8, 32, 29_500, false)));
        WhatIfCost c = WhatIfCost.of(w, 4, 4 * Units.GiB, new Prices(0.05, 0.01, "EUR"));
        assertTrue(c.priced());
        WhatIfCost.Point two = c.points().get(1);
        assertEquals(31_000.0 / 30_000 - 1, two.timeChange(), 1e-9);
        assertEquals(2.0 * 31 / (4.0 * 30) - 1, two.costChange(), 1e-9, "cost is proportional to executors × time");
        assertEquals(WhatIfCost.Verdict.CHEAPER, c.conclusion().verdict());
        assertEquals(2, c.conclusion().point().executors());

        WhatIfResult flat = whatIf(List.of(new WhatIfPoint(2, 8, 60_000, false), new WhatIfPoint(4, 16, 30_000, true),
                new WhatIfPoint(8, 32, 16_000, false)));
        WhatIfCost faster = WhatIfCost.of(flat, 4, 4 * Units.GiB, Prices.NONE);
        assertFalse(faster.priced(), "without prices the cost is core-hours");
        assertEquals(WhatIfCost.Verdict.FASTER, faster.conclusion().verdict());
        assertEquals(8, faster.conclusion().point().executors());

        WhatIfResult best = whatIf(List.of(new WhatIfPoint(2, 8, 90_000, false), new WhatIfPoint(4, 16, 30_000, true),
                new WhatIfPoint(8, 32, 29_000, false)));
        assertEquals(WhatIfCost.Verdict.AS_RUN, WhatIfCost.of(best, 4, Units.GiB, Prices.NONE).conclusion().verdict());
        assertNull(WhatIfCost.of(whatIf(List.of()), 4, Units.GiB, Prices.NONE).conclusion().point());
    }

    private static WhatIfResult whatIf(List<WhatIfPoint> curve) {
        return new WhatIfResult("app", TaskOrder.LONGEST_FIRST, false, 4, 4, 16, 30_000, 0, 0, 0, 0, 0, 30_000, 0, 0,
                curve, 1, 1, 0, List.of());
    }

    private static SparkSettings settings(String version, Map<String, String> conf) {
        return new SparkSettings(new AppConfig(conf, Map.of(), Map.of(), Map.of()), version);
    }
}
