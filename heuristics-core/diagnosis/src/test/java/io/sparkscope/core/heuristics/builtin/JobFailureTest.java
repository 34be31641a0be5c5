package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StreamingQuerySummary;
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

    /** An application whose streaming query run "run-1" ended as {@code status}, with job 1 cancelled as it ended. */
    private static AppSnapshot queryEnded(StreamingQuerySummary.Status status, String jobGroup) {
        AppSnapshot s = app().job(0, JobStatus.SUCCEEDED, null).build();
        JobSummary cancelled = JobSummary.builder().jobId(1).name("batch 7").jobGroup(jobGroup)
                .submissionTime(s.startTime() + 1_000).completionTime(s.startTime() + 2_000)
                .status(JobStatus.FAILED).failureReason("Job 1 cancelled part of cancelled job group run-1").build();
        return s.toBuilder().jobs(List.of(s.jobs().get(0), cancelled))
                .streamingQueries(List.of(StreamingQuerySummary.builder().queryId("q").runId("run-1")
                        .startTime(s.startTime()).endTime(s.startTime() + 2_000).status(status)
                        .exception(status == StreamingQuerySummary.Status.FAILED ? "boom" : null).build()))
                .build();
    }

    @Test
    void jobsCancelledBecauseTheirStreamingQueryStoppedAreNotFailures() {
        silent(run(heuristic, queryEnded(StreamingQuerySummary.Status.STOPPED, "run-1")));
        // a query that failed did lose its batch; a cancelled job of another group is still a failure
        single(Severity.HIGH, run(heuristic, queryEnded(StreamingQuerySummary.Status.FAILED, "run-1")));
        single(Severity.HIGH, run(heuristic, queryEnded(StreamingQuerySummary.Status.STOPPED, "nightly")
                .toBuilder().streamingQueries(List.of(StreamingQuerySummary.builder().queryId("q").runId("run-9")
                        .status(StreamingQuerySummary.Status.STOPPED).build())).build()));
    }
}
