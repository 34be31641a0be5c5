package io.sparkscope.server.web.sql;

import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.sql.ScalaSetOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An execution's status and its jobs by status as Spark's SQL REST API derives them (its History Server's, 4.0): the
 * end's message decides first (empty: COMPLETED, Spark 3.4+'s success, even when one of its jobs failed; any other:
 * FAILED, even when it ran no job), then, for an end without one (before Spark 3.4), RUNNING until it ended, FAILED
 * when a job failed, else COMPLETED; jobs in the order of Spark's own set of them.
 */
public record SqlStatus(String status, List<Integer> running, List<Integer> succeeded, List<Integer> failed) {

    public static SqlStatus of(SqlExecutionSummary sql, Map<Integer, JobSummary> jobs) {
        List<Integer> running = new ArrayList<>();
        List<Integer> succeeded = new ArrayList<>();
        List<Integer> failed = new ArrayList<>();
        List<Integer> order = ScalaSetOrder.of(sql.jobIds());
        for (int jobId : order) {
            JobSummary j = jobs.get(jobId);
            JobSummary.JobStatus st = j == null ? JobSummary.JobStatus.RUNNING : j.status();
            switch (st) {
                case RUNNING -> running.add(jobId);
                case SUCCEEDED -> succeeded.add(jobId);
                case FAILED -> failed.add(jobId);
                default -> { }
            }
        }
        String status;
        if (sql.errorMessage() != null) {
            status = sql.errorMessage().isEmpty() ? "COMPLETED" : "FAILED";
        } else if (sql.endTime() < 0) {
            status = "RUNNING";
        } else {
            status = failed.isEmpty() ? "COMPLETED" : "FAILED";
        }
        return new SqlStatus(status, running, succeeded, failed);
    }
}
