package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sparkscope.core.testing.SnapshotBuilder.dagApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Time and cost with recommended settings, on a hand-built run whose numbers are worked out by hand. */
class TunedWhatIfTest {
    // 2 executors × 2 cores (4 slots), eight 2 s tasks between 1 s and 5 s of a 10 s run: 6 s of driver time.
    private static AppSnapshot run() {
        return dagApp("tuned").conf("spark.master", "yarn").conf("spark.executor.memory", "4g")
                .durationMs(10_000).executors(2, 2).job(0, 500, 5_500, 0)
                .stage(0, 0).window(1_000, 5_000).tasks(2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000)
                .done().build();
    }

    @Test
    void executorsAndCoresAreReplayedMemoryIsPricedTheRestIsNotModelled() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.executor.instances", "4");
        settings.put("spark.executor.cores", "1");
        settings.put("spark.executor.memory", "2g");
        settings.put("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
        TunedWhatIf w = TunedWhatIf.of(run(), settings, Prices.NONE);

        assertEquals(10_000, w.measuredMs());
        assertEquals(2, w.today().executors());
        assertEquals(2, w.today().coresPerExecutor());
        assertEquals(6_000 + 4_000, w.today().wallMs()); // two waves of 2 s on 4 slots
        assertEquals(4, w.tuned().executors());
        assertEquals(1, w.tuned().coresPerExecutor());
        assertEquals(6_000 + 4_000, w.tuned().wallMs()); // still 4 slots
        // 4 executors × 1 core against 2 × 2 for as long: the same core-hours
        assertEquals(w.today().coreHours(), w.tuned().coreHours(), 1e-12);
        // 4g + 384m overhead against 2g + 384m, twice as many containers
        assertEquals((2048.0 + 384) * 4 / ((4096.0 + 409) * 2), w.tuned().gbHours() / w.today().gbHours(), 0.01);
        assertEquals(List.of("spark.executor.instances", "spark.executor.cores"), w.modelled());
        assertEquals(List.of("spark.executor.memory"), w.costOnly());
        assertEquals(List.of("spark.serializer"), w.notModelled());
    }

    @Test
    void moreCoresPerExecutorAreMoreSlots() {
        TunedWhatIf w = TunedWhatIf.of(run(), Map.of("spark.executor.cores", "4"), Prices.NONE);
        assertEquals(6_000 + 2_000, w.tuned().wallMs()); // one wave on 8 slots
        assertEquals(-0.2, w.timeChange(), 1e-9);
    }

    @Test
    void nothingTheModelKnowsIsNotModelled() {
        TunedWhatIf w = TunedWhatIf.of(run(), Map.of("spark.sql.shuffle.partitions", "400"), Prices.NONE);
        assertNull(w.tuned());
        assertEquals(List.of("spark.sql.shuffle.partitions"), w.notModelled());
        assertEquals(0, w.timeChange());
    }
}
