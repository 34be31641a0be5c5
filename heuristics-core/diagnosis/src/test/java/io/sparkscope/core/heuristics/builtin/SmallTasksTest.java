package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
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

/** SmallTasks has no HIGH level. */
class SmallTasksTest {
    private final SmallTasks heuristic = new SmallTasks();

    @Test
    void manyTinyTasksAreLow() {
        // a SQL stage reading a shuffle: its partitions are spark.sql.shuffle.partitions
        Finding f = single(Severity.LOW, run(heuristic, app().sqlJob(0, 0)
                .stage(2).tasks(6000, i -> task().runTime(100).shuffleRead(1024)).done().build()));
        assertEquals(300L, f.details().get("suggestedPartitions"));
        assertTrue(f.recommendation().contains("spark.sql.shuffle.partitions=10 (now 200, the default)"),
                f.recommendation());
    }

    @Test
    void fewOrLongerTasksAreSilent() {
        silent(run(heuristic, app().stage(2).tasks(4000, i -> task().runTime(100)).done().build()));
        silent(run(heuristic, app().stage(2).tasks(6000, i -> task().runTime(900)).done().build()));
    }

    @Test
    void theWallTimeSavedIsOnlyTheStretchTheStageRanAlone() {
        // 6000 tasks of 100 ms plus 50 ms of overhead each on 4 cores: a 225 s stage whose 600 s of run time is
        // 2.67 tasks side by side
        var alone = app().local(4).sqlJob(0, 0).stage(2).slots(4)
                .tasks(6000, i -> task().runTime(100).schedulerDelay(50).shuffleRead(1024)).done();
        Finding f = single(Severity.LOW, run(heuristic, alone.build()));
        long saved = f.impact().taskMs();
        assertEquals(saved * 225.0 / 600, f.impact().wallMs(), 1.0, f.impact().toString());
        // another job's stage ran through the second half of it: only the first half's saving shortens the run
        var beside = alone.stage(3).jobs(1).startAt(112_500).durationMs(200_000).task(task().runTime(200_000))
                .done();
        Finding half = run(heuristic, beside.build()).stream().filter(x -> x.stageIds().equals(List.of("2.0"))).findFirst()
                .orElseThrow();
        assertEquals(saved, half.impact().taskMs());
        assertEquals(saved * 225.0 / 600 / 2, half.impact().wallMs(), 1.0, half.impact().toString());
    }
}
