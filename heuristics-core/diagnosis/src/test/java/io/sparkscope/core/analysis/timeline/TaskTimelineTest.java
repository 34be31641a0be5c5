package io.sparkscope.core.analysis.timeline;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.core.model.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaskTimelineTest {

    static TaskRecord task(long id, String executor, long launch, long finish, long gettingResultAt, long deser,
                           long run, long ser) {
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, deser)
                .set(TaskMetric.EXECUTOR_RUN_TIME, run).set(TaskMetric.RESULT_SERIALIZATION_TIME, ser).build();
        return TaskRecord.builder().taskId(id).index((int) id).partitionId((int) id).executorId(executor)
                .host("host-" + executor).locality("PROCESS_LOCAL").launchTime(launch).finishTime(finish)
                .gettingResultTime(gettingResultAt).status("SUCCESS").endReason("Success").metrics(m).build();
    }

    static ExecutorSlots slots(String id, int slots) {
        return new ExecutorSlots(id, "host-" + id, slots, 1, -1);
    }

    @Test
    void phasesArePlacedExecutorSideAtTheEndSchedulerDelayFirst() {
        // 100 ms on the driver's clock: deserialize 10, run 50, serialize 5, getting result 20 (1080 → 1100) → the
        // scheduler delay is the remaining 15 ms, at the start.
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(task(1, "1", 1000, 1100, 1080, 10, 50, 5)), 1,
                TaskDetail.ALL, List.of(slots("1", 1)));
        TimelineBar b = t.bars().get(0);
        assertEquals(15, b.schedulerDelayMs());
        assertEquals(20, b.gettingResultMs());
        long[] starts = new long[TaskPhase.values().length];
        long[] ends = new long[TaskPhase.values().length];
        for (TaskPhase p : TaskPhase.values()) {
            starts[p.ordinal()] = b.phaseStart(p);
            ends[p.ordinal()] = b.phaseEnd(p);
            assertEquals(b.phaseMs(p), ends[p.ordinal()] - starts[p.ordinal()], p.name());
        }
        assertArrayEquals(new long[]{1000, 1015, 1025, 1075, 1080}, starts);
        assertEquals(1100, ends[TaskPhase.GETTING_RESULT.ordinal()]);
        assertEquals(1080, b.executorEnd());
        assertEquals(1015, b.executorStart());
        assertArrayEquals(new long[]{15, 10, 50, 5, 20}, t.phaseTotals());
    }

    @Test
    void oneCoreTwoTasksOverlappingOnTheDriverClockKeepOneLaneAndAreCounted() {
        // One executor, one core. Task 2 is launched (offered) at 1090, before the driver marked task 1 finished at
        // 1100: the executor had one slot, so there is one lane and task 2 is drawn over it, counted as crowded.
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(
                task(1, "1", 1000, 1100, 0, 5, 80, 0),    // executor side 1015–1100 (no getting result)
                task(2, "1", 1090, 1200, 0, 5, 100, 0)), 2, TaskDetail.ALL, List.of(slots("1", 1)));
        assertEquals(1, t.lanes().size(), "one slot, one lane, whatever the driver's clock says");
        ExecutorLanes e = t.executors().get(0);
        assertTrue(e.overflow());
        assertEquals(2, e.maxConcurrent());
        assertEquals(1, e.slots());
        assertEquals(1, e.lanes());
        assertEquals(1, e.crowded(), "task 2 started while the only slot was busy");
        assertEquals(List.of(0, 0), t.bars().stream().map(TimelineBar::lane).toList());
        // task 1's executor side: 1015–1100; task 2's: 1095–1200 → they do overlap 5 ms on the executor side too,
        // so the count says 2 here; with a getting-result tail on task 1 they would not:
        TaskTimeline t2 = TaskTimeline.build(0, 0, List.of(
                task(1, "1", 1000, 1100, 1090, 5, 80, 0),  // executor side 1005–1090, getting result 1090–1100
                task(2, "1", 1090, 1200, 0, 5, 100, 0)), 2, TaskDetail.ALL, List.of(slots("1", 1)));
        assertTrue(t2.overflow());
        assertEquals(2, t2.executors().get(0).maxConcurrent());
        assertEquals(1, t2.executors().get(0).executorSideMaxConcurrent(), "the executor never ran two at once");
        assertEquals(0, t2.bars().get(1).lane(), "task 2 over the one slot");
    }

    @Test
    void aLocalTwoStageWhoseDriverClockOverlapsFortyTasksStillHasTwoLanes() {
        // local[2] with 43 tasks all launched before any finished on the driver's clock (a launch-time rounding or
        // a clock step): two lanes, the crowded tasks on the slot that frees first, not 41 invented lanes.
        List<TaskRecord> tasks = new java.util.ArrayList<>();
        for (int i = 0; i < 43; i++) {
            tasks.add(task(i, "driver", 1000 + i, 2000 + 10 * i, 0, 1, 50, 0));
        }
        TaskTimeline t = TaskTimeline.build(0, 0, tasks, 43, TaskDetail.ALL, List.of(slots("driver", 2)));
        assertEquals(2, t.lanes().size());
        ExecutorLanes e = t.executors().get(0);
        assertEquals(43, e.maxConcurrent());
        assertEquals(41, e.crowded());
        assertTrue(t.bars().stream().allMatch(b -> b.lane() < 2));
        // the slot that frees first: task 0 (lane 0) ends at 2000 before task 1 (lane 1) at 2010, so task 2 goes to
        // lane 0, which then ends at 2020 after lane 1's 2010, so task 3 goes to lane 1
        assertEquals(List.of(0, 1, 0, 1), t.bars().stream().limit(4).map(TimelineBar::lane).toList());
    }

    @Test
    void tasksArePackedIntoTheLowestFreeLaneAndTouchingIsNotOverlap() {
        TaskTimeline t = TaskTimeline.build(3, 1, List.of(
                task(1, "1", 1000, 1100, 0, 1, 90, 0),
                task(2, "1", 1000, 1050, 0, 1, 40, 0),
                task(3, "1", 1050, 1100, 0, 1, 40, 0),   // starts when task 2 ends: its lane again
                task(4, "1", 1100, 1200, 0, 1, 90, 0)),  // both lanes free at 1100: the lowest
                4, TaskDetail.ALL, List.of(slots("1", 2)));
        // Equal launches: the earlier finish goes first, so task 2 takes lane 0 and task 1 lane 1.
        assertEquals(List.of(1, 0, 0, 0), t.bars().stream()
                .sorted(java.util.Comparator.comparingLong(TimelineBar::taskId)).map(TimelineBar::lane).toList());
        assertEquals(2, t.lanes().size());
        assertFalse(t.overflow());
        assertEquals(1000, t.startTime());
        assertEquals(1200, t.endTime());
    }

    @Test
    void everyExecutorGetsOneLanePerSlotIdleOnesIncludedDeadOnesNot() {
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(task(1, "2", 1000, 1100, 0, 1, 90, 0),
                        task(2, "10", 1000, 1100, 0, 1, 90, 0)), 2, TaskDetail.ALL,
                List.of(slots("driver", 0), slots("10", 4), slots("2", 4), slots("3", 4),
                        new ExecutorSlots("4", "h", 4, 1, 500)));   // removed before the stage
        assertEquals(List.of("2", "3", "10"), t.executors().stream().map(ExecutorLanes::executorId).toList(),
                "numeric order; idle 3 included; the removed one and the core-less driver not");
        assertEquals(12, t.lanes().size());
        assertEquals(8, t.executors().get(2).firstLane());
        assertEquals(8, t.bars().stream().filter(b -> b.executorId().equals("10")).findFirst().orElseThrow().lane());
    }

    @Test
    void unknownCoresMarkNothingAndMetriclessTasksClaimNoPhases() {
        TaskRecord noMetrics = TaskRecord.builder().taskId(9).index(9).partitionId(9).executorId("7").host("h")
                .locality("ANY").launchTime(1000).finishTime(1300).status("FAILED").endReason("ExecutorLostFailure")
                .errorMessage("lost").build();
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(noMetrics, task(1, "7", 1000, 1100, 0, 1, 1, 1)), 5,
                TaskDetail.ALL, List.of());
        assertEquals(2, t.lanes().size());
        assertFalse(t.overflow(), "without a core count nothing is called an artifact");
        TimelineBar b = t.bars().stream().filter(x -> x.taskId() == 9).findFirst().orElseThrow();
        assertFalse(b.metricsKnown());
        assertEquals(0, b.schedulerDelayMs());
        assertTrue(t.sampled(), "2 shown of 5 ended");
    }

    @Test
    void failedAndKilledAttemptsAreTold() {
        TaskRecord failed = TaskRecord.builder().taskId(3).index(1).partitionId(1).executorId("1").host("h")
                .locality("ANY").launchTime(1000).finishTime(1200).status("FAILED").endReason("ExceptionFailure")
                .errorMessage("java.lang.OutOfMemoryError")
                .metrics(TaskMetrics.builder() .set(TaskMetric.EXECUTOR_RUN_TIME, 150).build()).build();
        TaskRecord retry = task(4, "1", 1200, 1500, 0, 5, 250, 5);
        TaskRecord killed = TaskRecord.builder().taskId(5).index(2).partitionId(2).executorId("1").host("h")
                .locality("ANY").speculative(true).launchTime(1100).finishTime(1300).status("KILLED")
                .endReason("TaskKilled").errorMessage("another attempt succeeded").build();
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(failed, retry, killed), 3, TaskDetail.ALL,
                List.of(slots("1", 2)));
        assertEquals(1, t.failedBars());
        assertEquals(1, t.killedBars());
        TimelineBar f = t.bars().stream().filter(x -> x.taskId() == 3).findFirst().orElseThrow();
        assertTrue(f.failed());
        assertFalse(f.killed());
        assertEquals("ExceptionFailure", f.endReason());
        assertTrue(f.metricsKnown(), "a failed attempt's own phases are still drawn");
        assertFalse(t.bars().stream().filter(x -> x.taskId() == 4).findFirst().orElseThrow().failed());
    }

    @Test
    void slotsComeFromCoresConfigOrTheLocalMasterDividedByTaskCpus() {
        SparkSettings cluster = new SparkSettings(new AppConfig(Map.of("spark.master", "yarn",
                "spark.executor.cores", "4", "spark.task.cpus", "2"), Map.of(), Map.of(), Map.of()));
        assertEquals(2, ExecutorSlots.slots("1", 0, cluster), "spark.executor.cores / task.cpus");
        assertEquals(3, ExecutorSlots.slots("1", 6, cluster), "reported cores win");
        assertEquals(0, ExecutorSlots.slots("driver", 0, cluster), "a cluster driver runs no tasks");
        SparkSettings local = new SparkSettings(new AppConfig(Map.of("spark.master", "local[3]"), Map.of(), Map.of(),
                Map.of()));
        assertEquals(3, ExecutorSlots.slots("driver", 0, local));
        SparkSettings star = new SparkSettings(new AppConfig(Map.of("spark.master", "local[*]"), Map.of(), Map.of(),
                Map.of()));
        assertEquals(0, ExecutorSlots.slots("driver", 0, star), "unknown");
    }

    @Test
    void breakdownSplitsRunAndScalesOverlappingInsideParts() {
        TimeBreakdown b = TimeBreakdown.of(100L, 20L, 30, 1000, 10, 200, 100, 300_000_000L);
        assertEquals(200, b.gcMs());
        assertEquals(100, b.shuffleReadWaitMs());
        assertEquals(300, b.shuffleWriteMs());
        assertEquals(400, b.otherRunMs());
        assertFalse(b.insideRunScaled());
        assertEquals(1160, b.totalMs());
        assertEquals(120.0 / 1160, b.driverSideShare(), 1e-9);

        TimeBreakdown s = TimeBreakdown.of(null, null, 0, 100, 0, 100, 100, 0);
        assertTrue(s.insideRunScaled());
        assertEquals(100, s.gcMs() + s.shuffleReadWaitMs() + s.shuffleWriteMs() + s.otherRunMs());
        assertFalse(s.driverSideKnown());
        assertEquals(100, s.totalMs());
    }
    @Test
    void lanesFollowTheTasksNotTheCoresAnExecutorClaims() {
        // A driver reporting 200 000 000 cores used to get one lane per core: the server ran out of memory.
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(task(1, "driver", 1000, 1100, 0, 1, 90, 1),
                        task(2, "driver", 1000, 1100, 0, 1, 90, 1)), 2, TaskDetail.ALL,
                List.of(slots("driver", 200_000_000)));
        ExecutorLanes e = t.executors().get(0);
        assertEquals(2, e.maxConcurrent());
        assertEquals(2 + TaskTimeline.MAX_IDLE_LANES_PER_EXECUTOR, e.lanes());
        assertEquals(200_000_000 - e.lanes(), e.idleSlotsNotDrawn());
        assertEquals(e.lanes(), t.lanes().size());
        assertFalse(e.overflow());
    }

    @Test
    void idleLanesOfManyExecutorsShareOneBudget() {
        List<ExecutorSlots> many = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add(slots(String.valueOf(i), 1 << 30));
        }
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(task(1, "0", 1000, 1100, 0, 1, 90, 1)), 1,
                TaskDetail.ALL, many);
        assertEquals(1 + TaskTimeline.MAX_IDLE_LANES, t.lanes().size());
        assertEquals(10_000L * (1 << 30) - t.lanes().size(), t.idleSlotsNotDrawn());
        assertEquals(1, t.bars().size());
    }

    @Test
    void aTaskWithImpossibleTimesIsNotPlaced() {
        TaskTimeline t = TaskTimeline.build(0, 0, List.of(task(1, "1", 1000, 1100, 0, 1, 90, 1),
                task(2, "1", 0, 1_600_000_000_000L, 0, 1, 90, 1), task(3, "1", 2000, 1500, 0, 1, 90, 1)), 3,
                TaskDetail.ALL, List.of(slots("1", 2)));
        assertEquals(1, t.bars().size());
        assertEquals(1000, t.startTime());
        assertEquals(1100, t.endTime());
    }
}
