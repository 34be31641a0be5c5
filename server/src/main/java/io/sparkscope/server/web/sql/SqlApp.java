package io.sparkscope.server.web.sql;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.StageRow;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the SQL pages and API of one application read: its SQL executions (plans, metric aggregates), its jobs (for
 * the executions' job statuses), its stage attempts (names, durations) and its findings.
 */
public record SqlApp(AppHeader header, List<SqlExecutionSummary> executions, List<JobSummary> jobs,
                     List<StageRow> stages, List<Finding> findings) {

    public SqlApp {
        executions = List.copyOf(executions);
        jobs = List.copyOf(jobs);
        stages = List.copyOf(stages);
        findings = List.copyOf(findings);
    }

    public Map<Integer, JobSummary> jobsById() {
        Map<Integer, JobSummary> m = new HashMap<>();
        jobs.forEach(j -> m.put(j.jobId(), j));
        return m;
    }

    /** The execution with this id, or null. */
    public SqlExecutionSummary execution(long executionId) {
        for (SqlExecutionSummary s : executions) {
            if (s.executionId() == executionId) {
                return s;
            }
        }
        return null;
    }
}
