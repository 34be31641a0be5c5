package io.sparkscope.core.analysis.whatif;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.sparkscope.core.testing.SnapshotBuilder.dagApp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Executor what-if on hand-built runs with numbers worked out by hand, and on real logs. */
class WhatIfTest {
    private static final WhatIfOptions HALF_ONE_TWO = new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{0.5, 1, 2});

    @Test
    void singleStageIsPackedLongestFirstAndDriverTimeIsKept() {
        // 2 executors × 2 cores. Tasks ran between 1 s and 5 s of a 10 s run: 6 s with no stage running.
        AppSnapshot run = dagApp("single").durationMs(10_000).executors(2, 2).job(0, 500, 5_500, 0)
                .stage(0, 0).window(1_000, 5_000).tasks(4_000, 3_000, 3_000, 2_000, 2_000, 2_000).done().build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, HALF_ONE_TWO);

        assertEquals(6_000, r.driverTimeMs());
        assertEquals(16_000, r.taskTimeMs());
        assertEquals(2, r.actualExecutors());
        assertEquals(4, r.actualSlots());
        // 4 slots: 4,3,3,2 at 0; a 2 s task at 2 s (→ 4 s) and one at 3 s (→ 5 s): 5 s of tasks.
        assertEquals(11_000, r.estimatedActualMs());
        assertEquals(1_000, r.errorMs());
        assertEquals(0.1, r.relativeError(), 1e-12);
        // 2 slots: {4,2,2} and {3,3,2} → 8 s; 8 slots: the longest task, 4 s.
        assertEquals(List.of(new WhatIfPoint(1, 2, 14_000, false), new WhatIfPoint(2, 4, 11_000, true),
                new WhatIfPoint(4, 8, 10_000, false)), r.curve());
        assertEquals(10_000, r.criticalPathMs());
        assertEquals(10_000, r.idealMs());
        assertEquals(0, r.reconstructedTasks());
        assertTrue(r.caveats().isEmpty(), r.caveats().toString());
    }

    @Test
    void chainedStagesRunOneAfterAnother() {
        AppSnapshot run = dagApp("chain").durationMs(8_000).executors(1, 4).job(0, 0, 7_000, 0, 1, 2)
                .stage(0, 0).window(1_000, 2_000).tasks(1_000, 1_000, 1_000, 1_000).done()
                .stage(1, 0).parents(0).window(2_500, 4_500).tasks(2_000, 2_000).done()
                .stage(2, 0).parents(1).window(5_000, 6_000).tasks(500, 500, 500, 500, 500, 500, 500, 500).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{2}));
        assertEquals(4_000, r.driverTimeMs());
        assertEquals(8_000, r.estimatedActualMs()); // 1 + 2 + 1 s on 4 slots
        assertEquals(0, r.errorMs());
        assertEquals(7_500, r.estimateFor(2)); // 1 + 2 + 0.5 s on 8 slots
        assertEquals(4_000 + 3_500, r.criticalPathMs());
        assertEquals(4_000 + 3_000, r.idealMs()); // 12 s of tasks on 4 slots
    }

    @Test
    void parallelStagesShareTheSlotsAndTheirChildWaitsForBoth() {
        // Stages 0 and 1 have no parents and run side by side; stage 2 needs both.
        AppSnapshot run = dagApp("parallel").durationMs(6_000).executors(2, 2).job(0, 0, 5_500, 0, 1, 2)
                .stage(0, 0).window(0, 3_000).tasks(3_000, 3_000).done()
                .stage(1, 0).window(0, 2_000).tasks(1_000, 1_000, 1_000, 1_000).done()
                .stage(2, 0).parents(0, 1).window(3_100, 5_100).tasks(2_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, HALF_ONE_TWO);
        assertEquals(1_000, r.driverTimeMs());
        // 4 slots: stage 0 on two, stage 1 twice on the other two (done at 2 s); stage 2 from 3 s to 5 s.
        assertEquals(6_000, r.estimatedActualMs());
        // 2 slots: stage 0 (FIFO first) 0–3 s, stage 1 3–5 s, stage 2 5–7 s.
        assertEquals(8_000, r.estimateFor(1));
        // 8 slots: everything at once; stage 2 still waits for stage 0's 3 s.
        assertEquals(6_000, r.estimateFor(4));
        assertEquals(1_000 + 5_000, r.criticalPathMs());
    }

    @Test
    void driverOnlyGapsBetweenJobsDoNotScale() {
        AppSnapshot run = dagApp("gaps").durationMs(20_000).executors(2, 1)
                .job(0, 1_500, 4_500, 0).job(1, 9_000, 13_500, 1)
                .stage(0, 0).window(2_000, 4_000).tasks(2_000, 2_000).done()
                .stage(1, 1).window(10_000, 13_000).tasks(3_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{0.5, 2, 4}));
        assertEquals(15_000, r.driverTimeMs());
        assertEquals(2, r.phases());
        assertEquals(20_000, r.estimatedActualMs());
        // Only the first job's stage gains from more slots; the single 3 s task and the 15 s gaps stay.
        assertEquals(20_000, r.estimateFor(4));
        assertEquals(20_000, r.estimateFor(8));
        // One slot: the first stage's two tasks run one after the other; the 15 s of driver time stay.
        assertEquals(22_000, r.estimateFor(1));
    }

    @Test
    void oneSlotSerializesEverything() {
        AppSnapshot run = dagApp("one slot").durationMs(10_000).executors(1, 1).job(0, 0, 10_000, 0, 1)
                .stage(0, 0).window(0, 4_000).tasks(2_000, 2_000).done()
                .stage(1, 0).window(4_000, 10_000).tasks(3_000, 3_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{2}));
        assertEquals(0, r.driverTimeMs());
        assertEquals(10_000, r.estimatedActualMs());
        // Two slots, no dependency between the stages: {3,2} and {3,2} → 5 s.
        assertEquals(5_000, r.estimateFor(2));
    }

    @Test
    void concurrentJobsAreSimulatedTogether() {
        AppSnapshot run = dagApp("concurrent").durationMs(5_000).executors(1, 2)
                .job(0, 0, 4_000, 0).job(1, 100, 2_200, 1)
                .stage(0, 0).window(0, 4_000).tasks(4_000).done()
                .stage(1, 1).window(100, 2_100).tasks(1_000, 1_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{1}));
        assertEquals(1, r.phases());
        assertTrue(r.caveats().contains(WhatIfCaveat.CONCURRENT_JOBS));
        assertEquals(1_000, r.driverTimeMs());
        assertEquals(5_000, r.estimatedActualMs()); // 4 s on one slot, 1 + 1 s on the other
    }

    @Test
    void skippedStagesAreIgnoredAndTheirChildrenDoNotWait() {
        AppSnapshot run = dagApp("skipped").durationMs(3_000).executors(1, 2).job(0, 0, 3_000, 0, 1)
                .stage(0, 0).skipped().done()
                .stage(1, 0).parents(0).window(0, 3_000).tasks(3_000, 1_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{1}));
        assertEquals(1, r.stagesSimulated());
        assertEquals(3_000, r.estimatedActualMs());
    }

    @Test
    void aRetriedStageWaitsForItsFailedAttempt() {
        AppSnapshot run = dagApp("retry").durationMs(5_000).executors(1, 4).job(0, 0, 5_000, 0)
                .stage(0, 0).window(0, 2_000).tasks(2_000).done()
                .stage(0, 0).attempt(1).window(2_000, 5_000).tasks(3_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{1}));
        assertEquals(5_000, r.estimatedActualMs());
        assertEquals(5_000, r.criticalPathMs());
    }

    @Test
    void localModeScalesTheDriversCores() {
        AppSnapshot run = dagApp("local").durationMs(4_000).local(4).job(0, 0, 4_000, 0)
                .stage(0, 0).window(0, 4_000).tasks(2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000).done()
                .build();
        WhatIfResult r = ExecutorWhatIf.analyze(run);
        assertTrue(r.local());
        assertEquals(4, r.actualExecutors());
        assertEquals(1, r.coresPerExecutor());
        assertEquals(List.of(1, 2, 3, 4, 6, 8, 12, 16), r.curve().stream().map(WhatIfPoint::executors).toList());
        assertEquals(16_000, r.estimateFor(1));
        assertEquals(4_000, r.estimatedActualMs());
        assertEquals(2_000, r.estimateFor(8));
        assertEquals(2_000, r.estimateFor(16));
    }

    @Test
    void launchOrderKeepsALateStragglerLate() {
        // Two slots; the 4 s task was launched last, after three 1 s tasks.
        AppSnapshot run = dagApp("straggler").durationMs(5_000).executors(1, 2).job(0, 0, 5_000, 0)
                .stage(0, 0).window(0, 5_000).tasks(1_000, 1_000, 1_000, 4_000).launches(0, 0, 1_000, 1_000).done()
                .build();
        WhatIfOptions one = new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{1});
        assertEquals(4_000, ExecutorWhatIf.analyze(run, one).estimatedActualMs());
        assertEquals(5_000, ExecutorWhatIf.analyze(run, one.withOrder(TaskOrder.LAUNCH_ORDER)).estimatedActualMs());
    }

    @Test
    void unkeptTasksAreRebuiltFromTheQuantilesAtTheirRanks() {
        // 10 tasks of 100 … 1000 ms, only the slowest 2 kept: the knots of Spark's quantiles lie on the line, so the
        // interpolation gives the other 8 back exactly.
        AppSnapshot run = dagApp("rebuilt").durationMs(10_000).executors(1, 1).job(0, 0, 10_000, 0)
                .stage(0, 0).window(0, 5_500).tasks(100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000).keep(2).done()
                .build();
        StageTasks tasks = StageTasks.of(run.stages().get(0), TaskOrder.LONGEST_FIRST);
        assertArrayEquals(new long[]{1_000, 900, 800, 700, 600, 500, 400, 300, 200, 100}, tasks.durations());
        assertEquals(8, tasks.reconstructed());
        WhatIfResult r = ExecutorWhatIf.analyze(run);
        assertTrue(r.caveats().contains(WhatIfCaveat.TASKS_RECONSTRUCTED));
        assertEquals(5_500, r.taskTimeMs());
    }

    @Test
    void aSampledStageRebuildsFromItsSlowestHalfOnly() {
        // 10 tasks of 100 … 1000 ms, cap 4: kept are the 2 slowest and a uniform sample of 2 others. Were the sampled
        // (fast) ones taken as "slowest kept", every rebuilt task would be capped at the fastest of them.
        var rec = new io.sparkscope.core.recorder.Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(4));
        rec.onEvent(new io.sparkscope.core.event.SparkEvent.StageSubmitted(new io.sparkscope.core.event.StageInfo(0, 0,
                "s", 10, List.of(), "", 1000, -1, null, List.of())));
        for (int i = 0; i < 10; i++) {
            long d = 100L * (i + 1);
            rec.onEvent(new io.sparkscope.core.event.SparkEvent.TaskEnd(0, 0, "ResultTask",
                    io.sparkscope.core.event.TaskEndReason.SUCCESS, new io.sparkscope.core.event.TaskInfo(i, i, 0, i,
                    1000, "1", "h", "ANY", false, 0, 1000 + d, false, false),
                    io.sparkscope.core.event.TaskMetrics.builder().build()));
        }
        var stage = rec.snapshot().stages().get(0);
        assertEquals(io.sparkscope.core.model.StageSummary.TaskDetail.SAMPLED, stage.taskDetail());
        assertEquals(4, stage.keptTasks().size());
        StageTasks tasks = StageTasks.of(stage, TaskOrder.LONGEST_FIRST);
        assertEquals(8, tasks.reconstructed());
        assertArrayEquals(new long[]{1_000, 900, 800, 700, 600, 500, 400, 300, 200, 100}, tasks.durations());
    }

    @Test
    void rebuiltTasksNeverExceedTheFastestKeptOne() {
        double[] qs = {0.0, 0.5, 1.0};
        double[][] values = new double[DistributionMetric.count()][qs.length];
        values[DistributionMetric.DURATION.ordinal()] = new double[]{10, 50, 5_000};
        TaskDistributions d = new TaskDistributions(5, qs, values);
        // 5 tasks, knots at ranks 0, 2 and 4; the fastest kept task took 60 ms. Ranks 0–3 interpolate to 10, 30, 50
        // and 2525, the last capped at 60: an unkept task cannot be slower than a kept one.
        long[] rebuilt = StageTasks.rebuild(d, 1, 4, 60);
        assertArrayEquals(new long[]{10, 30, 50, 60}, rebuilt, Arrays.toString(rebuilt));
    }

    @Test
    void shippedExampleLogIsEstimatedWithinFivePercent() {
        Path shipped = ExampleEventLogs.DIR;
        WhatIfResult r = ExecutorWhatIf.analyze(read(shipped).get(0));
        assertTrue(Math.abs(r.relativeError()) <= 0.05, "error " + r.relativeError());
        assertTrue(r.local());
        assertTrue(r.criticalPathMs() <= r.estimatedActualMs());
        assertFalse(r.curve().isEmpty());
        // More cores never make the estimate worse; fewer never make it better.
        for (int i = 1; i < r.curve().size(); i++) {
            assertTrue(r.curve().get(i).estimatedWallMs() <= r.curve().get(i - 1).estimatedWallMs(), r.curve().toString());
        }
    }

    @Test
    void sharedLogsAreEstimatedWithinTenPercent() {
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(logs != null, "shared event logs absent");
        for (String name : List.of("other/spark-rapids-tools/eventlog_4nodes_8cores_dynamic_alloc",
                "other/spark-rapids-tools/rapids_join_eventlog", "other/sparklint/spark_event_log_example")) {
            Path p = logs.resolve(name);
            Assumptions.assumeTrue(Files.exists(p), p + " absent");
            for (TaskOrder order : TaskOrder.values()) {
                WhatIfResult r = ExecutorWhatIf.analyze(read(p).get(0), WhatIfOptions.DEFAULTS.withOrder(order));
                assertTrue(Math.abs(r.relativeError()) <= 0.10, name + " " + order + ": error " + r.relativeError());
            }
        }
    }

    private static List<AppSnapshot> read(Path p) {
        List<EventLogSource> sources;
        try {
            sources = EventLogReader.discover(p);
        } catch (io.sparkscope.core.eventlog.EventLogException e) {
            throw new AssertionError(e);
        }
        return sources.stream()
                .map((EventLogSource s) -> EventLogAnalysis.analyze(s, RecorderOptions.DEFAULTS, x -> { }).snapshot())
                .toList();
    }
    @Test
    void aClaimOfAGigaCoreExecutorNeitherOverflowsNorCostsMoreThanTheTasks() {
        // 1 073 741 824 cores per executor: executors × cores no longer fits an int, and one slot per claimed core
        // would never end. The simulation uses at most one slot per task, which gives the same estimate.
        AppSnapshot run = dagApp("giga").durationMs(10_000).executors(2, 1 << 30).job(0, 500, 5_500, 0)
                .stage(0, 0).window(1_000, 5_000).tasks(4_000, 3_000, 3_000, 2_000).done().build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, HALF_ONE_TWO);
        assertEquals(2L << 30, r.actualSlots());
        assertEquals(6_000 + 4_000, r.estimatedActualMs(), "every task on its own slot: the longest decides");
        assertTrue(r.caveats().contains(WhatIfCaveat.SLOTS_CAPPED), r.caveats().toString());
        for (WhatIfPoint p : r.curve()) {
            assertTrue(p.slots() > 0, p.toString());
            assertEquals(10_000, p.estimatedWallMs(), p.toString());
        }
        assertEquals(4L << 30, r.curve().get(r.curve().size() - 1).slots());
        assertTrue(r.idealMs() >= r.driverTimeMs());
    }

    @Test
    void aLocalDriverClaimingTwoHundredMillionCoresIsSimulatedOnItsTasks() {
        AppSnapshot run = dagApp("local-huge").durationMs(4_000).local(200_000_000).job(0, 0, 4_000, 0)
                .stage(0, 0).window(0, 2_000).tasks(2_000, 1_000, 1_000).done().build();
        WhatIfResult r = ExecutorWhatIf.analyze(run);
        assertEquals(200_000_000, r.actualExecutors());
        assertEquals(2_000 + 2_000, r.estimatedActualMs());
        assertTrue(r.caveats().contains(WhatIfCaveat.SLOTS_CAPPED));
    }

    @Test
    void slotsAreNotCappedWhileTheyCanMatter() {
        AppSnapshot run = dagApp("small").durationMs(10_000).executors(2, 2).job(0, 500, 5_500, 0)
                .stage(0, 0).window(1_000, 5_000).tasks(4_000, 3_000, 3_000, 2_000, 2_000, 2_000).done().build();
        WhatIfResult r = ExecutorWhatIf.analyze(run, new WhatIfOptions(TaskOrder.LONGEST_FIRST, new double[]{1}));
        assertFalse(r.caveats().contains(WhatIfCaveat.SLOTS_CAPPED), r.caveats().toString());
    }
}
