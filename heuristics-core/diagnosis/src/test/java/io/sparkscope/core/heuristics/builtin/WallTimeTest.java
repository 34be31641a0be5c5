package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a saving of task time becomes a saving of wall time, the one conversion every finding's promise uses. */
class WallTimeTest {

    private static StageSummary stage(AppSnapshot app, int id) {
        return app.stages().stream().filter(s -> s.stageId() == id).findFirst().orElseThrow();
    }

    @Test
    void aStageRunningAloneSavesItsTaskTimeOverItsParallelismAtMostItsSpan() {
        // 8 tasks of 5 s on 4 cores: a 10 s stage, 4 tasks side by side
        AppSnapshot app = app().local(4).stage(0).slots(4).tasks(8, i -> task().runTime(5_000)).done().build();
        StageSummary s = stage(app, 0);
        assertEquals(10_000, WallTime.aloneMs(app, s));
        assertEquals(5_000, WallTime.ofStage(app, s, 20_000));
        assertEquals(10_000, WallTime.ofStage(app, s, 400_000));
        assertEquals(2_500, WallTime.ofStages(app, List.of(s), 0.25));
    }

    @Test
    void stagesSideBySideSaveWallTimeOnlyWhereOneRanAlone() {
        // stage 0 runs 0-10 s, stage 1 runs 5-15 s, stage 2 runs 6-8 s inside both
        AppSnapshot app = app().local(8)
                .stage(0).slots(4).tasks(8, i -> task().runTime(5_000)).done()
                .stage(1).startAt(5_000).slots(4).tasks(8, i -> task().runTime(5_000)).done()
                .stage(2).startAt(6_000).tasks(2, i -> task().runTime(2_000)).done().build();
        StageSummary first = stage(app, 0);
        assertEquals(5_000, WallTime.aloneMs(app, first));
        assertEquals(5_000, WallTime.aloneMs(app, stage(app, 1)));
        assertEquals(0, WallTime.aloneMs(app, stage(app, 2)));
        // half of stage 0's task time is 5 s of its wall time, half of which it ran alone
        assertEquals(2_500, WallTime.ofStage(app, first, 20_000));
        // all of it: only the 5 s it ran alone, stage 1 would still run to 15 s
        assertEquals(5_000, WallTime.ofStage(app, first, 40_000));
        // a stage that never ran alone saves no wall time, however much of its task time goes
        assertEquals(0, WallTime.ofStage(app, stage(app, 2), 4_000));
    }

    @Test
    void parallelismIsAtLeastOneAndAtMostTheCores() {
        // a 10 s stage whose one task ran 2 s: saving those 2 s saves 2 s, not the stage's 10 s
        AppSnapshot waiting = app().local(2).stage(0).durationMs(10_000).task(task().runTime(2_000)).done().build();
        assertEquals(2_000, WallTime.ofStage(waiting, stage(waiting, 0), 2_000));
        // task times claiming 8 side by side on 2 cores: the cores bound the parallelism
        AppSnapshot inflated = app().local(2).stage(0).tasks(8, i -> task().runTime(10_000)).done().build();
        assertEquals(10_000, WallTime.ofStage(inflated, stage(inflated, 0), 20_000));
        assertEquals(2.0, WallTime.parallelism(80_000, 10_000, 2));
        assertEquals(1.0, WallTime.parallelism(2_000, 10_000, 2));
        assertEquals(8.0, WallTime.parallelism(80_000, 10_000, 0));
    }

    @Test
    void anApplicationWideSavingIsSpreadOverTheBusyTime() {
        // two 10 s stages side by side (4 tasks each on 8 cores), then a third alone 20-30 s: busy 20 s of 30 s
        AppSnapshot app = app().local(8).durationMs(30_000)
                .stage(0).tasks(4, i -> task().runTime(10_000)).done()
                .stage(1).tasks(4, i -> task().runTime(10_000)).done()
                .stage(2).startAt(20_000).tasks(4, i -> task().runTime(10_000)).done().build();
        // 120 s of task time over 20 s busy: 6 side by side; 12 s of it is 2 s of wall time
        assertEquals(2_000, WallTime.ofApp(app, 12_000));
        assertEquals(20_000, WallTime.ofApp(app, 1_000_000));
        assertEquals(0, WallTime.ofApp(app().build(), 1_000));
    }
}
