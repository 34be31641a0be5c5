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

class DynamicAllocationMinMaxTest {
    private final DynamicAllocationMinMax heuristic = new DynamicAllocationMinMax();

    private static io.sparkscope.core.testing.SnapshotBuilder da() {
        return app().master("yarn").conf("spark.dynamicAllocation.enabled", "true");
    }

    @Test
    void unboundedOrHugeMaxIsLow() {
        assertEquals("DynamicAllocationMinMax:maxUnset", single(Severity.LOW, run(heuristic, da().build())).id());
        assertEquals("DynamicAllocationMinMax:maxTooLarge", single(Severity.LOW, run(heuristic,
                da().conf("spark.dynamicAllocation.maxExecutors", "1000").build())).id());
    }

    @Test
    void inconsistentBoundsAreHigh() {
        assertEquals("DynamicAllocationMinMax:minAboveMax", single(Severity.HIGH, run(heuristic,
                da().conf("spark.dynamicAllocation.minExecutors", "10")
                        .conf("spark.dynamicAllocation.maxExecutors", "5").build())).id());
        assertEquals("DynamicAllocationMinMax:initialOutside", single(Severity.HIGH, run(heuristic,
                da().conf("spark.dynamicAllocation.minExecutors", "2").conf("spark.dynamicAllocation.maxExecutors", "20")
                        .conf("spark.dynamicAllocation.initialExecutors", "40").build())).id());
    }

    @Test
    void sensibleBoundsAreSilent() {
        silent(run(heuristic, da().conf("spark.dynamicAllocation.minExecutors", "1")
                .conf("spark.dynamicAllocation.maxExecutors", "50")
                .conf("spark.dynamicAllocation.initialExecutors", "2").build()));
        silent(run(heuristic, app().master("yarn").build())); // no dynamic allocation
    }
}
