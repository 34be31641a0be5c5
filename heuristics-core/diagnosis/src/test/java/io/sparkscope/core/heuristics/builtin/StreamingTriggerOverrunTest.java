package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.StreamingRun;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.recorder.StreamingRun.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamingTriggerOverrunTest {
    private final StreamingTriggerOverrun heuristic = new StreamingTriggerOverrun();

    /** 20 batches against a 1 s trigger; every {@code every}-th takes 2.6 s, the others 400 ms. */
    private static AppSnapshot app(long triggerMs, int every) {
        return StreamingRun.app().query("q1", "orders").triggerMs(triggerMs)
                .batches(20, i -> batch().durationMs(i % every == 0 ? 2600 : 400)).done().build();
    }

    @Test
    void mostBatchesOverTheTriggerIsHighWithATriggerTheyFitIn() {
        Finding f = single(Severity.HIGH, run(heuristic, app(1000, 1)));
        assertTrue(f.message().startsWith("20 of the 20 batches of query 'orders' (100 %) took longer than its"
                + " 1.0 s trigger"), f.message());
        assertEquals(5000L, f.details().get("suggestedTriggerMs"), "2.6 s rounded up to 5 s");
        assertTrue(f.recommendation().contains(".trigger(Trigger.ProcessingTime(\"5 seconds\"))"),
                f.recommendation());
    }

    @Test
    void someBatchesOverIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app(1000, 10)));
        assertEquals(2L, f.details().get("batchesOverTrigger"));
        assertEquals(0.1, f.details().get("share"));
        assertEquals(2000L, f.details().get("suggestedTriggerMs"), "nine in ten batches take 400 ms; above 1 s");
    }

    @Test
    void withoutAKnownTriggerOrWithBatchesThatFitItIsSilent() {
        silent(run(heuristic, StreamingRun.app().query("q1", "orders")
                .batches(20, i -> batch().durationMs(2600)).done().build()));
        silent(run(heuristic, app(5000, 1)));
    }
}
