package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.StreamingRun;
import org.junit.jupiter.api.Test;

import java.util.function.IntToLongFunction;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.recorder.StreamingRun.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamingStateGrowthTest {
    private final StreamingStateGrowth heuristic = new StreamingStateGrowth();

    /** 40 one-second batches; state rows per batch as given, 100 bytes a row. */
    private static AppSnapshot app(IntToLongFunction rows, long bytesPerRow, boolean watermark) {
        return StreamingRun.app().query("q1", "sessions").batches(40, i -> {
            StreamingRun.Batch b = batch().durationMs(1000).gapBeforeMs(0)
                    .state(rows.applyAsLong(i), rows.applyAsLong(i) * bytesPerRow, 0, 0);
            return watermark ? b.watermark(0) : b;
        }).done().build();
    }

    @Test
    void stateThatOnlyGrowsWithoutAWatermarkIsLowWithAProjection() {
        Finding f = single(Severity.LOW, run(heuristic, app(i -> 1000 + 1000L * i, 100, false)));
        assertTrue(f.message().contains("The state of operator 0 (stateStoreSave) of query 'sessions' grew from 1,000"
                + " to 40,000 rows"), f.message());
        assertTrue(f.message().contains("no row was removed, the query defines no watermark"), f.message());
        // 39 000 rows in 40 s: 84 240 000 more a day, 100 bytes each
        assertEquals(Math.round((40_000 + 39_000.0 * 86_400_000 / 40_000) * 100), f.details().get("projectedBytesInADay"));
        assertTrue(f.recommendation().contains(".withWatermark(\"<event-time column>\""), f.recommendation());
        assertEquals("StreamingStateGrowth:q1-run:0", f.id());
        assertTrue(f.advice().isEmpty());
    }

    @Test
    void aLargeStateIsHighAndIsSentToRocksDb() {
        Finding f = single(Severity.HIGH, run(heuristic, app(i -> 1000 + 1000L * i, 40_000, true)));
        assertTrue(f.message().contains("its watermark never advanced"), f.message());
        assertEquals(StreamingStateGrowth.ROCKSDB_PROVIDER,
                f.adviceFor(StreamingStateGrowth.PROVIDER_KEY).recommendedValue());
        assertTrue(f.recommendation().contains(StreamingStateGrowth.PROVIDER_KEY + "="
                + StreamingStateGrowth.ROCKSDB_PROVIDER + " (now " + StreamingStateGrowth.HDFS_PROVIDER
                + ", the default)"), f.recommendation());
        assertTrue(f.recommendation().contains("new checkpoint location"), f.recommendation());
        assertTrue((long) f.details().get("memoryUsedBytes") >= Units.GiB);
    }

    @Test
    void stateThatShrinksOrStaysSmallIsSilent() {
        silent(run(heuristic, app(i -> i % 10 == 9 ? 500 : 1000 + 1000L * i, 100, true)));
        silent(run(heuristic, app(i -> 100 + i, 100, false)));
        // grew by far less than 2×
        silent(run(heuristic, app(i -> 30_000 + i, 100, false)));
    }

    @Test
    void rocksDbAlreadyInForceIsNotAdvised() {
        AppSnapshot app = StreamingRun.app().conf(StreamingStateGrowth.PROVIDER_KEY, StreamingStateGrowth.ROCKSDB_PROVIDER)
                .query("q1", null).batches(40, i -> batch().state(1000 + 1000L * i, (1000 + 1000L * i) * 40_000, 0, 0))
                .done().build();
        Finding f = single(Severity.HIGH, run(heuristic, app));
        assertNull(f.adviceFor(StreamingStateGrowth.PROVIDER_KEY));
        assertTrue(f.title().contains("query q1"), f.title());
    }
}
