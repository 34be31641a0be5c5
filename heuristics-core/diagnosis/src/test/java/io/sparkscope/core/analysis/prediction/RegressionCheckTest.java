package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegressionCheckTest {
    /** A run of {@code durationMs} whose single task ran {@code taskMs} on an executor. */
    static AppSnapshot run(String id, long durationMs, long taskMs) {
        return SnapshotBuilder.dagApp("nightly").id(id).durationMs(durationMs).executors(1, 1).job(0, 0, durationMs, 0)
                .stage(0, 0).window(0, taskMs).tasks(taskMs).done().build();
    }

    private static final List<AppSnapshot> PREVIOUS = List.of(run("a", 10_000, 5_000), run("b", 12_000, 6_000),
            run("c", 11_000, 5_500));

    @Test
    void aRunNearTheMedianHasNoFinding() {
        assertEquals(Optional.empty(), RegressionCheck.check(run("d", 14_000, 7_000), PREVIOUS));
    }

    @Test
    void oneAndAHalfTimesTheMedianDurationIsLow() {
        Finding f = RegressionCheck.check(run("d", 16_500, 5_500), PREVIOUS).orElseThrow();
        assertEquals("Regression", f.heuristic());
        assertEquals("Regression", f.id());
        assertEquals(Severity.LOW, f.severity());
        assertEquals("duration", f.details().get("metric"));
        assertEquals(1.5, (double) f.details().get("ratio"), 1e-12);
        assertEquals(11_000.0, f.details().get("medianDurationMs"));
        assertEquals(3, f.details().get("previousRuns"));
        assertEquals("This run's wall time is 1.5× the median of the previous 3 runs of 'nightly' (wall time 16.5 s"
                + " against a median of 11.0 s; task time 5.5 s against 5.5 s).", f.message(), "human units");
        assertEquals(5_500, f.impact().wallMs(), "the time above the median is what a fix would win back");
        assertEquals(0, f.impact().taskMs());
    }

    @Test
    void twiceTheMedianTaskTimeIsHighEvenWhenWallTimeHeld() {
        Finding f = RegressionCheck.check(run("d", 11_000, 11_000), PREVIOUS).orElseThrow();
        assertEquals(Severity.HIGH, f.severity());
        assertEquals("taskTime", f.details().get("metric"));
        assertEquals(2.0, (double) f.details().get("taskTimeRatio"), 1e-12);
    }

    @Test
    void factorsAreConfigurableAndTheRunItselfIsNotItsOwnBaseline() {
        AppSnapshot current = run("d", 13_200, 5_500);
        assertEquals(Severity.LOW, RegressionCheck.check(current, PREVIOUS, 1.2, 3.0).orElseThrow().severity());
        assertEquals(Optional.empty(), RegressionCheck.check(current, List.of(current)));
        assertEquals(Optional.empty(), RegressionCheck.check(current, List.of()));
        assertThrows(IllegalArgumentException.class, () -> RegressionCheck.check(current, PREVIOUS, 2.0, 1.5));
    }

    @Test
    void medianOfAnEvenCountIsTheMidpoint() {
        assertEquals(2.5, RegressionCheck.median(new long[]{4, 1, 3, 2}), 1e-12);
        assertTrue(RegressionCheck.median(new long[]{7}) == 7);
    }
}
