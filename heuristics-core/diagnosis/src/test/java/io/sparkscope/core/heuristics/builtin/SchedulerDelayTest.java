package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
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

class SchedulerDelayTest {
    private final SchedulerDelay heuristic = new SchedulerDelay();

    private static List<Finding> delays(int tasks, long runMs, long delayMs, long resultMs) {
        return run(new SchedulerDelay(), app().stage(6).durationMs(10_000)
                .tasks(tasks, i -> task().runTime(runMs).schedulerDelay(delayMs).gettingResult(resultMs)).done().build());
    }

    @Test
    void quarterOfTaskTimeOnTheDriverIsLow() {
        Finding f = single(Severity.LOW, delays(30, 900, 300, 0));
        assertEquals(0.25, f.details().get("driverShare"));
        assertTrue(f.message().contains("stamped by the driver"), f.message());
    }

    @Test
    void mostlyDriverTimeIsHighAndNamesResultFetching() {
        single(Severity.HIGH, delays(30, 400, 600, 0));
        Finding f = single(Severity.HIGH, delays(30, 400, 0, 600));
        assertTrue(f.message().contains("gettingResultTime"), f.message());
        assertTrue(f.recommendation().contains("collect()"), f.recommendation());
    }

    @Test
    void fewTasksOrSmallDelaysAreSilent() {
        silent(delays(10, 400, 600, 0));
        silent(delays(30, 1000, 50, 0));
    }
}
