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
    void twentyPercentIsHighWhenTheFailedAttemptsCostMinutes() {
        // 20 failed attempts of 5 s each: 100 s of task time thrown away
        single(Severity.HIGH, run(new TaskFailure(), app().stage(4)
                .tasks(100, i -> i < 20 ? task().runTime(5_000).failed("java.lang.NullPointerException: x\n\tat Foo")
                        : task())
                .done().build()));
    }

    @Test
    void aFewCheapFailedAttemptsInAStageThatCompletedAreLowHoweverLargeTheirShare() {
        // 20 % of the attempts failed, but they took 20 s of task time in all and the stage completed: a tip
        Finding f = single(Severity.LOW, stageWithFailures(100, 20));
        assertTrue(f.impact().taskMs() < 60_000, f.impact().toString());
        // the same cheap failures where one task failed twice, half the 4 attempts spark.task.maxFailures allows:
        // the job nearly failed, so it stays HIGH
        single(Severity.HIGH, run(new TaskFailure(), app().stage(4)
                .tasks(100, i -> i < 20 ? task().index(i == 1 ? 0 : i).failed("java.lang.NullPointerException: x")
                        : task())
                .done().build()));
        // the same cheap failures in a stage that failed are still HIGH: the retries did not absorb them
        single(Severity.HIGH, run(new TaskFailure(), app().stage(4).failed("Task 3 failed 4 times")
                .tasks(100, i -> i < 20 ? task().failed("java.lang.NullPointerException: x\n\tat Foo") : task())
                .done().build()));
    }

    @Test
    void fewFailuresOrTinyStagesAreSilent() {
        silent(stageWithFailures(100, 2));
        silent(stageWithFailures(9, 3)); // below TaskFailure.minTasks
    }

    @Test
    void failuresInAStageBesideALongerOneSaveNoWallTime() {
        // 100 tasks of 1 s on 4 cores, 6 of them failed attempts: 6 s of task time, 1.5 s of the stage's wall time
        var alone = app().local(4).stage(4).slots(4)
                .tasks(100, i -> i < 6 ? task().failed("java.lang.NullPointerException: x\n\tat Foo") : task())
                .done();
        assertEquals(1_500, single(Severity.LOW, run(new TaskFailure(), alone.build())).impact().wallMs());
        // the same stage while another job's stage ran from start to well after it: the run would not end sooner
        var beside = alone.stage(5).jobs(1).durationMs(40_000).task(task().runTime(40_000)).done();
        Finding f = single(Severity.LOW, run(new TaskFailure(), beside.build()));
        assertEquals(6_000, f.impact().taskMs());
        assertEquals(0, f.impact().wallMs(), f.impact().toString());
    }
}
