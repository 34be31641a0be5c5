package io.sparkscope.store.query;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.store.SnapshotReader;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An application's jobs, or its executors, for their tabs and their REST-shaped API: two small statements each. */
public final class JobsExecutorsQuery {
    private final DataSource dataSource;

    public JobsExecutorsQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public record Jobs(AppRefs.Resolved app, List<JobSummary> jobs) {
    }

    /** @param taskCpus {@code spark.task.cpus} of the application (1 when not set or not a number) */
    public record Executors(AppRefs.Resolved app, List<ExecutorSummary> executors, int taskCpus) {
    }

    /** The jobs in job-id order; empty when the application is not stored. */
    public Optional<Jobs> jobs(String appId, String attemptId) throws SQLException {
        return AppRefs.readOnly(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            List<JobSummary> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM job WHERE app_pk = ? ORDER BY job_id")) {
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(SnapshotReader.job(rs));
                    }
                }
            }
            return Optional.of(new Jobs(app, out));
        });
    }

    /** The executors in the order they appeared; empty when the application is not stored. */
    public Optional<Executors> executors(String appId, String attemptId) throws SQLException {
        return AppRefs.readOnly(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            List<ExecutorSummary> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM executor WHERE app_pk = ? ORDER BY ord")) {
                ps.setLong(1, app.pk());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(SnapshotReader.executor(rs));
                    }
                }
            }
            return Optional.of(new Executors(app, out, taskCpus(c, app.pk())));
        });
    }

    private static int taskCpus(Connection c, long pk) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT value FROM configuration WHERE app_pk = ?"
                + " AND scope = 'spark' AND key = 'spark.task.cpus'")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) != null) {
                    try {
                        return Math.max(1, Integer.parseInt(rs.getString(1).trim()));
                    } catch (NumberFormatException notANumber) {
                        return 1;
                    }
                }
            }
        }
        return 1;
    }
}
