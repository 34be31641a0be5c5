package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.node;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.withPlan;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TooFewTasksTest {
    private final TooFewTasks heuristic = new TooFewTasks();

    /** spark.range(…, 1) then CPU-heavy work: one task for 28 s on 2 cores, in SQL query 2. */
    private static AppSnapshot oneTaskApp() {
        PlanNode plan = node("HashAggregate", "HashAggregate(keys=[], functions=[partial_count(distinct h)])", 2,
                node("Project", "Project [sha2(cast(id as string), 256) AS h]", -1,
                        node("Range", "Range (0, 1200000, step=1, splits=1)", 1)));
        AppSnapshot app = app().durationMs(32_000).executor("1", 2, 28_500).sqlJob(0, 2)
                .stage(0).tasks(1, i -> task().runTime(28_000)).done()
                .stage(1).startAt(29_000).tasks(2, i -> task().runTime(200).shuffleRead(1_000)).done()
                .build();
        return withPlan(app, 2, plan, Map.of(1L, List.of(0), 2L, List.of(0)));
    }

    @Test
    void oneTaskForMostOfTheRunOnTwoCoresIsHighWithTheIdleCoresAsImpact() {
        Finding f = single(Severity.HIGH, run(heuristic, oneTaskApp()));
        assertEquals("TooFewTasks:0.0", f.id());
        assertEquals("Stage 0 ran 1 task on 2 cores", f.title());
        // 28 s on 2 cores with 28 s of task time: 28 s of core time idle; spread over both cores it takes 14 s.
        assertEquals(28_000L, f.details().get("idleCoreMs"));
        assertEquals(14_000, f.impact().wallMs());
        // The one partition comes from the source: repartition there, no setting (the stage reads no shuffle).
        assertTrue(f.recommendation().contains("at least 4 partitions"), f.recommendation());
        assertTrue(f.recommendation().contains("repartition(4)"), f.recommendation());
        assertFalse(f.recommendation().contains("spark.sql.shuffle.partitions"), f.recommendation());
        assertEquals("Range", f.planNodes().get(0).nodeName());
    }

    @Test
    void aStageAnExplicitRepartitionSetIsLeftToExplicitRepartition() {
        AppSnapshot app = ExplicitRepartitionTest.repartitionApp(2, 16_000, 30_000);
        silent(run(heuristic, app));
        HeuristicEngine engine = HeuristicEngine.load();
        List<Finding> all = engine.run(app, engine.defaultConfig()).findings();
        assertEquals(1, all.stream().filter(f -> f.stageIds().contains("1.0")
                && (f.heuristic().equals(TooFewTasks.ID) || f.heuristic().equals(ExplicitRepartition.ID))).count(),
                all.toString());
    }

    @Test
    void unevenFewTasksAreStageSkewsAndShortStagesDoNotMatter() {
        silent(run(heuristic, app().durationMs(40_000).executor("1", 4, 32_000)
                .stage(0).tasks(3, i -> task().runTime(i == 0 ? 30_000 : 1_000)).done().build()));
        silent(run(heuristic, app().durationMs(40_000).executor("1", 4, 1_000)
                .stage(0).tasks(1, i -> task().runTime(900)).done().build()));
    }

    @Test
    void coresAnotherStageUsedAtTheSameTimeWereNotIdle() {
        // Two one-task stages side by side on 2 cores (the two sides of a join): every core worked.
        silent(run(heuristic, app().durationMs(32_000).executor("1", 2, 56_000)
                .stage(0).tasks(1, i -> task().runTime(28_000)).done()
                .stage(1).tasks(1, i -> task().runTime(28_000)).done().build()));
    }

    @Test
    void aPlanThatGathersEveryRowInOnePartitionIsNamedWithoutASetting() {
        PlanNode plan = node("Window", "Window [row_number() windowspecdefinition(v ASC)]", 3,
                node("Exchange", "Exchange SinglePartition, ENSURE_REQUIREMENTS, [plan_id=4]", 2,
                        node("Range", "Range (0, 1200000, step=1, splits=8)", 1)));
        AppSnapshot app = app().durationMs(40_000).executor("1", 4, 28_000).sqlJob(0, 3)
                .stage(0).tasks(8, i -> task().runTime(500)).done()
                .stage(1).startAt(2_000).tasks(1, i -> task().runTime(30_000).shuffleRead(50L << 20)).done()
                .build();
        app = withPlan(app, 3, plan, Map.of(1L, List.of(0), 2L, List.of(0, 1), 3L, List.of(1)));
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertTrue(f.recommendation().contains("Exchange SinglePartition"), f.recommendation());
        assertTrue(f.advice().isEmpty(), f.advice().toString());
        assertEquals("Exchange", f.planNodes().get(0).nodeName());
    }
}
