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

class DriverGcTest {
    private final DriverGc heuristic = new DriverGc();

    @Test
    void fifteenPercentIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app().durationMs(100_000).driverGcMs(15_000).build()));
        assertEquals(List.of("driver"), f.executorIds());
    }

    @Test
    void thirtyPercentIsHigh() {
        single(Severity.HIGH, run(heuristic, app().durationMs(100_000).driverGcMs(30_000).build()));
    }

    @Test
    void unknownOrSmallGcIsSilent() {
        silent(run(heuristic, app().durationMs(100_000).driverGcMs(-1).build()));
        silent(run(heuristic, app().durationMs(100_000).driverGcMs(2_000).build()));
        silent(run(heuristic, app().durationMs(30_000).driverGcMs(4_000).build())); // short: only extremes count
        silent(run(heuristic, app().durationMs(8_000).driverGcMs(6_000).build())); // below the floor
    }
}
