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

class ExecutorLoadImbalanceTest {
    private final ExecutorLoadImbalance heuristic = new ExecutorLoadImbalance();

    private static List<Finding> loads(long... seconds) {
        var b = app().master("yarn");
        for (int i = 0; i < seconds.length; i++) {
            b.executor(String.valueOf(i + 1), 4, seconds[i] * 1000);
        }
        return run(new ExecutorLoadImbalance(), b.build());
    }

    @Test
    void twiceTheMedianIsLow() {
        Finding f = single(Severity.LOW, loads(100, 100, 100, 200));
        assertEquals("4", f.executorIds().get(0));
        assertEquals(2.0, f.details().get("ratio"));
    }

    @Test
    void fourTimesTheMedianIsHigh() {
        single(Severity.HIGH, loads(100, 100, 100, 400));
    }

    @Test
    void balancedFewOrShortAreSilent() {
        silent(loads(100, 110, 120, 130));
        silent(loads(100, 400)); // two executors
        silent(loads(10, 10, 10, 40)); // 70 s of task time
    }
}
