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

class DynamicAllocationConfigTest {
    private final DynamicAllocationConfig heuristic = new DynamicAllocationConfig();

    @Test
    void noShuffleServiceOnOldSparkIsHigh() {
        single(Severity.HIGH, run(heuristic, app().master("yarn").sparkVersion("3.3.2")
                .conf("spark.dynamicAllocation.enabled", "true").build()));
        single(Severity.HIGH, run(heuristic, app().master("yarn").sparkVersion("4.0.4")
                .conf("spark.dynamicAllocation.enabled", "true")
                .conf("spark.dynamicAllocation.shuffleTracking.enabled", "false").build()));
    }

    @Test
    void unknownSparkVersionIsOnlyLow() {
        single(Severity.LOW, run(heuristic, app().master("yarn").sparkVersion(null)
                .conf("spark.dynamicAllocation.enabled", "true").build()));
    }

    @Test
    void shuffleServiceTrackingDefaultOrLocalModeAreSilent() {
        silent(run(heuristic, app().master("yarn").sparkVersion("3.3.2").conf("spark.dynamicAllocation.enabled", "true")
                .conf("spark.shuffle.service.enabled", "true").build()));
        silent(run(heuristic, app().master("yarn").sparkVersion("3.5.1")
                .conf("spark.dynamicAllocation.enabled", "true").build()));
        silent(run(heuristic, app().master("local[4]").sparkVersion("3.3.2")
                .conf("spark.dynamicAllocation.enabled", "true").build()));
    }
}
