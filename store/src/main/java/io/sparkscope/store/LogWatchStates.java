package io.sparkscope.store;

import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the log watchers remember of each event log (table {@code log_watch}, migration V15): how far it was read,
 * what it held, and who is reading it now. Claims are leases: a watcher holds a log while it reads it (and while it
 * keeps a running log open), renews the lease on every scan, and another watcher may take the log only once the
 * lease ran out, so two watchers on one directory never read the same log at once and a watcher that died leaves
 * its logs to the others after one lease.
 */
public final class LogWatchStates {
    /** How a log stands. */
    public enum Status {
        /** Claimed, not read yet. */
        NEW,
        /** Read while still being written (its application shows as RUNNING unless it ended). */
        RUNNING,
        /** Read to its end once finished; read again only if it changes. */
        DONE,
        /** Not an event log, or no application in it. */
        UNREADABLE
    }

    /** One log's row. {@code size} and {@code modified} are -1 before the first read. */
    public record State(String key, Status status, String appId, String attemptId, long size, long modified,
                        long partIndex, long partBytes, long partLines, long events) {
        public State {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(status, "status");
        }

        /** Read to its end (or found unreadable) while it had this size and time: nothing to do. */
        public boolean settledAt(long size, long modified) {
            return (status == Status.DONE || status == Status.UNREADABLE) && this.size == size
                    && this.modified == modified;
        }
    }

    private static final String COLUMNS = "log_key, status, app_id, attempt_id, size_bytes, modified_at, part_index,"
            + " part_bytes, part_lines, events";

    private static final String LOAD_SQL = "SELECT " + COLUMNS + " FROM log_watch WHERE log_key LIKE ? ESCAPE '\\'"
            + " ORDER BY log_key";

    private static final String CLAIM_SQL = "INSERT INTO log_watch AS w (log_key, status, claimed_by, claimed_until)"
            + " VALUES (?, 'NEW', ?, now() + make_interval(secs => ?))"
            + " ON CONFLICT (log_key) DO UPDATE SET claimed_by = EXCLUDED.claimed_by,"
            + " claimed_until = EXCLUDED.claimed_until"
            + " WHERE w.claimed_by IS NULL OR w.claimed_by = EXCLUDED.claimed_by OR w.claimed_until < now()"
            + " RETURNING " + COLUMNS.replace("log_key", "w.log_key");

    private static final String RENEW_SQL = "UPDATE log_watch SET claimed_until = now() + make_interval(secs => ?)"
            + " WHERE claimed_by = ? AND log_key = ANY(?) RETURNING log_key";

    private static final String SAVE_SQL = "INSERT INTO log_watch AS w (" + COLUMNS + ", claimed_by, claimed_until,"
            + " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN NULL ELSE now()"
            + " + make_interval(secs => ?) END, now())"
            + " ON CONFLICT (log_key) DO UPDATE SET status = EXCLUDED.status, app_id = EXCLUDED.app_id,"
            + " attempt_id = EXCLUDED.attempt_id, size_bytes = EXCLUDED.size_bytes, modified_at = EXCLUDED.modified_at,"
            + " part_index = EXCLUDED.part_index, part_bytes = EXCLUDED.part_bytes, part_lines = EXCLUDED.part_lines,"
            + " events = EXCLUDED.events, claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until,"
            + " updated_at = now()";

    private static final String RELEASE_SQL = "UPDATE log_watch SET claimed_by = NULL, claimed_until = NULL"
            + " WHERE claimed_by = ? AND log_key = ANY(?)";

    private final DataSource dataSource;
    private final String owner;
    private final long leaseSeconds;

    /**
     * @param owner what names this watcher in claims (host, process, a random part: unique per start)
     * @param lease how long a claim holds without renewal
     */
    public LogWatchStates(DataSource dataSource, String owner, Duration lease) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.leaseSeconds = Math.max(1, lease.toSeconds());
    }

    public String owner() {
        return owner;
    }

    /** The rows of the logs whose key starts with {@code prefix} (a watched directory's location). */
    public Map<String, State> load(String prefix) throws SQLException {
        Map<String, State> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(LOAD_SQL)) {
            ps.setString(1, likePrefix(prefix));
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    State s = state(rs);
                    out.put(s.key(), s);
                }
            }
        }
        return out;
    }

    /**
     * Claims a log for this watcher, creating its row if it has none. Empty when another watcher holds it; else the
     * row as it is now (another watcher may have read the log since this one last looked).
     */
    public Optional<State> claim(String key) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(CLAIM_SQL)) {
            ps.setString(1, key);
            ps.setString(2, owner);
            ps.setLong(3, leaseSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(state(rs)) : Optional.empty();
            }
        }
    }

    /** Renews this watcher's claims on these logs; returns those still its own (a lease that ran out may be gone). */
    public List<String> renew(Collection<String> keys) throws SQLException {
        if (keys.isEmpty()) {
            return List.of();
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(RENEW_SQL)) {
            ps.setLong(1, leaseSeconds);
            ps.setString(2, owner);
            ps.setArray(3, c.createArrayOf("text", keys.toArray()));
            List<String> kept = new java.util.ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    kept.add(rs.getString(1));
                }
            }
            return kept;
        }
    }

    /** Stores a log's state; {@code release}: this watcher is done with it for now (else the claim is renewed). */
    public void save(State s, boolean release) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(SAVE_SQL)) {
            int i = 1;
            ps.setString(i++, s.key());
            ps.setString(i++, s.status().name());
            ps.setString(i++, s.appId());
            ps.setString(i++, s.attemptId());
            ps.setLong(i++, s.size());
            ps.setLong(i++, s.modified());
            ps.setLong(i++, s.partIndex());
            ps.setLong(i++, s.partBytes());
            ps.setLong(i++, s.partLines());
            ps.setLong(i++, s.events());
            ps.setString(i++, release ? null : owner);
            ps.setBoolean(i++, release);
            ps.setLong(i, leaseSeconds);
            ps.executeUpdate();
        }
    }

    /** Gives up this watcher's claims on these logs. */
    public void release(Collection<String> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(RELEASE_SQL)) {
            ps.setString(1, owner);
            Array a = c.createArrayOf("text", keys.toArray());
            ps.setArray(2, a);
            ps.executeUpdate();
        }
    }

    private static State state(ResultSet rs) throws SQLException {
        return new State(rs.getString(1), Status.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4),
                rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10));
    }

    private static String likePrefix(String prefix) {
        return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }
}
