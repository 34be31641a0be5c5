package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.filter;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.plans;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.scan;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.totals;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FullPartitionScanTest {
    private final FullPartitionScan heuristic = new FullPartitionScan();

    /**
     * A read of a table partitioned by day (when {@code partitioned}), with these partition filters, whose filter on
     * customer kept {@code kept} of 300 000 rows; stage 2 ran it in 4 tasks of {@code taskMs}.
     */
    private static AppSnapshot snapshot(long appMs, boolean partitioned, String partitionFilters, long partitions,
                                   long kept, long taskMs, boolean withFilter) {
        PlanNode scan = scan("parquet", "file:/data/by-day", "customer#1L,day#2", "struct<customer:bigint>",
                partitionFilters, "isnotnull(customer#1L), (customer#1L = 42)", partitioned, 400);
        PlanNode plan = withFilter ? filter(scan, "(customer#1L = 42)", 409) : scan;
        SnapshotBuilder b = app().durationMs(appMs);
        b.stage(2).tasks(4, i -> task().runTime(taskMs)).done();
        return plans().execution(8, 0, plan, totals(2, 400, 300_000, 401, 120, 402, 1_400_000, 403, partitions,
                409, kept), 2, 2).on(b);
    }

    @Test
    void allPartitionsReadForASelectiveFilterOnAnotherColumnAreNamedWithThePartitionColumn() {
        Finding f = single(Severity.LOW, run(heuristic, snapshot(60_000, true, "", 30, 300, 3_000, true)));
        assertEquals("FullPartitionScan:8.2", f.id());
        assertEquals(30L, f.details().get("partitionsRead"));
        assertEquals("day", f.details().get("partitionColumns"));
        assertEquals(300L, f.details().get("keptRows"));
        // 29 of the 30 partitions' share of the 3 s stage (12 s of task time)
        assertEquals(2_900, f.impact().wallMs());
        assertEquals(11_600, f.impact().taskMs());
        assertEquals(List.of("2.0"), f.stageIds());
        assertTrue(f.message().contains("file:/data/by-day") && f.message().contains("(day)"), f.message());
        assertTrue(f.recommendation().contains("day"), f.recommendation());
        assertTrue(f.impact().basis().contains("upper bound"), f.impact().basis());
    }

    @Test
    void aLongFullScanOverMostOfTheApplicationIsHigh() {
        single(Severity.HIGH, run(heuristic, snapshot(200_000, true, "", 30, 300, 120_000, true)));
    }

    @Test
    void prunedUnpartitionedUnselectiveOrUnfilteredScansAreSilent() {
        silent(run(heuristic, snapshot(60_000, true, "isnotnull(day#2), (day#2 = 3)", 1, 300, 3_000, true)));
        silent(run(heuristic, snapshot(60_000, false, "", 30, 300, 3_000, true)));
        // the filter kept half the rows: pruning could not skip much
        silent(run(heuristic, snapshot(60_000, true, "", 30, 150_000, 3_000, true)));
        // no filter: the query wants the whole table
        silent(run(heuristic, snapshot(60_000, true, "", 30, 300, 3_000, false)));
        silent(run(heuristic, snapshot(60_000, true, "", 4, 300, 3_000, true)));
    }
}
