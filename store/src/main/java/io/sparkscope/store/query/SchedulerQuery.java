package io.sparkscope.store.query;

import io.sparkscope.core.model.Lineage;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The scheduler's job and run an application was started by, as stored on its row (V25): for an application's page,
 * and for a job's history (its newest run that carries them).
 */
public final class SchedulerQuery {
    private static final String COLUMNS = "lineage_namespace, lineage_job, lineage_run_id, lineage_root_namespace,"
            + " lineage_root_job, lineage_root_run_id, airflow_dag_id, airflow_task_id";

    private final DataSource dataSource;

    public SchedulerQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The application's scheduler context; {@link Lineage#NONE} when it has none (or is not stored). */
    public Lineage ofApp(long appPk) throws SQLException {
        return one("SELECT " + COLUMNS + " FROM application WHERE app_pk = ?", appPk);
    }

    /**
     * The job's scheduler context from its newest run that has one (from the job-key index); its run ids are that
     * run's. {@link Lineage#NONE} when no run has one.
     */
    public Lineage ofJob(String jobKey) throws SQLException {
        return one("SELECT " + COLUMNS + " FROM application WHERE job_key = ?"
                + " AND (lineage_job IS NOT NULL OR airflow_dag_id IS NOT NULL)"
                + " ORDER BY start_time DESC, app_pk DESC LIMIT 1", jobKey);
    }

    private Lineage one(String sql, Object key) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            Sql.bind(ps, List.of(key));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Lineage.NONE;
                }
                Lineage l = new Lineage(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), List.of());
                return l.present() || l.runId() != null ? l : Lineage.NONE;
            }
        }
    }
}
