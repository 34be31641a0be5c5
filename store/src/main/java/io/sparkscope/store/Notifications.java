package io.sparkscope.store;

import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.heuristics.Finding;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The bookkeeping behind {@code serve --webhook-url} (schema V5): which completed applications call for a
 * notification to one webhook target, and which were claimed, sent or failed.
 *
 * <p>A notification is claimed (a {@code notification} row, INSERT … ON CONFLICT DO NOTHING) <em>before</em> it is
 * sent, so two servers never both send it. If a server dies between claim and send, the claim goes stale: after the
 * lease, {@link #claimRetries} lets any server take it over. That makes delivery at-least-once: a duplicate is
 * possible only when a server dies after the receiver accepted the POST and before {@link #markSent} (milliseconds);
 * the alternative, never retaking a claim, would silently lose the notification of every crash.
 *
 * <p>All times are the database's clock ({@code now()}), the same clock the V5 trigger stamps
 * {@code application.completed_at} with, so servers with skewed clocks agree.
 */
public final class Notifications {
    /**
     * One application to notify, as stored: header and findings.
     *
     * @param rounds delivery rounds claimed so far, this one included
     */
    public record Due(long appPk, String appId, String attemptId, String appName, long startTime, long endTime,
                      long lastEventTime, boolean complete, int rounds, List<Finding> findings) {
        public Due {
            findings = List.copyOf(findings);
        }
    }

    /** Applications worth a notification: a HIGH finding or a Regression (as WebhookNotifier.worthNotifying). */
    private static final String WORTH = "(a.worst_severity = 'HIGH' OR EXISTS (SELECT 1 FROM finding f"
            + " WHERE f.app_pk = a.app_pk AND f.heuristic = ?))";

    private static final String CLAIM_NEW = "INSERT INTO notification (app_pk, target, state, claimed_by)"
            + " SELECT a.app_pk, ?, 'CLAIMED', ? FROM application a"
            + " WHERE a.completed_at >= ? AND a.status = 'COMPLETE'"
            + " AND a.updated_at <= now() - make_interval(secs => ?)"
            + " AND " + WORTH
            + " AND NOT EXISTS (SELECT 1 FROM notification n WHERE n.app_pk = a.app_pk AND n.target = ?)"
            + " ORDER BY a.completed_at, a.app_pk LIMIT ?"
            + " ON CONFLICT (app_pk, target) DO NOTHING RETURNING app_pk, rounds";

    private static final String CLAIM_RETRIES = "UPDATE notification n SET state = 'CLAIMED', claimed_by = ?,"
            + " claimed_at = now(), rounds = n.rounds + 1, next_attempt_at = NULL"
            + " WHERE (n.app_pk, n.target) IN (SELECT app_pk, target FROM notification"
            + "   WHERE target = ? AND rounds < ? AND ((state = 'FAILED' AND next_attempt_at <= now())"
            + "     OR (state = 'CLAIMED' AND claimed_at < now() - make_interval(secs => ?)))"
            + "   ORDER BY claimed_at LIMIT ? FOR UPDATE SKIP LOCKED)"
            + " RETURNING n.app_pk, n.rounds";

    private final DataSource dataSource;
    private final String target;
    private final String claimer;

    /**
     * @param url     the webhook URL; only its SHA-256 is stored
     * @param claimer who claims (host:pid…), written into claims for the operator
     */
    public Notifications(DataSource dataSource, String url, String claimer) {
        this.dataSource = dataSource;
        this.target = target(url);
        this.claimer = claimer;
    }

    /** The stored key of a webhook URL: SHA-256 of the trimmed URL, hex. */
    public static String target(String url) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(url.trim().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always present in the JDK", e);
        }
    }

    public String target() {
        return target;
    }

    /** The database's clock. */
    public Instant now() throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT now()");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getObject(1, OffsetDateTime.class).toInstant();
        }
    }

    /**
     * Claims up to {@code limit} applications that became COMPLETE at or after {@code since}, have not changed for
     * {@code settle} (a listener rewrites its final snapshot when late events arrive within a few seconds), are
     * worth a notification and were never claimed for this target.
     */
    public List<Due> claimNew(Instant since, Duration settle, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Map<Long, Integer> claimed = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(CLAIM_NEW)) {
                ps.setString(1, target);
                ps.setString(2, claimer);
                ps.setObject(3, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
                ps.setDouble(4, settle.toMillis() / 1000.0);
                ps.setString(5, RegressionCheck.HEURISTIC);
                ps.setString(6, target);
                ps.setInt(7, limit);
                collect(ps, claimed);
            }
            return load(c, claimed);
        }
    }

    /**
     * Claims again up to {@code limit} notifications of this target that failed and are due for another round, or
     * whose claim is older than {@code lease} and was never settled (the claiming server died), up to
     * {@code maxRounds} rounds each.
     */
    public List<Due> claimRetries(Duration lease, int maxRounds, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Map<Long, Integer> claimed = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(CLAIM_RETRIES)) {
                ps.setString(1, claimer);
                ps.setString(2, target);
                ps.setInt(3, maxRounds);
                ps.setDouble(4, lease.toMillis() / 1000.0);
                ps.setInt(5, limit);
                collect(ps, claimed);
            }
            return load(c, claimed);
        }
    }

    /** Delivered: never sent again to this target. */
    public boolean markSent(long appPk) throws SQLException {
        return update("UPDATE notification SET state = 'SENT', sent_at = now(), last_error = NULL, next_attempt_at = NULL"
                + " WHERE app_pk = ? AND target = ? AND claimed_by = ? AND state = 'CLAIMED'", appPk);
    }

    /** Not delivered this round: due again after {@code retryAfter}. */
    public boolean markFailed(long appPk, Duration retryAfter, String error) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("UPDATE notification SET state = 'FAILED',"
                     + " next_attempt_at = now() + make_interval(secs => ?), last_error = ?"
                     + " WHERE app_pk = ? AND target = ? AND claimed_by = ? AND state = 'CLAIMED'")) {
            ps.setDouble(1, retryAfter.toMillis() / 1000.0);
            ps.setString(2, error);
            ps.setLong(3, appPk);
            ps.setString(4, target);
            ps.setString(5, claimer);
            return ps.executeUpdate() == 1;
        }
    }

    /** Gives a claim up without sending (the application no longer calls for a notification). */
    public boolean release(long appPk) throws SQLException {
        return update("DELETE FROM notification WHERE app_pk = ? AND target = ? AND claimed_by = ? AND state = 'CLAIMED'",
                appPk);
    }

    private boolean update(String sql, long appPk) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, appPk);
            ps.setString(2, target);
            ps.setString(3, claimer);
            return ps.executeUpdate() == 1;
        }
    }

    private static void collect(PreparedStatement ps, Map<Long, Integer> claimed) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                claimed.put(rs.getLong("app_pk"), rs.getInt("rounds"));
            }
        }
    }

    /** Header and findings of the claimed applications, oldest first. */
    private static List<Due> load(Connection c, Map<Long, Integer> claimed) throws SQLException {
        if (claimed.isEmpty()) {
            return List.of();
        }
        Array pks = c.createArrayOf("bigint", claimed.keySet().toArray());
        Map<Long, List<Finding>> findings = FindingRows.byApp(c, claimed.keySet());
        List<Due> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, app_id, attempt_id, name, start_time, end_time,"
                + " last_event_time, complete FROM application WHERE app_pk = ANY (?) ORDER BY completed_at, app_pk")) {
            ps.setArray(1, pks);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long pk = rs.getLong("app_pk");
                    String attempt = rs.getString("attempt_id");
                    out.add(new Due(pk, rs.getString("app_id"), attempt == null || attempt.isEmpty() ? null : attempt,
                            rs.getString("name"), rs.getLong("start_time"), rs.getLong("end_time"),
                            rs.getLong("last_event_time"), rs.getBoolean("complete"), claimed.get(pk),
                            findings.getOrDefault(pk, List.of())));
                }
            }
        }
        return out;
    }
}
