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

/** LargePartition has no HIGH level. */
class LargePartitionTest {
    private final LargePartition heuristic = new LargePartition();

    @Test
    void sixGigabyteTaskIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app().stage(1)
                .tasks(10, i -> task().shuffleRead(i == 0 ? 6 * GiB : 100 * MiB).executor(i == 0 ? "9" : "1")).done().build()));
        assertEquals("shuffleReadMetrics.readBytes", f.details().get("metric"));
        assertEquals(List.of("9"), f.executorIds());
    }

    @Test
    void aFailedHugeTaskCountsToo() {
        single(Severity.LOW, run(heuristic, app().stage(1)
                .tasks(10, i -> i == 0 ? task().input(7 * GiB).failed("OutOfMemoryError") : task()).done().build()));
    }

    @Test
    void partitionsUpToFiveGigabytesAreSilent() {
        silent(run(heuristic, app().stage(1).tasks(10, i -> task().output(4 * GiB)).done().build()));
    }
}
