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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StageSkewTest {
    private final StageSkew heuristic = new StageSkew();

    @Test
    void fiveTimesMedianIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app().durationMs(200_000) // the 20 s stage is 10 %
                .stage(3).tasks(100, i -> task().runTime(i == 0 ? 20_000 : 4_000).input(i == 0 ? 800 * MiB : 100 * MiB))
                .done().build()));
        assertEquals("StageSkew:3.0", f.id());
        assertEquals(5.0, f.details().get("ratio"));
        assertEquals(16_000L, f.details().get("excessMs"));
        assertTrue(f.message().contains("data is skewed"), f.message());
        @SuppressWarnings("unchecked")
        Map<String, Object> dist = (Map<String, Object>) f.details().get("distributions");
        assertEquals(List.of(4000L, 4000L, 4000L, 4000L, 4000L, 4000L, 20000L), dist.get("executorRunTime"));
    }

    @Test
    void thirtyTimesMedianIsHighAndStagesAreOrderedByTimeLost() {
        List<Finding> findings = run(heuristic, app().durationMs(600_000)
                .stage(1).skewed(100, 30_000, 2_000).done()
                .stage(2).skewed(100, 60_000, 2_000).done()
                .build());
        assertEquals(List.of("StageSkew:2.0", "StageSkew:1.0"), findings.stream().map(Finding::id).toList());
        assertEquals(Severity.HIGH, findings.get(0).severity());
    }

    @Test
    void stageThatDoesNotMatterIsSilent() {
        // 5 s of a 10 min application (< 5 %): even a 50x skew costs little.
        silent(run(heuristic, app().durationMs(600_000)
                .stage(1).skewed(100, 5_000, 100).done().build()));
        // Even tasks.
        silent(run(heuristic, app().durationMs(600_000)
                .stage(1).tasks(100, i -> task().runTime(40_000)).done().build()));
    }

    @Test
    void stragglersWhoseDataIsEvenAreNotSkew() {
        // 3 s stragglers reading what the median task reads: a slow executor, not data a remedy could spread.
        silent(run(heuristic, app().durationMs(60_000)
                .stage(1).tasks(100, i -> task().runTime(i < 3 ? 3_000 : 300).input(10 * MiB)
                        .metric(io.sparkscope.core.event.TaskMetric.INPUT_RECORDS, 1_000)).done().build()));
        // The same with even shuffle reads.
        silent(run(heuristic, app().durationMs(60_000)
                .stage(1).tasks(100, i -> task().runTime(i < 3 ? 3_000 : 300).shuffleRead(10 * MiB)).done().build()));
    }

    @Test
    void aVeryLongStragglerWithEvenDataIsLowWithSpeculationAdvice() {
        Finding f = single(Severity.LOW, run(heuristic, app().durationMs(600_000)
                .stage(1).tasks(100, i -> task().runTime(i == 0 ? 90_000 : 1_000).input(10 * MiB)).done().build()));
        assertEquals("spark.speculation", f.advice().get(0).key());
        assertTrue(f.recommendation().contains("will not help"), f.recommendation());
    }

    @Test
    void skewedInputInAStageReadingNoShuffleGetsNeitherSkewJoinNorSalting() {
        Finding f = single(Severity.LOW, run(heuristic, app().durationMs(200_000).conf("spark.sql.adaptive.enabled",
                        "false").sqlJob(0, 1)
                .stage(3).tasks(100, i -> task().runTime(i == 0 ? 20_000 : 4_000).input(i == 0 ? 800 * MiB : 100 * MiB))
                .done().build()));
        assertTrue(f.recommendation().contains("input splits"), f.recommendation());
        assertFalse(f.recommendation().contains("salt the"), f.recommendation());
        assertTrue(f.advice().isEmpty(), f.advice().toString());
    }

    @Test
    void anRddStageWithoutKeysIsNotToldToSalt() {
        Finding f = single(Severity.HIGH, run(heuristic, app().durationMs(600_000).job(0, JobStatus.SUCCEEDED, null)
                .stage(1).skewed(100, 30_000, 1_000).done().build()));
        assertFalse(f.recommendation().contains("salt the"), f.recommendation());
        assertFalse(f.recommendation().contains("reduceByKey"), f.recommendation());
    }

    /** A stage reading a shuffle where one task reads 50 MiB and the others 1 MiB, in SQL query 4 with AQE off. */
    private static io.sparkscope.core.model.AppSnapshot skewedShuffle(io.sparkscope.core.event.SparkEvent.PlanNode plan) {
        var app = app().durationMs(100_000).conf("spark.sql.adaptive.enabled", "false").sqlJob(0, 4)
                .stage(2).tasks(50, i -> task().runTime(i == 0 ? 40_000 : 1_000).shuffleRead(i == 0 ? 50 * MiB : MiB))
                .done().build();
        return PlanFixtures.withPlan(app, 4, plan, Map.of(1L, List.of(2)));
    }

    @Test
    void aSkewedShuffleReadIntoAJoinKeepsTheSkewJoinAdvice() {
        Finding f = single(Severity.HIGH, run(heuristic, skewedShuffle(PlanFixtures.node("SortMergeJoin",
                "SortMergeJoin [k], [k], Inner", 1))));
        assertEquals("spark.sql.adaptive.enabled", f.advice().get(0).key());
        assertTrue(f.recommendation().contains("salt"), f.recommendation());
    }

    @Test
    void aSkewedShuffleReadWithoutAJoinIsNotToldToUseTheSkewJoin() {
        Finding f = single(Severity.HIGH, run(heuristic, skewedShuffle(PlanFixtures.node("Sort", "Sort [h ASC]", 1))));
        assertTrue(f.advice().isEmpty(), f.advice().toString());
        assertTrue(f.recommendation().contains("no join"), f.recommendation());
        assertFalse(f.recommendation().contains("broadcast"), f.recommendation());
    }
}
