package com.example.sparkscope;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.recorder.Recorder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The custom heuristic is found through ServiceLoader next to the built-in ones and can be tuned. */
class ManyShortJobsTest {
    private static Recorder appWithShortJobs(int jobs) {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart("loop", "app-loop", null, 1000, "u"));
        for (int i = 0; i < jobs; i++) {
            r.onEvent(new SparkEvent.JobStart(i, 2000 + i * 100L, List.of(), List.of(), Map.of()));
            r.onEvent(new SparkEvent.JobEnd(i, 2050 + i * 100L, true, null));
        }
        r.onEvent(new SparkEvent.ApplicationEnd(2000 + jobs * 100L));
        return r;
    }

    @Test
    void foundBesideTheBuiltInHeuristicsAndFires() {
        List<Finding> findings = Diagnoser.defaults().diagnose(appWithShortJobs(150).snapshot());
        Finding f = findings.stream().filter(x -> x.heuristic().equals(ManyShortJobs.ID)).findFirst().orElseThrow();
        assertEquals(149 * 50L, f.impact().wallMs()); // 150 jobs of 50 ms, batched into one
        assertEquals("FAIR", f.adviceFor("spark.scheduler.mode").recommendedValue());
        assertTrue(f.recommendation().contains("spark.scheduler.mode=FAIR (now FIFO, the default)"), f.recommendation());
    }

    @Test
    void silentBelowItsThresholdAndTunable() {
        assertTrue(Diagnoser.defaults().diagnose(appWithShortJobs(20).snapshot()).stream()
                .noneMatch(f -> f.heuristic().equals(ManyShortJobs.ID)));
        Diagnoser tuned = Diagnoser.withOverrides(Map.of("ManyShortJobs.minJobs", "10"), "test");
        assertEquals(1, tuned.diagnose(appWithShortJobs(20).snapshot()).stream()
                .filter(f -> f.heuristic().equals(ManyShortJobs.ID)).count());
    }
}
