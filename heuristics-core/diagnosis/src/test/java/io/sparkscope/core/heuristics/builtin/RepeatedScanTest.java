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

class RepeatedScanTest {
    private final RepeatedScan heuristic = new RepeatedScan();

    /** A filtered parquet read of {@code path}, its scan's metrics from accumulator {@code acc}. */
    private static PlanNode read(String path, String partitionFilters, long acc) {
        return filter(ScanPlans.scan("parquet", path, "h#4", "struct<h:string>", partitionFilters,
                "isnotnull(h#4), Contains(h#4, ab)", false, acc), "Contains(h#4, ab)", acc + 9);
    }

    /** {@code reads} executions, each reading {@code paths[i % paths.length]} in a stage of 4 tasks of taskMs. */
    private static AppSnapshot snapshot(long appMs, int reads, long taskMs, String... paths) {
        SnapshotBuilder app = app().durationMs(appMs);
        ScanPlans sql = plans();
        for (int i = 0; i < reads; i++) {
            int stage = i + 1;
            long acc = 100L * stage;
            app.stage(stage).startAt(i * taskMs).tasks(4, t -> task().runTime(taskMs)).done();
            sql.execution(stage, i * taskMs, read(paths[i % paths.length], "", acc),
                    totals(stage, acc, 300_000, acc + 9, 66_000), stage, stage);
        }
        return sql.on(app);
    }

    @Test
    void theSameFilesReadByThreeExecutionsAreNamedWithWhatACacheWouldSave() {
        Finding f = single(Severity.LOW, run(heuristic, snapshot(30_000, 3, 2_000, "file:/data/events")));
        // the scan under Filter and ColumnarToRow: node 2 of execution 1, the first read
        assertEquals("RepeatedScan:1.2", f.id());
        assertEquals("file:/data/events", f.details().get("input"));
        assertEquals(3, f.details().get("reads"));
        assertEquals(List.of(1L, 2L, 3L), f.details().get("sqlExecutionIds"));
        assertEquals(List.of("1.0", "2.0", "3.0"), f.stageIds());
        // three reads of 2 s (8 s of task time each), less the one a cache keeps
        assertEquals(4_000, f.impact().wallMs());
        assertEquals(16_000, f.impact().taskMs());
        assertTrue(f.message().contains("file:/data/events") && f.message().contains("stages 1, 2, 3"),
                f.message());
        assertTrue(f.recommendation().contains("cache()"), f.recommendation());
        assertEquals(3, f.planNodes().size());
    }

    @Test
    void repeatsCostingMostOfALongApplicationAreHigh() {
        // three reads of a minute in a five-minute application: two minutes, 40 %
        Finding f = single(Severity.HIGH, run(heuristic, snapshot(300_000, 3, 60_000, "s3a://bucket/facts")));
        assertEquals(120_000, f.impact().wallMs());
        // the same share of a short application is LOW: under a minute is a small effect
        single(Severity.LOW, run(heuristic, snapshot(30_000, 3, 6_000, "s3a://bucket/facts")));
    }

    @Test
    void differentInputsOneReadOrCheapRepeatsAreSilent() {
        silent(run(heuristic, snapshot(30_000, 1, 2_000, "file:/data/events")));
        silent(run(heuristic, snapshot(30_000, 2, 2_000, "file:/data/a", "file:/data/b")));
        // two reads of 500 ms: the repeat costs less than a second
        silent(run(heuristic, snapshot(30_000, 2, 500, "file:/data/events")));
    }

    @Test
    void otherPartitionFiltersReadOtherFilesAndAScanThatNeverRanReadNothing() {
        SnapshotBuilder b = app().durationMs(30_000);
        b.stage(1).tasks(4, t -> task().runTime(2_000)).done();
        b.stage(2).startAt(2_000).tasks(4, t -> task().runTime(2_000)).done();
        AppSnapshot app = plans()
                .execution(1, 0, read("file:/data/t", "isnotnull(day#2), (day#2 = 1)", 100),
                        totals(1, 100, 10), 1, 1)
                .execution(2, 2_000, read("file:/data/t", "isnotnull(day#2), (day#2 = 2)", 200),
                        totals(2, 200, 10), 2, 2)
                // planned, never run: no stage reported its metrics
                .execution(3, 4_000, read("file:/data/t", "isnotnull(day#2), (day#2 = 2)", 300), totals(-1), 3)
                .on(b);
        silent(run(heuristic, app));
    }
}
