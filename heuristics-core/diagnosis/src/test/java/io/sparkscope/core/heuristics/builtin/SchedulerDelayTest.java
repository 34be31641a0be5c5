package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.heuristics.Severity;
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

class SchedulerDelayTest {
    private final SchedulerDelay heuristic = new SchedulerDelay();

    private static List<Finding> delays(int tasks, long runMs, long delayMs, long resultMs) {
        return run(new SchedulerDelay(), app().stage(6).durationMs(10_000)
                .tasks(tasks, i -> task().runTime(runMs).schedulerDelay(delayMs).gettingResult(resultMs)).done().build());
    }

    @Test
    void quarterOfTaskTimeOnTheDriverIsLow() {
        Finding f = single(Severity.LOW, delays(30, 900, 300, 0));
        assertEquals(0.25, f.details().get("driverShare"));
        assertTrue(f.message().contains("stamped by the driver"), f.message());
    }

    @Test
    void mostlyDriverTimeIsHighAndNamesResultFetching() {
        single(Severity.HIGH, delays(30, 400, 600, 0));
        Finding f = single(Severity.HIGH, delays(30, 400, 0, 600));
        assertTrue(f.message().contains("gettingResultTime"), f.message());
        assertTrue(f.recommendation().contains("collect()"), f.recommendation());
    }

    @Test
    void stagesOfOneDriverLoopMakeOneFindingWithTheirSummedSaving() {
        // A loop submitting three jobs of 300 tiny tasks from the same line: one remedy, so one finding, not three
        // "Fix this first" items saying the same.
        var b = app().sqlJob(0, 0);
        for (int k = 0; k < 3; k++) {
            b.stage(k * 2).startAt(k * 10_000L).slots(2)
                    .tasks(300, i -> task().runTime(5).schedulerDelay(20)).done();
        }
        AppSnapshot built = b.build();
        List<StageSummary> renamed = built.stages().stream()
                .map(st -> st.toBuilder().name("count at Loop.java:12").build()).toList();
        List<Finding> found = run(heuristic, SnapshotBuilder.copy(built).stages(renamed).build());
        Finding f = single(Severity.HIGH, found);
        assertEquals("SchedulerDelay:0.0", f.id());
        assertEquals(List.of("0.0", "2.0", "4.0"), f.stageIds());
        assertEquals(3 * 300 * 20L, f.impact().taskMs(), f.impact().toString());
        assertTrue(f.impact().basis().contains("over 3 stages of the same code"), f.impact().basis());
        assertTrue(f.message().contains("2 more stages run by the same code"), f.message());
    }

    /** {@code stages} stages of 300 tasks of 8 ms (3 ms of it scheduler delay) on 2 slots, 1.2 s each, from one line. */
    private static List<Finding> loopOf(int stages) {
        var b = app().sqlJob(0, 0);
        for (int k = 0; k < stages; k++) {
            b.stage(k * 2).startAt(k * 2_000L).slots(2)
                    .tasks(300, i -> task().runTime(5).schedulerDelay(3)).done();
        }
        AppSnapshot built = b.build();
        List<StageSummary> renamed = built.stages().stream()
                .map(st -> st.toBuilder().name("count at Loop.java:12").build()).toList();
        return run(new SchedulerDelay(), SnapshotBuilder.copy(built).stages(renamed).build());
    }

    @Test
    void aDriverLoopOfShortStagesIsJudgedOnTheirTimeTogether() {
        // each stage is under the 2 s a stage needs, but twenty of them are 24 s of the run
        Finding f = single(Severity.LOW, loopOf(20));
        assertEquals(20, f.stageIds().size());
        assertEquals(20 * 300 * 3L, f.impact().taskMs(), f.impact().toString());
        silent(loopOf(1));
    }

    @Test
    void fewerShufflePartitionsAreAdvisedNamingTheValueInForce() {
        // 2 000 reduce tasks of 30 ms, 20 ms of it scheduler delay: about 30 partitions would make 2 s tasks
        Finding f = single(Severity.HIGH, run(heuristic, app().conf("spark.sql.shuffle.partitions", "2000")
                .conf("spark.sql.adaptive.enabled", "false").sqlJob(0, 0).stage(1).slots(2)
                .tasks(2000, i -> task().runTime(10).schedulerDelay(20).shuffleRead(1024)).done().build()));
        SettingAdvice a = f.adviceFor("spark.sql.shuffle.partitions");
        assertEquals("2000", a.currentValue());
        assertEquals("30", a.recommendedValue());
        assertTrue(f.recommendation().contains("spark.sql.shuffle.partitions=30 (now 2000)"), f.recommendation());
    }

    @Test
    void fewTasksOrSmallDelaysAreSilent() {
        silent(delays(10, 400, 600, 0));
        silent(delays(30, 1000, 50, 0));
    }
}
