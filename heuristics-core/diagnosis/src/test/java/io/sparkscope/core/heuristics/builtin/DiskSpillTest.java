package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiskSpillTest {
    private final DiskSpill heuristic = new DiskSpill();

    private static List<Finding> spilling(long spillPerTask) {
        return run(new DiskSpill(), app().sqlJob(0, 0).stage(5)
                .tasks(10, i -> task().shuffleRead(100 * MiB).spill(i == 3 ? 2 * spillPerTask : spillPerTask,
                        spillPerTask / 4).executor(i == 3 ? "7" : "1"))
                .done().build());
    }

    @Test
    void spillingAFifthIsLow() {
        Finding f = single(Severity.LOW, spilling(20 * MiB));
        assertEquals("DiskSpill:5.0", f.id());
        assertEquals(220 * MiB, f.details().get("memoryBytesSpilled"));
        assertEquals(3L, f.details().get("largestSpillTaskId"));
        assertEquals(List.of("7"), f.executorIds());
        assertTrue(f.recommendation().contains("spark.sql.shuffle.partitions=400 (now 200, the default)"),
                f.recommendation());
    }

    @Test
    void spillingMostIsHighWhenItCostsSeconds() {
        // Every task spilled, so the cost is the disk spill written and read back: 10 × 20 MiB at the assumed
        // 100 MiB/s is 4 s of task time, 0.4 s of a one-second stage: not HIGH however large the spilled share.
        Finding small = single(Severity.LOW, spilling(80 * MiB));
        assertEquals(400, small.impact().wallMs(), small.impact().toString());
        // The same share in a stage of 20 s tasks on 2 cores that spilled 80 MiB each to disk: 16 s of task time,
        // 8 s of the stage's wall time.
        Finding big = single(Severity.HIGH, run(heuristic, app().sqlJob(0, 0).stage(5).slots(2)
                .tasks(10, i -> task().runTime(20_000).shuffleRead(100 * MiB).spill(80 * MiB, 80 * MiB))
                .done().build()));
        assertEquals(16_000, big.impact().taskMs(), big.impact().toString());
        assertEquals(8_000, big.impact().wallMs(), big.impact().toString());
        assertTrue(big.impact().basis().contains("assumed disk speed of 100 MiB/s"), big.impact().basis());
    }

    @Test
    void aSortThatSpilledInEveryTaskIsCostedAtTheApplicationsOwnDiskSpeed() {
        // A global sort: stage 1 shuffles 400 MiB in 8 s of shuffle-write time (50 MiB/s), stage 2 sorts it and
        // every task spills (none did not, so no task can serve as the no-spill baseline). 354 MiB reached disk:
        // written and read back at 50 MiB/s is about 14 s of task time.
        var app = app().durationMs(60_000).sqlJob(0, 0)
                .stage(1).tasks(4, i -> task().runTime(5_000).shuffleWrite(100 * MiB)
                        .metric(io.sparkscope.core.event.TaskMetric.SHUFFLE_WRITE_TIME, 2_000_000_000L)).done()
                .stage(2).startAt(6_000).slots(2)
                .tasks(4, i -> task().runTime(15_000).shuffleRead(100 * MiB).spill(400 * MiB, 354 * MiB / 4)).done()
                .build();
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertEquals("DiskSpill:2.0", f.id());
        assertEquals(14_160, f.impact().taskMs(), f.impact().toString());
        assertEquals(7_080, f.impact().wallMs(), f.impact().toString());
        assertTrue(f.impact().basis().contains("application's own shuffle-write speed (50.0 MiB/s)"),
                f.impact().basis());
    }

    @Test
    void withAqeCoalescingTheAdvisorySizeIsLoweredToo() {
        var app = app().conf("spark.sql.adaptive.enabled", "true").conf("spark.sql.shuffle.partitions", "4")
                .sqlJob(0, 0).stage(5).tasks(4, i -> task().shuffleRead(100 * MiB).spill(80 * MiB, 20 * MiB))
                .done().build();
        Finding f = run(heuristic, app).get(0);
        assertEquals("32m", f.adviceFor("spark.sql.adaptive.advisoryPartitionSizeInBytes").recommendedValue());
        assertEquals("64m", f.adviceFor("spark.sql.adaptive.advisoryPartitionSizeInBytes").currentValue());
        assertEquals("8", f.adviceFor("spark.sql.shuffle.partitions").recommendedValue());
        assertTrue(f.recommendation().contains("spark.sql.adaptive.advisoryPartitionSizeInBytes=32m (now 64m"),
                f.recommendation());
    }

    @Test
    void littleOrNoSpillIsSilent() {
        silent(spilling(4 * MiB));
        silent(spilling(0));
    }

    @Test
    void inLocalModeMoreHeapIsAdvisedOnTopOfTheMeasuredOne() {
        // the corpus's spilling apps: one JVM of about 6 GiB runs them, spark.driver.memory unset
        var app = TaskHeapTest.withHeap(app().local(2).sqlJob(0, 0).stage(5)
                .tasks(10, i -> task().shuffleRead(100 * MiB).spill(20 * MiB, 5 * MiB)).done(), 6 * GiB, 0.6);
        Finding f = single(Severity.LOW, run(heuristic, app));
        assertEquals("9g", f.adviceFor("spark.driver.memory").recommendedValue());
        assertEquals(io.sparkscope.core.heuristics.SettingAdvice.ValueSource.MEASURED,
                f.adviceFor("spark.driver.memory").currentSource());
    }

    @Test
    void whenTheApplicationSetTheMemoryFractionBelowTheDefaultItIsRestoredAndNoMoreHeapAsked() {
        // the corpus's spill-aggregate: 6 GiB of heap, of which the application lets execution use 0.84 %
        var app = TaskHeapTest.withHeap(app().local(2).conf("spark.memory.fraction", "0.0084").sqlJob(0, 0).stage(5)
                .tasks(10, i -> task().shuffleRead(100 * MiB).spill(20 * MiB, 5 * MiB)).done(), 6 * GiB, 0.0084);
        Finding f = single(Severity.LOW, run(heuristic, app));
        assertEquals("spark.memory.fraction=0.6 (now 0.0084)", f.adviceFor("spark.memory.fraction").phrase());
        assertEquals(null, f.adviceFor("spark.driver.memory"), f.advice().toString());
        assertTrue(f.recommendation().contains("spark.memory.fraction=0.6 (now 0.0084)"), f.recommendation());
        // the impact is what the spill cost, whatever the advice
        Finding unset = single(Severity.LOW, run(heuristic, TaskHeapTest.withHeap(app().local(2).sqlJob(0, 0).stage(5)
                .tasks(10, i -> task().shuffleRead(100 * MiB).spill(20 * MiB, 5 * MiB)).done(), 6 * GiB, 0.6)));
        assertEquals(unset.impact(), f.impact());
        // a fraction at or above the default is not the cause: the heap advice stands
        Finding atDefault = single(Severity.LOW, run(heuristic, TaskHeapTest.withHeap(app().local(2)
                .conf("spark.memory.fraction", "0.6").sqlJob(0, 0).stage(5)
                .tasks(10, i -> task().shuffleRead(100 * MiB).spill(20 * MiB, 5 * MiB)).done(), 6 * GiB, 0.6)));
        assertEquals(null, atDefault.adviceFor("spark.memory.fraction"));
        assertEquals("9g", atDefault.adviceFor("spark.driver.memory").recommendedValue());
    }
}
