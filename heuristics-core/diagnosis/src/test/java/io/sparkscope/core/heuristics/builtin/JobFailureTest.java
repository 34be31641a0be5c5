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

/** JobFailure has no LOW level: a failed job is always HIGH. */
class JobFailureTest {
    private final JobFailure heuristic = new JobFailure();

    @Test
    void failedJobIsHigh() {
        Finding f = single(Severity.HIGH, run(heuristic, app()
                .job(0, JobStatus.SUCCEEDED, null)
                .job(1, JobStatus.FAILED, "Job aborted due to stage failure: Task 3 failed 4 times\nat line 2")
                .stage(1).failed("boom").tasks(1, i -> task()).done()
                .build()));
        assertEquals("JobFailure", f.id());
        assertEquals(List.of(1), f.details().get("failedJobIds"));
        assertTrue(f.message().contains("1 of 2 jobs"), f.message());
        assertTrue(f.message().contains("Task 3 failed 4 times") && !f.message().contains("line 2"), f.message());
    }

    @Test
    void succeededJobsAreSilent() {
        silent(run(heuristic, app().job(0, JobStatus.SUCCEEDED, null).job(1, JobStatus.RUNNING, null).build()));
    }
}
