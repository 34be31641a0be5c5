package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.changeStage;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.node;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.nodeId;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.withPlan;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExplicitRepartitionTest {
    private final ExplicitRepartition heuristic = new ExplicitRepartition();

    /** range(8 splits).repartition(n) then heavy work: stage 0 writes the shuffle, stage 1 reads it in n tasks. */
    static PlanNode repartitionPlan(int n) {
        return node("HashAggregate", "HashAggregate(keys=[], functions=[count(1)])", 3,
                node("Exchange", "Exchange RoundRobinPartitioning(" + n + "), REPARTITION_BY_NUM, [plan_id=12]", 2,
                        node("Range", "Range (0, 1200000, step=1, splits=8)", 1)));
    }

    /** 4 cores; stage 0: 8 tasks of 1 s; stage 1: {@code n} tasks of {@code taskMs} each, in SQL query 5. */
    static AppSnapshot repartitionApp(int n, long taskMs, long appMs) {
        AppSnapshot app = app().durationMs(appMs).executor("1", 4, 8_000 + n * taskMs).sqlJob(0, 5)
                .stage(0).tasks(8, i -> task().runTime(1_000)).done()
                .stage(1).startAt(2_000).tasks(n, i -> task().runTime(taskMs).shuffleRead(3L << 20)).done()
                .build();
        return withPlan(app, 5, repartitionPlan(n), Map.of(1L, List.of(0), 2L, List.of(0, 1), 3L, List.of(1)));
    }

    @Test
    void repartitionTwoOnFourCoresIsNamedAtTheExchangeWithAdviceAtTheCode() {
        AppSnapshot app = repartitionApp(2, 16_000, 30_000);
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertEquals("ExplicitRepartition:1.0", f.id());
        assertTrue(f.title().contains("repartition(2)") && f.title().contains("2 of 4 cores"), f.title());
        assertTrue(f.message().contains("Exchange RoundRobinPartitioning(2), REPARTITION_BY_NUM in SQL query 5"),
                f.message());
        assertFalse(f.message().contains("plan_id"), f.message());
        assertTrue(f.recommendation().contains("Raise repartition(2) to at least 8"), f.recommendation());
        // No setting changes an explicit count: nothing is advised, least of all spark.sql.shuffle.partitions.
        assertTrue(f.advice().isEmpty(), f.advice().toString());
        assertFalse(f.recommendation().contains("spark.sql.shuffle.partitions"), f.recommendation());
        assertEquals(List.of(new Finding.PlanNodeRef(5, nodeId(repartitionPlan(2), "Exchange"), "Exchange")),
                f.planNodes());
        // 16 s of wall for 32 s of task time, which 4 cores would do in 8 s.
        assertEquals(8_000, f.impact().wallMs());
        assertTrue(f.impact().basis().contains("2 tasks on 4 cores"), f.impact().basis());
    }

    @Test
    void coalesceOneInAShortRunIsLowAndAdvisesARepartitionInItsPlace() {
        PlanNode plan = node("Execute InsertIntoHadoopFsRelationCommand", "Execute InsertIntoHadoopFsRelationCommand", -1,
                node("Coalesce", "Coalesce 1",  -1,
                        node("Project", "Project [sha2(cast(id as string), 512) AS h]", -1,
                                node("Range", "Range (0, 1200000, step=1, splits=8)", 1))));
        AppSnapshot app = withPlan(app().durationMs(3_500).executor("1", 2, 2_800).sqlJob(0, 1)
                .stage(0).tasks(1, i -> task().runTime(2_800)).done().build(), 1, plan, Map.of(1L, List.of(0)));
        Finding f = single(Severity.LOW, run(heuristic, app)); // 1.4 s saved: a large share of a short run
        assertTrue(f.title().startsWith("coalesce(1) leaves 1 of 2 cores idle"), f.title());
        assertTrue(f.recommendation().contains("repartition(1) in its place"), f.recommendation());
        assertEquals(1_400, f.impact().wallMs());
        assertEquals("Coalesce", f.planNodes().get(0).nodeName());
    }

    @Test
    void rddRepartitionIsNamedAtItsCallSite() {
        AppSnapshot app = app().durationMs(40_000).executor("1", 4, 48_000)
                .stage(0).tasks(8, i -> task().runTime(1_000)).done()
                .stage(1).startAt(2_000).tasks(2, i -> task().runTime(20_000).shuffleRead(1L << 20)).done()
                .build();
        app = changeStage(app, 0, b -> b.name("repartition at Job.java:12"));
        app = changeStage(app, 1, b -> b.name("count at Job.java:13").parentIds(List.of(0)));
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertEquals("repartition at Job.java:12", f.details().get("operator"));
        assertTrue(f.message().contains("repartition(2) (repartition at Job.java:12)"), f.message());
        assertTrue(f.planNodes().isEmpty());
    }

    @Test
    void silentWhenTheCountFillsTheCoresOrTheStageIsShortOrTheCountIsNotExplicit() {
        silent(run(heuristic, repartitionApp(4, 16_000, 30_000))); // repartition(4) on 4 cores
        silent(run(heuristic, repartitionApp(2, 600, 30_000))); // 300 ms to gain
        // Two tasks reading a hash-partitioned shuffle: spark.sql.shuffle.partitions set the count, not the code.
        AppSnapshot app = repartitionApp(2, 16_000, 30_000);
        PlanNode byCol = node("HashAggregate", "HashAggregate(keys=[k], functions=[count(1)])", 3,
                node("Exchange", "Exchange hashpartitioning(k#1, 2), ENSURE_REQUIREMENTS, [plan_id=3]", 2,
                        node("Range", "Range (0, 1200000, step=1, splits=8)", 1)));
        silent(run(heuristic, withPlan(app, 5, byCol, Map.of(1L, List.of(0), 2L, List.of(0, 1), 3L, List.of(1)))));
    }

    @Test
    void repartitionWithAColumnAndACountIsExplicitToo() {
        PlanNode plan = node("Sort", "Sort [h ASC]", 3,
                node("Exchange", "Exchange hashpartitioning(k#4, 2), REPARTITION_BY_NUM, [plan_id=7]", 2,
                        node("Range", "Range (0, 1200000, step=1, splits=8)", 1)));
        AppSnapshot app = withPlan(repartitionApp(2, 16_000, 30_000), 5, plan,
                Map.of(1L, List.of(0), 2L, List.of(0, 1), 3L, List.of(1)));
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertEquals("repartition(2, …)", f.details().get("explicitCall"));
    }
}
