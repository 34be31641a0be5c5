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
        return new SqlExecutionSummary(1, "q", 1000, end, error, "plan", null, List.of(jobIds), Map.of());
    }

    private static JobSummary job(int id, JobStatus status) {
        return new JobSummary(id, "j", null, null, 1000, 1100, status, null, List.of(0), 1, 1, 1, 0, 0, 0, 0, 1, 0,
                0, 1, 0, Map.of(), List.of());
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
