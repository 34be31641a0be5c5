package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.store.FindingRows;
import io.sparkscope.store.ReadTransaction;
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
 * with plans and metric aggregates (or, for the tab, only the columns its rows show), the jobs whose statuses make
 * theirs, the findings that name their operators or stages, and the stage attempts' names. One read-only transaction
 * each, which also reads the {@linkplain #version version} of what it read, so a rendering of it can be kept.
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
     * @param version    the {@link Version#stamp()} of these rows, read in the same transaction; null while the
     *                   application is not complete (its rows still change)
     */
    public record Executions(AppRefs.Resolved app, List<SqlExecutionSummary> executions, List<JobSummary> jobs,
                          List<Finding> findings, List<StageBrief> stages, String version) {
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

    /**
     * What a rendering of an application's SQL views was made from, as one short text, so a kept rendering can be
     * served again while the stored rows are still the ones it shows. A completed application changes only when it
     * is written again: a re-import, or a reanalyze that rewrites its findings. Every writer upserts only rows whose
     * values changed and deletes rows no longer there, and PostgreSQL gives every row a writing transaction touches a
     * new {@code xmin} (a transaction id, larger than those of the rows it did not touch). So the stamp is: the
     * application row ({@code updated_at} moves whenever one of its values changed; its event count), a digest of
     * its finding rows (a reanalyze may rewrite their texts and nothing else), and the count and sum of the
     * {@code xmin} of the SQL rows the view reads: a changed, added or deleted row changes one or the other.
     *
     * @param app   the application, as {@link AppRefs#resolve} finds it
     * @param stamp null while the application is not complete: a running application's views change by themselves
     */
    public record Version(AppRefs.Resolved app, String stamp) {
    }

    /**
     * The version of one execution's page ({@code executionId} not null: the execution row and its metric rows) or
     * of the SQL tab (null: every execution row); empty when the application is not stored. One small statement.
     */
    public Optional<Version> version(String appId, String attemptId, Long executionId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return Optional.ofNullable(version(c, appId, attemptId, executionId));
        }
    }

    /** As {@link AppRefs#resolve} (same choice of attempt), with the stamp's parts beside the application row. */
    private static Version version(Connection c, String appId, String attemptId, Long executionId)
            throws SQLException {
        String sqlRows = executionId == null
                ? "(SELECT count(*) || '/' || coalesce(sum(CAST(CAST(e.xmin AS text) AS bigint)), 0)"
                + " FROM sql_execution e WHERE e.app_pk = a.app_pk)"
                : "(SELECT coalesce(max(CAST(e.xmin AS text)), '-') FROM sql_execution e"
                + " WHERE e.app_pk = a.app_pk AND e.execution_id = ?)"
                + " || '/' || (SELECT count(*) || '/' || coalesce(sum(CAST(CAST(m.xmin AS text) AS bigint)), 0)"
                + " FROM sql_node_metric m WHERE m.app_pk = a.app_pk AND m.execution_id = ?)";
        try (PreparedStatement ps = c.prepareStatement("SELECT a.app_pk, a.app_id, a.attempt_id, a.name,"
                + " a.start_time, a.end_time, a.last_event_time, a.complete, CAST(a.updated_at AS text), a.event_count,"
                + " (SELECT coalesce(md5(string_agg(CAST(f AS text), '|' ORDER BY f.finding_id)), '-')"
                + " FROM finding f WHERE f.app_pk = a.app_pk), " + sqlRows
                + " FROM application a WHERE a.app_id = ? AND (CAST(? AS text) IS NULL OR a.attempt_id = ?)"
                + " ORDER BY " + AppRefs.newestFirst("a.") + " LIMIT 1")) {
            int i = 1;
            if (executionId != null) {
                ps.setLong(i++, executionId);
                ps.setLong(i++, executionId);
            }
            ps.setString(i++, appId);
            ps.setString(i++, attemptId);
            ps.setString(i, attemptId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                String attempt = rs.getString(3);
                AppRefs.Resolved app = new AppRefs.Resolved(rs.getLong(1), rs.getString(2),
                        attempt.isEmpty() ? null : attempt, rs.getString(4), rs.getLong(5), rs.getLong(6),
                        rs.getLong(7), rs.getBoolean(8));
                String stamp = app.complete() ? app.pk() + "|" + rs.getString(9) + "|" + rs.getLong(10) + "|"
                        + rs.getString(11) + "|" + rs.getString(12) : null;
                return new Version(app, stamp);
            }
        }
    }

    /** All executions of the application with plans and metrics; empty when it is not stored. */
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

    /**
     * Every execution with only what a row of the SQL tab shows and its status needs: id, description, times,
     * error, jobs and stages (the stages also say which findings are about it). No plan, no metrics (the plan of
     * one big query alone is hundreds of kilobytes), and the plan text only when {@code planText}. The stage
     * attempts are left out too. Empty when the application is not stored.
     */
    public Optional<Executions> summaries(String appId, String attemptId, boolean planText) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            Version v = version(c, appId, attemptId, null);
            if (v == null) {
                return Optional.empty();
            }
            List<SqlExecutionSummary> executions = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT execution_id, description, start_time, end_time,"
                    + " error_message, " + (planText ? "physical_plan_description" : "NULL") + ", job_ids, stage_ids"
                    + " FROM sql_execution WHERE app_pk = ? ORDER BY ord, execution_id")) {
                ps.setLong(1, v.app().pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        executions.add(SqlExecutionSummary.builder().executionId(rs.getLong(1))
                                .description(rs.getString(2)).startTime(rs.getLong(3)).endTime(rs.getLong(4))
                                .errorMessage(rs.getString(5)).physicalPlanDescription(rs.getString(6))
                                .jobIds(Sql.ints(rs.getArray(7))).stageIds(Sql.ints(rs.getArray(8))).build());
                    }
                }
            }
            return Optional.of(new Executions(v.app(), executions, jobs(c, v.app().pk()), findings(c, v.app().pk()),
                    List.of(), v.stamp()));
        });
    }

    private Optional<Executions> load(String appId, String attemptId, Long executionId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            Version v = version(c, appId, attemptId, executionId);
            if (v == null) {
                return Optional.empty();
            }
            long pk = v.app().pk();
            List<SqlExecutionSummary> executions = SnapshotReader.sqlExecutions(c, pk, executionId);
            return Optional.of(new Executions(v.app(), executions, jobs(c, pk), findings(c, pk), stages(c, pk),
                    v.stamp()));
        });
    }

    private static List<JobSummary> jobs(Connection c, long pk) throws SQLException {
        List<JobSummary> jobs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM job WHERE app_pk = ? ORDER BY job_id")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    jobs.add(SnapshotReader.job(rs));
                }
            }
        }
        return jobs;
    }

    private static List<Finding> findings(Connection c, long pk) throws SQLException {
        return FindingRows.byApp(c, List.of(pk)).getOrDefault(pk, List.of());
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
    /** @param nodeId Spark's node id, or {@link #NO_NODE} when the stage ran for the execution but no operator is known */
    public record StageOperator(long executionId, long nodeId, String name) {
        public static final long NO_NODE = -1;
    }

    /**
     * Stage id → the plan operators it ran (clusters left out), by execution then node id: what a stage row names
     * as its query and operators. From the stored node-stage mapping; a stage of an execution's jobs that no
     * operator names (a query that failed before its operators reported metrics) still gets its execution, as a
     * {@link StageOperator#NO_NODE} entry after the operators.
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
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, execution_id, stage_ids FROM sql_execution"
                + " WHERE app_pk = ANY(?) AND cardinality(stage_ids) > 0 ORDER BY app_pk, execution_id")) {
            ps.setArray(1, Sql.pks(c, pks));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long execution = rs.getLong(2);
                    Map<Integer, List<StageOperator>> byStage = out.computeIfAbsent(rs.getLong(1),
                            k -> new HashMap<>());
                    for (int stage : Sql.ints(rs.getArray(3))) {
                        List<StageOperator> ops = byStage.computeIfAbsent(stage, k -> new ArrayList<>());
                        if (ops.stream().noneMatch(o -> o.executionId() == execution)) {
                            ops.add(new StageOperator(execution, StageOperator.NO_NODE, ""));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The plan operators one stage ran (clusters left out), by execution then node id: the stage page's list. */
    static List<StageOperator> operatorsOfStage(Connection c, long pk, int stageId) throws SQLException {
        List<StageOperator> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT execution_id, node_id, name FROM sql_plan_node"
                + " WHERE app_pk = ? AND NOT is_cluster AND ? = ANY(stage_ids) ORDER BY execution_id, node_id")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StageOperator(rs.getLong(1), rs.getLong(2), rs.getString(3)));
                }
            }
        }
        return out;
    }
}
