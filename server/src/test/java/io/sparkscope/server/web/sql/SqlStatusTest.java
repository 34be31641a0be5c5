package io.sparkscope.server.web.sql;

import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.SqlExecutionSummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The status Spark's History Server (4.0) gives a SQL execution, from its end's message first, then its jobs. */
class SqlStatusTest {

    private static SqlExecutionSummary sql(long end, String error, Integer... jobIds) {
        return SqlExecutionSummary.builder().executionId(1).description("q").startTime(1000).endTime(end)
                .errorMessage(error).physicalPlanDescription("plan").jobIds(List.of(jobIds)).build();
    }

    private static JobSummary job(int id, JobStatus status) {
        return JobSummary.builder().jobId(id).name("j").submissionTime(1000).completionTime(1100).status(status)
                .stageIds(List.of(0)).sqlExecutionId(1).numTasks(1).numCompletedTasks(1).numActiveTasks(0)
                .numCompletedIndices(1).numSkippedTasks(0).numActiveStages(0).numCompletedStages(1).numFailedStages(0)
                .build();
    }

    private static String status(SqlExecutionSummary sql, JobSummary... jobs) {
        Map<Integer, JobSummary> byId = new java.util.HashMap<>();
        for (JobSummary j : jobs) {
            byId.put(j.jobId(), j);
        }
        return SqlStatus.of(sql, byId).status();
    }

    @Test
    void anExecutionThatEndedWithAnErrorAndRanNoJobFailed() {
        assertEquals("FAILED", status(sql(2000, "org.apache.spark.sql.AnalysisException: table exists")));
    }

    @Test
    void theEndsMessageDecidesBeforeTheJobs() {
        // Spark 3.4+ reports a success as an empty message: completed, though one of its jobs failed
        assertEquals("COMPLETED", status(sql(2000, "", 0, 1), job(0, JobStatus.FAILED), job(1, JobStatus.SUCCEEDED)));
        assertEquals("FAILED", status(sql(2000, "boom", 0), job(0, JobStatus.SUCCEEDED)));
    }

    @Test
    void withoutAMessageTheEndAndTheJobsDecide() {
        assertEquals("RUNNING", status(sql(-1, null, 0), job(0, JobStatus.FAILED)));
        assertEquals("FAILED", status(sql(2000, null, 0, 1), job(0, JobStatus.FAILED), job(1, JobStatus.SUCCEEDED)));
        assertEquals("COMPLETED", status(sql(2000, null, 0), job(0, JobStatus.RUNNING)));
        assertEquals("COMPLETED", status(sql(2000, null)));
    }
}
