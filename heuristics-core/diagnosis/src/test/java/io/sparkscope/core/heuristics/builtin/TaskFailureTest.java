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

class TaskFailureTest {
    private final TaskFailure heuristic = new TaskFailure();

    private static List<Finding> stageWithFailures(int total, int failed) {
        return run(new TaskFailure(), app().stage(4)
                .tasks(total, i -> i < failed ? task().failed("java.lang.NullPointerException: x\n\tat Foo") : task())
                .done().build());
    }

    @Test
    void sixPercentIsLow() {
        Finding f = single(Severity.LOW, stageWithFailures(100, 6));
        assertEquals("TaskFailure:4.0", f.id());
        assertEquals(Map.of("ExceptionFailure", 6), f.details().get("endReasons"));
        assertEquals(List.of(Map.of("error", "java.lang.NullPointerException: x", "count", 6)),
                f.details().get("topErrors"));
    }

    @Test
    void twentyPercentIsHigh() {
        single(Severity.HIGH, stageWithFailures(100, 20));
    }

    @Test
    void fewFailuresOrTinyStagesAreSilent() {
        silent(stageWithFailures(100, 2));
        silent(stageWithFailures(9, 3)); // below TaskFailure.minTasks
    }
}
