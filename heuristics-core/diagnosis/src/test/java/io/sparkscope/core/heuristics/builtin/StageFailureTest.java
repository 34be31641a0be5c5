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

/** StageFailure has no LOW level: a failed stage attempt is always HIGH. */
class StageFailureTest {
    private final StageFailure heuristic = new StageFailure();

    @Test
    void failedAttemptIsHighWithReasonAndFittingAdvice() {
        Finding f = single(Severity.HIGH, run(heuristic, app()
                .stage(2).attempt(1).failed("org.apache.spark.shuffle.FetchFailedException: Failed to connect\n"
                        + "\tat a\n\tat b\n\tat c\n\tat d\n\tat e\n\tat f").tasks(4, i -> task()).done()
                .build()));
        assertEquals("StageFailure:2.1", f.id());
        assertEquals(List.of("2.1"), f.stageIds());
        assertEquals(5, ((String) f.details().get("failureReason")).lines().count());
        assertTrue(f.recommendation().contains("spark.shuffle.service.enabled"), f.recommendation());
    }

    @Test
    void completedStagesAreSilent() {
        silent(run(heuristic, app().stage(1).tasks(10, i -> task()).done().build()));
    }
}
