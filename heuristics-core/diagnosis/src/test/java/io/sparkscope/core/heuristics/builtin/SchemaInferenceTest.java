package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.plans;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.scan;
import static io.sparkscope.core.heuristics.builtin.ScanPlans.totals;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.KiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaInferenceTest {
    private final SchemaInference heuristic = new SchemaInference();

    /**
     * Job 1 named {@code jobName} (SQL execution {@code jobSql}) reads {@code inferred} bytes in stage 1 in
     * {@code jobMs}; then SQL execution 5 reads 100 MiB of {@code format} at file:/in in stage 2.
     */
    private static AppSnapshot snapshot(long appMs, String jobName, long jobSql, long jobMs, long inferred,
                                   long shuffleWrite, String format) {
        SnapshotBuilder b = app().durationMs(appMs);
        b.stage(1).jobs(1).tasks(4, i -> task().runTime(jobMs * 3 / 4).input(inferred / 4)
                .shuffleWrite(shuffleWrite)).done();
        b.stage(2).jobs(2).startAt(jobMs).tasks(4, i -> task().runTime(1_000).input(25 * MiB)).done();
        return plans()
                .job(1, jobName, jobSql, 0, jobMs, 1)
                .execution(5, jobMs + 10, scan(format, "file:/in", 500), totals(2, 500, 1_000_000, 501, 4,
                        502, 100 * MiB), 2, 2)
                .on(b);
    }

    @Test
    void aCsvJobReadingTheWholeInputBeforeTheQueryIsNamedWithItsTime() {
        Finding f = single(Severity.LOW, run(heuristic,
                snapshot(20_000, "csv at Etl.scala:12", -1, 2_000, 100 * MiB, 0, "csv")));
        assertEquals("SchemaInference:job1", f.id());
        assertEquals(1, f.details().get("inferenceJobId"));
        assertEquals(100 * MiB, f.details().get("inferenceInputBytes"));
        assertEquals(5L, f.details().get("laterSqlExecutionId"));
        assertEquals(2_000, f.impact().wallMs());
        assertEquals(6_000, f.impact().taskMs());
        assertTrue(f.message().contains("file:/in") && f.message().contains("inferSchema"), f.message());
        assertTrue(f.recommendation().contains(".schema(") && f.recommendation().contains("Etl.scala:12"),
                f.recommendation());
        assertTrue(f.advice().isEmpty(), "a change at the code, not a setting");
    }

    @Test
    void jsonAdviceOffersASamplingRatioAndALongInferenceIsHigh() {
        Finding f = single(Severity.LOW, run(heuristic,
                snapshot(20_000, "json at Etl.scala:12", -1, 2_000, 100 * MiB, 0, "json")));
        assertTrue(f.recommendation().contains("samplingRatio"), f.recommendation());
        assertFalse(f.message().contains("inferSchema"), f.message());
        // two minutes of a five-minute application
        single(Severity.HIGH, run(heuristic,
                snapshot(300_000, "load at Etl.scala:12", -1, 120_000, 100 * MiB, 0, "json")));
    }

    @Test
    void headerReadsWritesOtherFormatsAndShortJobsAreSilent() {
        // the CSV header: a SQL execution of its own, or a fraction of the input
        silent(run(heuristic, snapshot(20_000, "csv at Etl.scala:12", 3, 2_000, 100 * MiB, 0, "csv")));
        silent(run(heuristic, snapshot(20_000, "csv at Etl.scala:12", -1, 2_000, 64 * KiB, 0, "csv")));
        // a job that shuffles is not a schema inference
        silent(run(heuristic, snapshot(20_000, "csv at Etl.scala:12", -1, 2_000, 100 * MiB, 1_000, "csv")));
        // the later read is parquet: no inference happened for it
        silent(run(heuristic, snapshot(20_000, "csv at Etl.scala:12", -1, 2_000, 100 * MiB, 0, "parquet")));
        silent(run(heuristic, snapshot(20_000, "csv at Etl.scala:12", -1, 100, 100 * MiB, 0, "csv")));
        silent(run(heuristic, snapshot(20_000, "count at Etl.scala:12", -1, 2_000, 100 * MiB, 0, "csv")));
    }
}
