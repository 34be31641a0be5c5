package io.sparkscope.server.web.sql;

import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.sql.ScalaSetOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An execution's status and its jobs by status as Spark's SQL REST API derives them: COMPLETED when it ended and
 * every job succeeded, FAILED when a job failed, RUNNING otherwise; jobs in the order of Spark's own set of them.
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
        boolean ended = sql.endTime() >= 0;
        String status = order.size() == succeeded.size() && ended ? "COMPLETED" : !failed.isEmpty() ? "FAILED"
                : "RUNNING";
        return new SqlStatus(status, running, succeeded, failed);
    }
}
