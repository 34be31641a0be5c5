package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.SettingAdvice;
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
import static io.sparkscope.core.heuristics.builtin.ScanPlans.write;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.KiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SmallFilesTest {
    private final SmallFiles heuristic = new SmallFiles();

    /** A read of {@code files} files of {@code bytes} in all, by {@code tasks} tasks of {@code taskMs} on 2 cores. */
    private static AppSnapshot read(SnapshotBuilder b, long files, long bytes, int tasks, long taskMs) {
        b.stage(2).slots(2).tasks(tasks, i -> task().runTime(taskMs)).done();
        return plans().execution(7, 0, scan("parquet", "file:/data/small", 300),
                totals(2, 300, 6_000, 301, files, 302, bytes), 2, 2).on(b);
    }

    @Test
    void aTaskPerSmallFileReadIsMeasuredByTheTasksFewerFilesWouldNotNeed() {
        Finding f = single(Severity.LOW, run(heuristic,
                read(app().durationMs(100_000), 600, 600 * 2 * KiB, 600, 50)));
        assertEquals("SmallFiles:read7.0", f.id());
        assertEquals(600L, f.details().get("files"));
        assertEquals(2 * KiB, f.details().get("averageFileBytes"));
        assertEquals(1L, f.details().get("targetFiles"));
        // 600 tasks of 50 ms on 2 cores (15 s): all but one would go
        assertEquals(29_950, f.impact().taskMs());
        assertEquals(14_975, f.impact().wallMs());
        assertTrue(f.message().contains("file:/data/small") && f.message().contains("a task of its own"),
                f.message());
        assertTrue(f.recommendation().contains("Compact"), f.recommendation());
        // nothing set below its default: no setting to advise
        assertTrue(f.advice().isEmpty(), f.advice().toString());
    }

    @Test
    void packingSettingsLoweredBelowTheirDefaultsAreAdvisedBack() {
        Finding f = single(Severity.LOW, run(heuristic, read(app().durationMs(100_000)
                .conf("spark.sql.files.maxPartitionBytes", "1k").conf("spark.sql.files.openCostInBytes", "1k"),
                600, 600 * 2 * KiB, 600, 50)));
        SettingAdvice max = f.adviceFor("spark.sql.files.maxPartitionBytes");
        assertEquals("1k", max.currentValue());
        assertEquals("128m", max.recommendedValue());
        assertEquals("4m", f.adviceFor("spark.sql.files.openCostInBytes").recommendedValue());
        // set at their defaults already: nothing to advise
        Finding atDefault = single(Severity.LOW, run(heuristic, read(app().durationMs(100_000)
                .conf("spark.sql.files.maxPartitionBytes", "128m"), 600, 600 * 2 * KiB, 600, 50)));
        assertNull(atDefault.adviceFor("spark.sql.files.maxPartitionBytes"));
    }

    @Test
    void filesReadSeveralToATaskCostAFixedTimeEach() {
        // 120 files in 4 tasks of 2 s: 119 files × 10 ms of the 8 s
        Finding f = single(Severity.LOW, run(heuristic,
                read(app().durationMs(100_000), 120, 120 * 12 * KiB, 4, 2_000)));
        assertEquals(1_190, f.impact().taskMs());
        assertTrue(f.impact().basis().contains("perFileMs"), f.impact().basis());
    }

    @Test
    void manySmallFilesWrittenOverMostOfALongApplicationAreHigh() {
        SnapshotBuilder b = app().durationMs(100_000);
        b.stage(0).slots(2).tasks(600, i -> task().runTime(250)).done();
        AppSnapshot app = plans().execution(3, 0, write("file:/out/small", 900),
                totals(0, 903, 6_000), 0, 0).on(b);
        // the driver reports the write's statistics
        app = SnapshotBuilder.copy(app).sqlExecutions(java.util.List.of(app.sqlExecutions().get(0).toBuilder()
                .metricValues(java.util.Map.of(900L, 600L, 901L, 600 * 900L, 902L, 0L)).build())).build();
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertEquals("SmallFiles:write3.0", f.id());
        assertEquals("file:/out/small", f.details().get("target"));
        // 600 tasks of 250 ms on 2 cores: 75 s, all but one task's worth
        assertEquals(74_875, f.impact().wallMs());
        assertTrue(f.recommendation().contains("coalesce"), f.recommendation());
    }

    @Test
    void largeFilesOrFewFilesAreSilent() {
        silent(run(heuristic, read(app().durationMs(100_000), 600, 600 * 64 * MiB, 600, 50)));
        silent(run(heuristic, read(app().durationMs(100_000), 50, 50 * 2 * KiB, 50, 50)));
        // 600 small files, but their cost is under half a second
        silent(run(heuristic, read(app().durationMs(100_000), 600, 600 * 2 * KiB, 4, 100)));
    }
}
