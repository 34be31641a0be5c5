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

class DriverTimeTest {
    private final DriverTime heuristic = new DriverTime();

    /** A 100 s application with stages busy over the given [from, to) seconds. */
    private static List<Finding> busy(long[]... spans) {
        var b = app().durationMs(100_000);
        int id = 0;
        for (long[] s : spans) {
            long from = s[0] * 1000;
            long len = (s[1] - s[0]) * 1000;
            b = b.stage(id++).startAt(from).tasks(2, i -> task().runTime(len)).done();
        }
        return run(new DriverTime(), b.build());
    }

    @Test
    void thirtyFivePercentWithoutTasksIsLow() {
        Finding f = single(Severity.LOW, busy(new long[]{5, 50}, new long[]{40, 70}));
        assertEquals(35_000L, f.details().get("noTaskMs"));
    }

    @Test
    void halfWithoutTasksIsHighAndTheLongestGapIsNamed() {
        Finding f = single(Severity.HIGH, busy(new long[]{0, 30}, new long[]{60, 80}));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> gaps = (List<Map<String, Object>>) f.details().get("longestGaps");
        assertEquals(Map.of("startOffsetMs", 30_000L, "durationMs", 30_000L, "afterStage", "0.0", "beforeStage", "1.0"),
                gaps.get(0));
        assertTrue(f.message().contains("after stage 0.0 before stage 1.0"), f.message());
    }

    @Test
    void busyOrShortApplicationsAreSilent() {
        silent(busy(new long[]{2, 95}));
        silent(run(heuristic, app().durationMs(30_000).build()));
    }
}
