package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.node;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.withPlan;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartitioningTest {

    private static StageSummary stage(AppSnapshot app, int id) {
        return app.stages().stream().filter(s -> s.stageId() == id).findFirst().orElseThrow();
    }

    @Test
    void aCountAnExplicitRepartitionSetIsChangedAtTheCallNeverByShufflePartitions() {
        AppSnapshot app = ExplicitRepartitionTest.repartitionApp(2, 16_000, 30_000);
        Partitioning p = Partitioning.of(app, SparkSettings.of(app), Facts.StageKind.SQL, stage(app, 1), 8, 4, "why");
        assertTrue(p.advice().isEmpty(), p.advice().toString());
        assertFalse(p.text().contains("spark.sql.shuffle.partitions"), p.text());
        assertTrue(p.text().contains("repartition(2)") && p.text().contains("make it repartition(8) there"), p.text());
    }

    /**
     * An RDD stage of 2 000 tiny tasks on 2 cores: its count came from the code (parallelize(data, 2000)), not from
     * spark.default.parallelism (2 here). Advising that setting "=8 (now 2)" would raise it, and leave the stage as
     * it was: a rerun of that advice made such an application slower.
     */
    @Test
    void anRddCountTheCodeSetIsNotAdvisedThroughDefaultParallelism() {
        AppSnapshot app = app().durationMs(60_000).executor("driver", 2, 60_000)
                .stage(0).tasks(2_000, i -> task().runTime(5)).done().build();
        Partitioning p = Partitioning.of(app, SparkSettings.of(app), Facts.StageKind.RDD, stage(app, 0), 8, 2, "why");
        assertTrue(p.advice().isEmpty(), p.advice().toString());
        assertTrue(p.text().contains("coalesce(8)"), p.text());

        // A shuffle that named no count ran with the default's 2 partitions: there the setting is what changes it.
        AppSnapshot fromDefault = app().durationMs(60_000).executor("driver", 2, 60_000)
                .stage(0).tasks(2, i -> task().runTime(20_000)).done().build();
        Partitioning more = Partitioning.of(fromDefault, SparkSettings.of(fromDefault), Facts.StageKind.RDD,
                stage(fromDefault, 0), 8, 2, "why");
        assertEquals("spark.default.parallelism", more.advice().get(0).key(), more.advice().toString());
        assertEquals("8", more.advice().get(0).recommendedValue());
    }

    @Test
    void aShuffleThePlanPartitionedByTheSettingIsStillAdvisedThroughIt() {
        PlanNode byKey = node("HashAggregate", "HashAggregate(keys=[k], functions=[count(1)])", 3,
                node("Exchange", "Exchange hashpartitioning(k#1, 2), ENSURE_REQUIREMENTS, [plan_id=3]", 2,
                        node("Range", "Range (0, 1200000, step=1, splits=8)", 1)));
        AppSnapshot app = withPlan(ExplicitRepartitionTest.repartitionApp(2, 16_000, 30_000), 5, byKey,
                Map.of(1L, List.of(0), 2L, List.of(0, 1), 3L, List.of(1)));
        Partitioning p = Partitioning.of(app, SparkSettings.of(app), Facts.StageKind.SQL, stage(app, 1), 8, 4, "why");
        assertEquals("spark.sql.shuffle.partitions", p.advice().get(0).key());
    }

    @Test
    void longTasksInAnExplicitlyRepartitionedStageAreNotToldToRaiseShufflePartitions() {
        // Two 10-minute tasks reading repartition(2)'s shuffle: LongTasks advises more partitions, at the call.
        AppSnapshot plain = app().durationMs(1_500_000).executor("1", 4, 1_200_000).sqlJob(0, 5)
                .stage(0).tasks(8, i -> task().runTime(1_000)).done()
                .stage(1).startAt(2_000).tasks(2, i -> task().runTime(600_000).shuffleRead(3L << 20)).done()
                .build();
        AppSnapshot app = withPlan(plain, 5, ExplicitRepartitionTest.repartitionPlan(2),
                Map.of(1L, List.of(0), 2L, List.of(0, 1), 3L, List.of(1)));
        List<Finding> findings = run(new LongTasks(), app);
        assertFalse(findings.isEmpty());
        for (Finding f : findings) {
            assertTrue(f.advice().stream().noneMatch(a -> a.key().equals("spark.sql.shuffle.partitions")),
                    f.advice().toString());
            assertFalse(f.recommendation().contains("spark.sql.shuffle.partitions"), f.recommendation());
        }
        // The long tasks are the repartition's doing: one root cause, the repartition, with LongTasks under it.
        HeuristicEngine engine = HeuristicEngine.load();
        HeuristicEngine.Result r = engine.run(app, engine.defaultConfig());
        Finding longTasks = r.findings().stream().filter(f -> f.heuristic().equals(LongTasks.ID)).findFirst()
                .orElseThrow();
        assertEquals("ExplicitRepartition:1.0", longTasks.causedBy());
        assertEquals(1, r.fixFirst().items().stream().filter(i -> i.heuristic().equals(ExplicitRepartition.ID)
                || i.heuristic().equals(LongTasks.ID)).count(), r.fixFirst().toString());
    }
}
