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

    /** A run that read {@code inputBytes} with settings {@code conf} (key, value, key, value …). */
    static AppSnapshot run(String id, long startOffset, long durationMs, long taskMs, long inputBytes, String... conf) {
        SnapshotBuilder b = SnapshotBuilder.dagApp("nightly").id(id).durationMs(durationMs).executors(1, 1);
        for (int i = 0; i < conf.length; i += 2) {
            b.conf(conf[i], conf[i + 1]);
        }
        AppSnapshot s = b.job(0, 0, durationMs, 0).stage(0, 0).name("load at Nightly.scala:10").window(0, taskMs / 4)
                .tasks(taskMs / 4).inputBytes(inputBytes).done()
                .job(1, 0, durationMs, 1).stage(1, 1).name("aggregate at Nightly.scala:20").window(0, taskMs)
                .tasks(taskMs - taskMs / 4).done().build();
        return SnapshotBuilder.copy(s).startTime(s.startTime() + startOffset).endTime(s.endTime() + startOffset).build();
    }

    private static final long GB = 1L << 30;

    private static List<AppSnapshot> nightlies(String... conf) {
        return List.of(run("n1", 0, 10_000, 8_000, GB, conf), run("n2", 1, 10_500, 8_400, GB, conf),
                run("n3", 2, 9_500, 7_600, GB, conf));
    }

    @Test
    void twiceTheInputInTwiceTheTimeIsNoRegressionButInputThatGrew() {
        AppSnapshot doubled = run("n4", 3, 21_000, 16_800, 2 * GB);
        assertEquals(Optional.empty(), RegressionCheck.check(doubled, nightlies()));
        RegressionCheck.Verdict v = RegressionCheck.judge(RegressionCheck.Run.of(doubled),
                nightlies().stream().map(RegressionCheck.Run::of).toList(), 1.5, 2.0);
        assertEquals(RegressionCheck.Outcome.INPUT_GREW, v.outcome());
        assertEquals(2.0, v.inputRatio(), 1e-9);
        assertTrue(v.perByteDurationRatio() < 1.5, "time per byte held: " + v.perByteDurationRatio());
    }

    @Test
    void slowerPerByteOfTheSameInputIsARegressionThatSaysWhatItReadAndWhatChanged() {
        AppSnapshot slow = run("n4", 3, 21_000, 16_800, GB, "spark.sql.shuffle.partitions", "2000");
        Finding f = RegressionCheck.check(slow, nightlies("spark.sql.shuffle.partitions", "200")).orElseThrow();
        assertEquals(Severity.HIGH, f.severity());
        assertEquals(1.0, (double) f.details().get("inputRatio"), 1e-9);
        assertEquals(2.1, (double) f.details().get("perByteDurationRatio"), 1e-9);
        assertTrue(f.message().contains("It read 1.0 GiB of input, 1.0× the usual, and took 2.1× the usual wall time"
                + " per byte of input."), f.message());
        assertTrue(f.message().contains("Settings changed since n3: spark.sql.shuffle.partitions 200 → 2000."),
                "against the newest previous run: " + f.message());
        assertEquals(List.of("spark.sql.shuffle.partitions"), f.configKeys());
        assertEquals(List.of(java.util.Map.of("key", "spark.sql.shuffle.partitions", "before", "200", "after", "2000")),
                f.details().get("settingsChanged"));
        assertTrue(f.recommendation().contains("previous values"), f.recommendation());
        @SuppressWarnings("unchecked")
        List<java.util.Map<String, Object>> stages = (List<java.util.Map<String, Object>>) f.details().get("stagesGrown");
        assertEquals("job #2: aggregate at Nightly.scala:20", stages.get(0).get("stage"), "the stage that grew most first");
        @SuppressWarnings("unchecked")
        List<java.util.Map<String, Object>> data = (List<java.util.Map<String, Object>>) f.details().get("dataReadWritten");
        assertEquals("input read", data.get(0).get("data"));
        assertEquals(GB, data.get(0).get("thisRunBytes"));
    }

    @Test
    void inputThatGrewWhileTimePerByteGrewTooIsStillARegression() {
        // twice the input in four times the time: the time per byte doubled
        AppSnapshot slow = run("n4", 3, 40_000, 32_000, 2 * GB);
        Finding f = RegressionCheck.check(slow, nightlies()).orElseThrow();
        assertEquals(Severity.HIGH, f.severity());
        assertEquals(2.0, (double) f.details().get("inputRatio"), 1e-9);
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
