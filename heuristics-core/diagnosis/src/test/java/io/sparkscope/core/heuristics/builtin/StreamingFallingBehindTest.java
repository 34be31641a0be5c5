package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.StreamingLimits;
import io.sparkscope.core.recorder.StreamingRun;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.recorder.StreamingRun.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamingFallingBehindTest {
    private final StreamingFallingBehind heuristic = new StreamingFallingBehind();

    /** 60 batches of 2 s; from batch 20 on, rows arrive at {@code input} rows/s and are processed at 600. */
    private static AppSnapshot app(double input, int window, String... conf) {
        StreamingRun r = StreamingRun.app().limits(new StreamingLimits(window, 10));
        for (int i = 0; i + 1 < conf.length; i += 2) {
            r.conf(conf[i], conf[i + 1]);
        }
        return r.query("q1", "clicks").batches(60, i -> batch().rows(1200).durationMs(2000)
                .inputRate(i < 20 ? 500 : input).processedRate(600)).done().build();
    }

    @Test
    void aSustainedDeficitIsHighWithTheRatesAndTheBatchesNamed() {
        Finding f = single(Severity.HIGH, run(heuristic, app(1000, 1000)));
        assertTrue(f.message().contains("processed 600 rows/s while 1,000 rows/s arrived, over 40 consecutive"
                + " batches (1 min 20 s, batches 20–59), and it still does at its latest batch"), f.message());
        assertTrue(f.message().contains("backlog grew by about 400 rows each second"), f.message());
        assertTrue(f.recommendation().contains("about 1.7× its processing rate"), f.recommendation());
        assertTrue(f.recommendation().contains("maxOffsetsPerTrigger"), f.recommendation());
        assertTrue(f.recommendation().contains("addBatch (the query's own work: its Spark jobs) takes 60 %"),
                f.recommendation());
        assertEquals(0.4, f.details().get("deficit"));
        assertEquals("q1", f.details().get("queryId"));
        assertEquals("StreamingFallingBehind:q1-run", f.id());
        assertEquals(32_000, f.impact().wallMs(), "80 s behind × 40 % deficit");
        assertTrue(f.advice().isEmpty(), "local mode: no executor count to change");
    }

    @Test
    void theStreakIsFoundPastTheBatchWindow() {
        assertEquals(Severity.HIGH, single(Severity.HIGH, run(heuristic, app(1000, 5))).severity());
    }

    @Test
    void aSmallDeficitIsLowAndKeepingUpIsSilent() {
        single(Severity.LOW, run(heuristic, app(700, 1000)));
        silent(run(heuristic, app(550, 1000)));
    }

    @Test
    void shortStreaksAreSilent() {
        silent(run(heuristic, app(1000, 1000), Map.of("StreamingFallingBehind.minBatches", "41")));
        silent(run(heuristic, app(1000, 1000), Map.of("StreamingFallingBehind.minMs", "90000")));
    }

    @Test
    void aFixedExecutorCountIsScaledToTheRateNeeded() {
        Finding f = single(Severity.HIGH, run(heuristic, app(1000, 1000, "spark.master", "yarn",
                "spark.executor.instances", "6")));
        assertEquals("10", f.adviceFor("spark.executor.instances").recommendedValue(), "6 × 1000 / 600");
        assertTrue(f.recommendation().contains("spark.executor.instances=10 (now 6)"), f.recommendation());
        Finding dynamic = single(Severity.HIGH, run(heuristic, app(1000, 1000, "spark.master", "yarn",
                "spark.executor.instances", "6", "spark.dynamicAllocation.enabled", "true")));
        assertNull(dynamic.adviceFor("spark.executor.instances"));
    }
}
