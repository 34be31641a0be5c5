package io.sparkscope.core.analysis.timeline;

import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.heuristics.builtin.NoTaskTime;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.sparkscope.core.testing.SnapshotBuilder.START;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;

class NoTaskGapsTest {
    /** The heuristics' no-task time and the efficiency figures' driver-alone time are the same stretches. */
    private static void bothAgree(AppSnapshot app, long expectedMs) {
        long start = app.startTime();
        long end = start + app.durationMs();
        long gaps = NoTaskGaps.of(app.stages(), start, end, start, null).stream()
                .mapToLong(NoTaskGaps.Gap::durationMs).sum();
        assertEquals(expectedMs, gaps, "the gaps");
        assertEquals(expectedMs, NoTaskTime.of(app).noTaskMs(), "NoTaskTime");
        assertEquals(expectedMs, Efficiency.of(app).driverAloneMs(), "Efficiency's driver-alone time");
    }

    @Test
    void overlappingStagesAGapBetweenThemAndARunningStage() {
        // app [0, 10 000): stage 0 [1 000, 3 000), stage 1 [2 500, 4 000) overlaps it, stage 2 launched at 6 000 and
        // still running (no last finish: covers up to the end)
        AppSnapshot built = SnapshotBuilder.app().durationMs(10_000)
                .stage(0).startAt(1_000).task(task().runTime(2_000)).done()
                .stage(1).startAt(2_500).task(task().runTime(1_500)).done()
                .stage(2).startAt(6_000).task(task().runTime(1_000)).done()
                .build();
        List<StageSummary> stages = new ArrayList<>(built.stages());
        stages.set(2, stages.get(2).toBuilder().lastTaskFinishedTime(-1).build());
        AppSnapshot app = built.toBuilder().stages(stages).build();
        bothAgree(app, 1_000 + 2_000);
        List<NoTaskGaps.Gap> gaps = NoTaskGaps.of(app.stages(), START, START + 10_000, START, null);
        assertEquals(List.of(new NoTaskGaps.Gap(START, START + 1_000, null, stages.get(0).key()),
                new NoTaskGaps.Gap(START + 4_000, START + 6_000, stages.get(1).key(), stages.get(2).key())), gaps);
    }

    /**
     * A span that is empty once clamped to the application (a task finish logged before the stage's first launch, a
     * launch after the end: skewed clocks or a damaged log) covers nothing. The heuristics' sweep used to count a gap
     * up to such a span's start and then step back to its end, so the same stretch counted twice and the no-task time
     * could exceed the application's time; the efficiency figures skipped it.
     */
    @Test
    void aSpanEmptyOnceClampedCoversNothing() {
        AppSnapshot built = SnapshotBuilder.app().durationMs(10_000)
                .stage(0).startAt(1_000).task(task().runTime(4_000)).done()
                .stage(1).startAt(6_000).task(task().runTime(1_000)).done()
                .stage(2).startAt(7_000).task(task().runTime(1_000)).done()
                .build();
        List<StageSummary> stages = new ArrayList<>(built.stages());
        // stage 1: finished at 5 500, before its first launch at 6 000; stage 2: launched after the end
        stages.set(1, stages.get(1).toBuilder().lastTaskFinishedTime(START + 5_500).build());
        stages.set(2, stages.get(2).toBuilder().firstTaskLaunchedTime(START + 12_000)
                .lastTaskFinishedTime(START + 13_000).build());
        AppSnapshot app = built.toBuilder().stages(stages).build();
        bothAgree(app, 1_000 + 5_000);
    }
}
