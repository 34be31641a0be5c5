package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StageSkewTest {
    private final StageSkew heuristic = new StageSkew();

    @Test
    void fiveTimesMedianIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app().durationMs(200_000) // the 20 s stage is 10 %
                .stage(3).tasks(100, i -> task().runTime(i == 0 ? 20_000 : 4_000).input(i == 0 ? 800 * MiB : 100 * MiB))
                .done().build()));
        assertEquals("StageSkew:3.0", f.id());
        assertEquals(5.0, f.details().get("ratio"));
        assertEquals(16_000L, f.details().get("excessMs"));
        assertTrue(f.message().contains("data is skewed"), f.message());
        @SuppressWarnings("unchecked")
        Map<String, Object> dist = (Map<String, Object>) f.details().get("distributions");
        assertEquals(List.of(4000L, 4000L, 4000L, 4000L, 4000L, 4000L, 20000L), dist.get("executorRunTime"));
    }

    @Test
    void thirtyTimesMedianIsHighAndStagesAreOrderedByTimeLost() {
        List<Finding> findings = run(heuristic, app().durationMs(600_000)
                .stage(1).skewed(100, 30_000, 2_000).done()
                .stage(2).skewed(100, 60_000, 2_000).done()
                .build());
        assertEquals(List.of("StageSkew:2.0", "StageSkew:1.0"), findings.stream().map(Finding::id).toList());
        assertEquals(Severity.HIGH, findings.get(0).severity());
    }

    @Test
    void stageThatDoesNotMatterIsSilent() {
        // 5 s of a 10 min application (< 5 %): even a 50x skew costs little.
        silent(run(heuristic, app().durationMs(600_000)
                .stage(1).skewed(100, 5_000, 100).done().build()));
        // Even tasks.
        silent(run(heuristic, app().durationMs(600_000)
                .stage(1).tasks(100, i -> task().runTime(40_000)).done().build()));
    }
}
