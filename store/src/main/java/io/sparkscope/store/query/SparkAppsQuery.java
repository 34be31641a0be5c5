package io.sparkscope.store.query;

import io.sparkscope.store.ReadTransaction;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The applications as Spark's History Server lists them ({@code /api/v1/applications}): one entry per application id
 * with its attempts newest first, filtered and limited in SQL by the rules of Spark's {@code ApplicationListResource},
 * and the one lookup the Spark-shaped routes need to answer "no such app" or "unknown stage" before anything else.
 */
public final class SparkAppsQuery {
    private final DataSource dataSource;

    public SparkAppsQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * One stored attempt.
     *
     * @param attemptId    null for an application without attempts
     * @param sparkVersion null when the log did not say
     * @param endTime      epoch ms, -1 while running
     */
    public record Attempt(String attemptId, String sparkUser, String sparkVersion, long startTime, long endTime,
                          long lastEventTime, boolean complete) {
    }

    /** One application id with its attempts, newest first. */
    public record App(String appId, String name, List<Attempt> attempts) {
    }

    /**
     * Spark's filters, times in epoch ms, bounds inclusive.
     *
     * @param completed keep applications whose newest attempt ended
     * @param running   keep the others
     * @param now       Spark keeps a running application only while {@code maxEndDate} is in the future
     * @param limit     applications at most
     */
    public record Filter(boolean completed, boolean running, long minStart, long maxStart, long minEnd, long maxEnd,
                         long now, int limit) {
    }

    /**
     * Applications whose newest attempt has the wanted status and with at least one attempt in the time window,
     * those that ended last first (running ones after), as Spark orders its listing: by the newest attempt's end
     * time, read backwards, so applications ending at the same time (the running ones) come by id descending.
     */
    public List<App> list(Filter f) throws SQLException {
        String sql = "WITH a AS (SELECT app_id, attempt_id, name, spark_user, spark_version, start_time, end_time,"
                + " last_event_time, complete,"
                + " first_value(complete) OVER w AS head_complete, first_value(end_time) OVER w AS head_end,"
                + " first_value(name) OVER w AS head_name"
                + " FROM application WINDOW w AS (PARTITION BY app_id ORDER BY start_time DESC, attempt_id DESC)),"
                + " picked AS (SELECT app_id, max(head_end) AS head_end FROM a"
                + " WHERE (head_complete AND ? OR NOT head_complete AND ?)"
                + " AND start_time BETWEEN ? AND ?"
                + " AND (NOT head_complete AND ? > ? OR head_complete AND end_time BETWEEN ? AND ?)"
                + " GROUP BY app_id ORDER BY max(head_end) DESC, app_id DESC LIMIT ?)"
                + " SELECT a.* FROM a JOIN picked USING (app_id)"
                + " ORDER BY picked.head_end DESC, a.app_id DESC, a.start_time DESC, a.attempt_id DESC";
        return ReadTransaction.run(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setBoolean(1, f.completed());
                ps.setBoolean(2, f.running());
                ps.setLong(3, f.minStart());
                ps.setLong(4, f.maxStart());
                ps.setLong(5, f.maxEnd());
                ps.setLong(6, f.now());
                ps.setLong(7, f.minEnd());
                ps.setLong(8, f.maxEnd());
                ps.setInt(9, f.limit());
                return read(ps);
            }
        });
    }

    /** Every attempt of one application id, or empty when none is stored. */
    public Optional<App> app(String appId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT app_id, attempt_id, name, spark_user,"
                    + " spark_version, start_time, end_time, last_event_time, complete, name AS head_name"
                    + " FROM application WHERE app_id = ? ORDER BY start_time DESC, attempt_id DESC")) {
                ps.setString(1, appId);
                return read(ps).stream().findFirst();
            }
        });
    }

    /** What a stage route names: the application attempt found, and the stored attempts of the stage. */
    public record StageLookup(AppRefs.Resolved app, List<Integer> stageAttempts) {
    }

    /**
     * The application (exact attempt, or as the other routes read a missing one) and the attempts stored for
     * {@code stageId} (empty when none; {@code stageId} &lt; 0 reads none); empty when the application is not stored.
     */
    public Optional<StageLookup> lookup(String appId, String attemptId, int stageId) throws SQLException {
        return ReadTransaction.run(dataSource, c -> {
            AppRefs.Resolved app = AppRefs.resolve(c, appId, attemptId);
            if (app == null) {
                return Optional.empty();
            }
            return Optional.of(new StageLookup(app, stageAttempts(c, app.pk(), stageId)));
        });
    }

    private static List<Integer> stageAttempts(Connection c, long pk, int stageId) throws SQLException {
        List<Integer> out = new ArrayList<>();
        if (stageId < 0) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT attempt_id FROM stage_attempt WHERE app_pk = ? AND stage_id = ? ORDER BY attempt_id")) {
            ps.setLong(1, pk);
            ps.setInt(2, stageId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getInt(1));
                }
            }
        }
        return out;
    }

    private static List<App> read(PreparedStatement ps) throws SQLException {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, List<Attempt>> attempts = new LinkedHashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String id = rs.getString("app_id");
                names.putIfAbsent(id, rs.getString("head_name"));
                String attempt = rs.getString("attempt_id");
                attempts.computeIfAbsent(id, k -> new ArrayList<>()).add(new Attempt(
                        attempt.isEmpty() ? null : attempt, rs.getString("spark_user"), rs.getString("spark_version"),
                        rs.getLong("start_time"), rs.getLong("end_time"), rs.getLong("last_event_time"),
                        rs.getBoolean("complete")));
            }
        }
        List<App> out = new ArrayList<>();
        names.forEach((id, name) -> out.add(new App(id, name, attempts.get(id))));
        return out;
    }
}
