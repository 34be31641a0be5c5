package io.sparkscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU of the PostgreSQL backends that serve one database's clients other than the benchmark itself: their pids are
 * taken from {@code pg_stat_activity} (every 100 ms, so a connection opened and closed between two reads can be
 * missed, which the listener's pooled connections are not), their CPU from {@code /proc/<pid>/stat} (utime + stime).
 * A backend already running at the start counts from its CPU then; one that starts later counts from zero, since its
 * process began inside the measured stretch; one that exits counts with its last reading. The backends' work for the
 * client ends with the client's last statement, so reading after the client has stopped misses nothing.
 *
 * <p>Also the database's row counters ({@code pg_stat_database}: transactions committed, tuples inserted, updated and
 * deleted) before and after: what the writes cost in rows, which does not depend on the machine's load.
 */
final class PgBackendCpu implements AutoCloseable {
    private static final long TICK_NS = 10_000_000L; // USER_HZ = 100 on Linux

    private final Connection c;
    private final String database;
    private final Map<Integer, Long> first = new HashMap<>();
    private final Map<Integer, Long> last = new HashMap<>();
    private final Map<String, Long> countersBefore;
    private final Thread sampler;
    private volatile boolean running = true;
    private boolean started;
    /** Transactions of this meter's own connection after the first counter read (each statement is one). */
    private long ownStatements;

    PgBackendCpu(String url, String user, String password, String database) throws SQLException {
        this.c = DriverManager.getConnection(url, user, password);
        this.database = database;
        sample();
        started = true;
        countersBefore = counters();
        ownStatements = 0;
        sampler = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(100);
                    sample();
                } catch (InterruptedException e) {
                    return;
                } catch (SQLException e) {
                    System.err.println("pg_stat_activity: " + e.getMessage());
                }
            }
        }, "bench-pg-backends");
        sampler.setDaemon(true);
        sampler.start();
    }

    private synchronized void sample() throws SQLException {
        ownStatements++;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int pid = rs.getInt(1);
                    long ticks = ticks(pid);
                    if (ticks < 0) {
                        continue;
                    }
                    first.putIfAbsent(pid, started ? 0L : ticks);
                    last.put(pid, ticks);
                }
            }
        }
        // backends seen before: read again even if they left pg_stat_activity (their process may still be there)
        for (Integer pid : last.keySet()) {
            long ticks = ticks(pid);
            if (ticks >= 0) {
                last.put(pid, ticks);
            }
        }
    }

    private static long ticks(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1; // ended, or not on this machine
        }
    }

    private Map<String, Long> counters() throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        ownStatements += 2;
        try (PreparedStatement clear = c.prepareStatement("SELECT pg_stat_clear_snapshot()")) {
            clear.execute();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT xact_commit, tup_inserted, tup_updated, tup_deleted"
                + " FROM pg_stat_database WHERE datname = ?")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    out.put("commits", rs.getLong(1));
                    out.put("inserted", rs.getLong(2));
                    out.put("updated", rs.getLong(3));
                    out.put("deleted", rs.getLong(4));
                }
            }
        }
        return out;
    }

    /**
     * Stops sampling and returns the row counters' change. PostgreSQL folds a backend's counters into the shared ones
     * at most once a second, so this waits that long first.
     */
    Map<String, Long> stop() throws Exception {
        running = false;
        sampler.interrupt();
        sampler.join(2_000);
        sample();
        Thread.sleep(1_500);
        Map<String, Long> after = counters();
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((k, v) -> delta.put(k, v - countersBefore.getOrDefault(k, 0L)));
        // The sampler's own statements are one read-only transaction each, not the listener's: left out (its last
        // ones may not be folded in yet, so the count is exact to a few transactions).
        delta.computeIfPresent("commits", (k, v) -> Math.max(0, v - ownStatements));
        return delta;
    }

    /** CPU ms of the database's backends over the measured stretch. */
    synchronized double ms() {
        long t = 0;
        for (var e : last.entrySet()) {
            t += e.getValue() - first.getOrDefault(e.getKey(), 0L);
        }
        return t * TICK_NS / 1e6;
    }

    synchronized int backends() {
        return last.size();
    }

    /** A stored count for the benchmark's application (one statement with one text parameter, the app id). */
    long count(String sql, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        running = false;
        sampler.interrupt();
        c.close();
    }
}
