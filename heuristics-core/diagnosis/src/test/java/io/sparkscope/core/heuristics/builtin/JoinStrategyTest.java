package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JoinStrategy has no HIGH level. */
class JoinStrategyTest {
    private final JoinStrategy heuristic = new JoinStrategy();

    private static PlanNode side(long accumulatorId) {
        PlanNode exchange = new PlanNode("Exchange", "Exchange hashpartitioning(k, 200)", List.of(
                new PlanNode("Scan parquet", "Scan parquet t", List.of(), List.of())),
                List.of(new PlanMetric("shuffle records written", 90 + accumulatorId, "sum"),
                        new PlanMetric("data size", accumulatorId, "size")));
        return new PlanNode("Sort", "Sort [k ASC]", List.of(exchange), List.of());
    }

    private static List<Finding> join(Map<Long, Long> sizes) {
        return join(sizes, null);
    }

    private static List<Finding> join(Map<Long, Long> sizes, String threshold) {
        PlanNode smj = new PlanNode("SortMergeJoin", "SortMergeJoin [k], [k], Inner", List.of(side(1), side(2)), List.of());
        PlanNode root = new PlanNode("AdaptiveSparkPlan", "AdaptiveSparkPlan", List.of(smj), List.of());
        var app = app().sparkVersion("3.5.1").sql(7, root, sizes);
        if (threshold != null) {
            app.conf("spark.sql.autoBroadcastJoinThreshold", threshold);
        }
        return run(new JoinStrategy(), app.build());
    }

    @Test
    void aThresholdAlreadyAtTheSuggestedValueIsNotRecommendedAgain() {
        // 80m is what a 40 MiB side would be told; in bytes, as Spark users often write it
        Finding f = single(Severity.LOW, join(Map.of(1L, 40 * MiB, 2L, 10 * GiB), Long.toString(80 * MiB)));
        assertNull(f.adviceFor("spark.sql.autoBroadcastJoinThreshold"), f.advice().toString());
        assertFalse(f.recommendation().contains("spark.sql.autoBroadcastJoinThreshold="), f.recommendation());
        assertTrue(f.recommendation().contains("already covers this side"), f.recommendation());
        assertTrue(f.recommendation().contains("broadcast(df)"), f.recommendation());
        // a higher threshold covers it too
        assertNull(single(Severity.LOW, join(Map.of(1L, 40 * MiB, 2L, 10 * GiB), "200m"))
                .adviceFor("spark.sql.autoBroadcastJoinThreshold"));
    }

    @Test
    void disabledBroadcastSaysSoAndNamesTheValueInForce() {
        Finding f = single(Severity.LOW, join(Map.of(1L, 40 * MiB, 2L, 10 * GiB), "-1"));
        SettingAdvice a = f.adviceFor("spark.sql.autoBroadcastJoinThreshold");
        assertEquals("-1", a.currentValue());
        assertEquals(SettingAdvice.ValueSource.SET, a.currentSource());
        assertEquals("80m", a.recommendedValue());
        assertTrue(f.recommendation().contains("switched off"), f.recommendation());
    }

    @Test
    void theFindingNamesTheJoinNodeOfThePlanGraph() {
        Finding f = single(Severity.LOW, join(Map.of(1L, 40 * MiB, 2L, 10 * GiB)));
        // Spark's graph ids: AdaptiveSparkPlan 0, the join 1 (found by the tree's own node, metrics or not)
        assertEquals(List.of(new Finding.PlanNodeRef(7, 1, "SortMergeJoin")), f.planNodes());
    }

    @Test
    void smallSideBelowHundredMegabytesIsLow() {
        Finding f = single(Severity.LOW, join(Map.of(1L, 40 * MiB, 2L, 10 * GiB)));
        assertEquals("JoinStrategy:7.0", f.id());
        assertEquals(40 * MiB, f.details().get("smallSideBytes"));
        assertTrue(f.recommendation().contains("spark.sql.autoBroadcastJoinThreshold=80m (now 10m, the default)"),
                f.recommendation());
    }

    /** A join input as Spark plans it without AQE: Sort (sort time) over Exchange (size, write time, fetch wait). */
    private static PlanNode timedSide(long id) {
        PlanNode exchange = new PlanNode("Exchange", "Exchange hashpartitioning(d, 8)", List.of(
                new PlanNode("Range", "Range (0, 600000)", List.of(), List.of())),
                List.of(new PlanMetric("data size", id, "size"),
                        new PlanMetric("shuffle write time", id + 1, "nsTiming"),
                        new PlanMetric("fetch wait time", id + 2, "timing")));
        return new PlanNode("Sort", "Sort [d ASC]", List.of(new PlanNode("InputAdapter", "InputAdapter",
                List.of(exchange), List.of())), List.of(new PlanMetric("sort time", id + 3, "timing")));
    }

    @Test
    void theSavingIsTheSortsAndTheLargerSidesShuffleOverTheAppsParallelism() {
        PlanNode smj = new PlanNode("SortMergeJoin", "SortMergeJoin [d], [d], Inner",
                List.of(timedSide(10), timedSide(20)), List.of());
        // Side 10 is the large one (9 MiB): 2 s writing its shuffle, 1 s waiting for it, 3 s sorting it. Side 20 (6
        // KiB): its shuffle would become a broadcast, only its 100 ms of sorting goes.
        Map<Long, Long> values = Map.of(10L, 9 * MiB, 11L, 2_000_000_000L, 12L, 1_000L, 13L, 3_000L,
                20L, 6_400L, 21L, 5_000_000L, 22L, 1L, 23L, 100L);
        // 40 s of tasks in 20 s of wall time: the application ran two tasks at a time on average.
        var app = app().conf("spark.sql.autoBroadcastJoinThreshold", "-1").sql(3, smj, values)
                .stage(0).slots(2).tasks(4, i -> task().runTime(10_000)).done().build();
        Finding f = single(Severity.LOW, run(heuristic, app));
        assertEquals(6_100, f.impact().taskMs(), f.impact().toString());
        assertEquals(3_050, f.impact().wallMs(), f.impact().toString());
        assertTrue(f.impact().basis().contains("(3.1 s sort time)") && f.impact().basis().contains("(3.0 s of shuffle"),
                f.impact().basis());
        assertEquals(List.of(new Finding.PlanNodeRef(3, 0, "SortMergeJoin")), f.planNodes());
        assertEquals("-1", f.adviceFor("spark.sql.autoBroadcastJoinThreshold").currentValue());
    }

    @Test
    void bigSidesOrUnknownSizesAreSilent() {
        silent(join(Map.of(1L, 500 * MiB, 2L, 10 * GiB)));
        silent(join(Map.of(2L, 10 * GiB)));
        silent(run(heuristic, app().sql(1, null, Map.of()).build()));
    }

    @Test
    void theSavingIsTheJoinsOwnStageAndTheLargerSidesShuffleWriteAsWallTime() {
        PlanNode smj = new PlanNode("SortMergeJoin", "SortMergeJoin [d], [d], Inner",
                List.of(timedSide(10), timedSide(20)), List.of(new PlanMetric("number of output rows", 30, "sum")));
        Map<Long, Long> values = Map.of(10L, 9 * MiB, 11L, 1_000_000_000L, 12L, 1L, 13L, 30L,
                20L, 6_400L, 21L, 20_000_000L, 22L, 1L, 23L, 1L, 30L, 4_000L);
        // Stage 0 writes the large side's shuffle (1 s of its 4 s of tasks), stage 1 the small side's, stage 2 reads
        // both back (12 000 rows), sorts and merges them into 4 000 rows: 6 s of tasks on 2 cores, 3 s of wall time.
        // One stage at a time.
        AppSnapshot app = app().local(2).conf("spark.sql.autoBroadcastJoinThreshold", "-1").sql(3, smj, values)
                .stage(0).slots(2).startAt(0).durationMs(2_000)
                .tasks(4, i -> task().runTime(1_000).metric(TaskMetric.SHUFFLE_WRITE_TIME, 250_000_000L)).done()
                .stage(1).slots(2).startAt(2_000).durationMs(500)
                .tasks(2, i -> task().runTime(500).metric(TaskMetric.SHUFFLE_WRITE_TIME, 10_000_000L)).done()
                .stage(2).slots(2).startAt(2_500).durationMs(3_000)
                .tasks(4, i -> task().runTime(1_500).metric(TaskMetric.SHUFFLE_RECORDS_READ, 3_000)).done().build();
        // which stage reported which metric: each exchange's size and write time where it was written, its fetch
        // wait and the sorts and join where they were read back
        Map<Long, List<Integer>> reportedIn = Map.of(10L, List.of(0), 11L, List.of(0), 12L, List.of(2),
                13L, List.of(2), 20L, List.of(1), 21L, List.of(1), 22L, List.of(2), 23L, List.of(2), 30L, List.of(2));
        Finding f = single(Severity.LOW, run(heuristic, withMetricStages(app, reportedIn)));
        // The join stage's 3 s go, less the share of its 6 s of tasks that produced the 4 000 rows (a quarter of the
        // 16 000 rows read or produced: 1.5 s), which the large side's tasks still do after a broadcast, over 2 cores
        // (0.75 s); and the large side's 1 s of shuffle write over 2 cores.
        assertEquals(4_500 + 1_000, f.impact().taskMs(), f.impact().toString());
        assertEquals(2_250 + 500, f.impact().wallMs(), f.impact().toString());
        assertTrue(f.impact().basis().contains("stage 2") && f.impact().basis().contains("in stage 0"),
                f.impact().basis());
        // A join whose output dwarfs what it read (one key matching many rows) keeps most of its work: the
        // saving is what the stage's wall time exceeds that work spread over the cores, here 35 ms (12 000 of the
        // 1 012 000 rows were read, not produced) besides the 0.5 s of shuffle write.
        Map<Long, Long> many = new HashMap<>(values);
        many.put(30L, 1_000_000L);
        Finding heavy = single(Severity.LOW, run(heuristic, withMetricStages(SnapshotBuilder.copy(app)
                .sqlExecutions(List.of(app.sqlExecutions().get(0).toBuilder().metricValues(many).build())).build(),
                reportedIn)));
        assertEquals(535, heavy.impact().wallMs(), heavy.impact().toString());
    }

    /** The snapshot with its one SQL execution's metrics reported by the given stages. */
    private static AppSnapshot withMetricStages(AppSnapshot app, Map<Long, List<Integer>> stagesByAccumulator) {
        SqlExecutionSummary sql = app.sqlExecutions().get(0);
        Map<Long, SqlMetricAggregate> metrics = new HashMap<>();
        stagesByAccumulator.forEach((id, stages) -> metrics.put(id, SqlMetricAggregate.builder().accumulatorId(id)
                .metricType("sum").total(sql.metricValues().getOrDefault(id, 0L)).stageIds(stages).build()));
        return SnapshotBuilder.copy(app).sqlExecutions(List.of(sql.toBuilder().metrics(metrics).build())).build();
    }
}
