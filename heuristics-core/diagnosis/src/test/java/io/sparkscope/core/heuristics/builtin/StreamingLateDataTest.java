package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.StreamingRun;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.recorder.StreamingRun.START;
import static io.sparkscope.core.recorder.StreamingRun.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamingLateDataTest {
    private final StreamingLateData heuristic = new StreamingLateData();

    /** 20 batches of 1 000 rows; the watermark trails the newest event time by 10 s; {@code dropped} late rows each. */
    private static AppSnapshot app(long dropped) {
        return StreamingRun.app().query("q1", "sessions").batches(20, i -> batch().rows(1000)
                .eventTimeMax(START + i * 1000L).watermark(i == 0 ? 0 : START + (i - 1) * 1000L - 10_000)
                .state(500, 50_000, 400, i % 2 == 0 ? dropped : 0)).done().build();
    }

    @Test
    void droppedRowsAreNamedWithTheDelayInForceAndALongerOne() {
        Finding f = single(Severity.HIGH, run(heuristic, app(2000)));
        assertTrue(f.message().contains("dropped 20,000 input rows as too late (100 % of its 20,000 input rows),"
                + " in 10 of its 20 batches"), f.message());
        assertEquals(10_000L, f.details().get("watermarkDelayMs"));
        assertTrue(f.recommendation().contains("trails the newest event time by about 10.0 s now;"
                + " .withWatermark(\"<event-time column>\", \"20 seconds\")"), f.recommendation());
        assertTrue(f.recommendation().contains("(500 rows in state now)"), f.recommendation());
    }

    @Test
    void aFewDroppedRowsAreLowAndNoneIsSilent() {
        single(Severity.LOW, run(heuristic, app(5)));
        silent(run(heuristic, app(0)));
    }
}
