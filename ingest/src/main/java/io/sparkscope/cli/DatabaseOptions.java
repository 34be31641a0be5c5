package io.sparkscope.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SchemaStatus;
import io.sparkscope.store.StoreDataSources;
import io.sparkscope.store.ingest.DatabaseErrors;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * {@code --db/--user/--password}, shared by the commands that use the database and by the Spark archive import
 * (which names them {@code --db-url/--db-user/--db-password}: both spellings work everywhere).
 */
public final class DatabaseOptions {
    @Option(names = {"--db", "--db-url"}, required = true, paramLabel = "<jdbc-url>",
            description = "PostgreSQL JDBC URL, e.g. jdbc:postgresql://localhost:5432/sparkscope")
    String url;

    @Option(names = {"--user", "--db-user"}, paramLabel = "<name>", description = "Database user.")
    String user;

    @Option(names = {"--password", "--db-password"}, paramLabel = "<password>",
            description = "Database password (default: the SPARKSCOPE_DB_PASSWORD environment variable, which "
                    + "is safer: a command line shows in process lists and, on Spark, in the Spark UI).")
    String password;

    /**
     * How long a command waits for a database connection. Longer than the listener's five seconds: nothing is
     * waiting on a command but its user, and on a busy host the first connection (TLS, authentication, a cold JVM)
     * can take several seconds. A refused connection or an unknown host still fails at once: one direct connection
     * is tried before the pool is made, and its error says why (the pool would retry until the timeout and report
     * only that it had no connection).
     */
    public static final long CONNECT_TIMEOUT_MS = 30_000;

    /** A pool on a reachable database with the current schema (migrated if empty or older), or a one-line error. */
    public HikariDataSource open(int poolSize) {
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new UsageError("--db: expected a jdbc:postgresql: URL, got '" + url + "'");
        }
        String pw = password();
        checkReachable(pw);
        HikariDataSource ds = StoreDataSources.pooled(url, user, pw, poolSize, CONNECT_TIMEOUT_MS);
        try (Connection c = ds.getConnection()) {
            c.isValid(2);
        } catch (SQLException e) {
            ds.close();
            throw new UsageError("cannot connect to " + url + ": " + DatabaseErrors.reason(e));
        }
        SchemaStatus status;
        try {
            status = SchemaManager.migrate(ds);
        } catch (RuntimeException e) {
            // the database went away between the connection check and the migration
            ds.close();
            throw new UsageError("cannot use " + url + ": " + DatabaseErrors.reason(e));
        }
        if (!status.usable()) {
            ds.close();
            throw new UsageError(status.message());
        }
        return ds;
    }

    private void checkReachable(String pw) {
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (pw != null) {
            props.setProperty("password", pw);
        }
        props.setProperty("loginTimeout", Long.toString(CONNECT_TIMEOUT_MS / 1000));
        try (Connection c = DriverManager.getConnection(url, props)) {
            c.isValid(2);
        } catch (SQLException e) {
            throw new UsageError("cannot connect to " + url + ": " + DatabaseErrors.reason(e));
        }
    }

    /** The JDBC URL given. */
    public String url() {
        return url;
    }

    /** The user given, or null. */
    public String user() {
        return user;
    }

    /** The password given, else the SPARKSCOPE_DB_PASSWORD environment variable, else null. */
    public String password() {
        return password != null ? password : System.getenv("SPARKSCOPE_DB_PASSWORD");
    }

    public static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
