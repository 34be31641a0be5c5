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
import static io.sparkscope.core.heuristics.SnapshotBuilder.app;
import static io.sparkscope.core.heuristics.SnapshotBuilder.task;
import static io.sparkscope.core.heuristics.Units.GiB;
import static io.sparkscope.core.heuristics.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        PlanNode smj = new PlanNode("SortMergeJoin", "SortMergeJoin [k], [k], Inner", List.of(side(1), side(2)), List.of());
        PlanNode root = new PlanNode("AdaptiveSparkPlan", "AdaptiveSparkPlan", List.of(smj), List.of());
        return run(new JoinStrategy(), app().sql(7, root, sizes).build());
    }

    @Test
    void smallSideBelowHundredMegabytesIsLow() {
        Finding f = single(Severity.LOW, join(Map.of(1L, 40 * MiB, 2L, 10 * GiB)));
        assertEquals("JoinStrategy:7.0", f.id());
        assertEquals(40 * MiB, f.details().get("smallSideBytes"));
        assertTrue(f.recommendation().contains("spark.sql.autoBroadcastJoinThreshold=80m"), f.recommendation());
    }

    @Test
    void bigSidesOrUnknownSizesAreSilent() {
        silent(join(Map.of(1L, 500 * MiB, 2L, 10 * GiB)));
        silent(join(Map.of(2L, 10 * GiB)));
        silent(run(heuristic, app().sql(1, null, Map.of()).build()));
    }
}
