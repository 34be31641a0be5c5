package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.store.FindingRows;
import io.sparkscope.store.SnapshotReader;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An application's SQL executions for the SQL tab, one execution's page and their REST-shaped API: the executions
 * with plans and metric aggregates, the jobs whose statuses make theirs, the findings that name their operators or
 * stages, and the stage attempts' names. One read-only transaction each.
 */
public final class SqlQuery {
    private final DataSource dataSource;

    public SqlQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A stage attempt as an execution's page lists it. */
    public record StageBrief(int stageId, int attemptId, String name, String status, int numTasks, long durationMs) {
    }

    /**
     * @param executions every execution (a list), or the one asked for (its page)
     * @param stages     every stage attempt of the application, in recorded order
     */
    public record Executions(AppRefs.Resolved app, List<SqlExecutionSummary> executions, List<JobSummary> jobs,
                          List<Finding> findings, List<StageBrief> stages) {
        public Executions {
            executions = List.copyOf(executions);
            jobs = List.copyOf(jobs);
            findings = List.copyOf(findings);
            stages = List.copyOf(stages);
        }

        public Map<Integer, JobSummary> jobsById() {
            Map<Integer, JobSummary> m = new HashMap<>();
            jobs.forEach(j -> m.put(j.jobId(), j));
            return m;
        }
    }

    /** All executions of the application; empty when it is not stored. */
    public Optional<Executions> all(String appId, String attemptId) throws SQLException {
        return load(appId, attemptId, null);
    }

    /**
     * One execution; empty when the application is not stored, and {@link Executions#executions()} empty when it is
     * but has no such execution.
     */
    public Optional<Executions> one(String appId, String attemptId, long executionId) throws SQLException {
        return load(appId, attemptId, executionId);
    }

    private Optional<Executions> load(String appId, String attemptId, Long executionId) throws SQLException {
        return AppRefs.readOnly(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            List<SqlExecutionSummary> executions = SnapshotReader.sqlExecutions(c, app.pk(), executionId);
            List<JobSummary> jobs = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM job WHERE app_pk = ? ORDER BY job_id")) {
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        jobs.add(SnapshotReader.job(rs));
                    }
                }
            }
            List<Finding> findings = FindingRows.byApp(c, List.of(app.pk())).getOrDefault(app.pk(), List.of());
            return Optional.of(new Executions(app, executions, jobs, findings, stages(c, app.pk())));
        });
    }

    private static List<StageBrief> stages(Connection c, long pk) throws SQLException {
        List<StageBrief> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT stage_id, attempt_id, name, status, num_tasks,"
                + " duration_ms FROM stage_attempt WHERE app_pk = ? ORDER BY ord")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StageBrief(rs.getInt(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                            rs.getLong(6)));
                }
            }
        }
        return out;
    }

    /** A plan operator a stage ran. */
    public record StageOperator(long executionId, long nodeId, String name) {
    }

    /**
     * Stage id → the plan operators it ran (clusters left out), by execution then node id: what a stage row names
     * as its query and operators. From the stored node-stage mapping.
     */
    static Map<Long, Map<Integer, List<StageOperator>>> operatorsByStage(Connection c, List<Long> pks)
            throws SQLException {
        Map<Long, Map<Integer, List<StageOperator>>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, execution_id, node_id, name, stage_ids"
                + " FROM sql_plan_node WHERE app_pk = ANY(?) AND NOT is_cluster AND cardinality(stage_ids) > 0"
                + " ORDER BY app_pk, execution_id, node_id")) {
            ps.setArray(1, Sql.pks(c, pks));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StageOperator op = new StageOperator(rs.getLong(2), rs.getLong(3), rs.getString(4));
                    Map<Integer, List<StageOperator>> byStage = out.computeIfAbsent(rs.getLong(1),
                            k -> new HashMap<>());
                    for (int stage : Sql.ints(rs.getArray(5))) {
                        byStage.computeIfAbsent(stage, k -> new ArrayList<>()).add(op);
                    }
                }
            }
        }
        return out;
    }
}
