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

class LongTasksTest {
    private final LongTasks heuristic = new LongTasks();

    private static List<Finding> median(long ms) {
        return run(new LongTasks(), app().stage(8).tasks(20, i -> task().runTime(ms)).done().build());
    }

    @Test
    void sixMinuteTasksAreLow() {
        Finding f = single(Severity.LOW, median(360_000));
        assertEquals(60L, f.details().get("suggestedPartitions"));
    }

    @Test
    void twentyMinuteTasksAreHigh() {
        single(Severity.HIGH, median(1_200_000));
    }

    @Test
    void minuteTasksAreSilent() {
        silent(median(60_000));
    }
}
