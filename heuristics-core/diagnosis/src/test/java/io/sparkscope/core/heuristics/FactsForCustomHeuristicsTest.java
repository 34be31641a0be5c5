package io.sparkscope.core.heuristics;

import io.sparkscope.core.heuristics.builtin.Facts;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Facts read from outside its package, as a heuristic of one's own reads them (it was package-private). */
class FactsForCustomHeuristicsTest {
    @Test
    void aHeuristicOutsideTheBuiltInPackageReadsTheSameFacts() {
        AppSnapshot app = app().executor("1", 4, 40_000).executor("2", 4, 40_000)
                .stage(0).durationMs(10_000).tasks(8, i -> task().runTime(10_000)).done().build();
        StageSummary stage = app.stages().get(0);
        assertEquals(10_000, Facts.stageDurationMs(stage));
        assertEquals(8, Facts.slots(app, SparkSettings.of(app)));
        assertEquals(2, Facts.taskRunners(app).size());
        assertTrue(Facts.stageLabel(stage).startsWith("stage 0"), Facts.stageLabel(stage));
        // half the stage's task time back is half its wall time
        assertEquals(5_000, Facts.stageWallShare(app, stage, Facts.stageTaskMs(stage) / 2));
    }
}
