package io.sparkscope.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;

import java.sql.SQLException;

/** A HikariCP pool set up the way the store wants it; listener and server both use this. */
public final class StoreDataSources {
    private StoreDataSources() {
    }

    /**
     * @param jdbcUrl a {@code jdbc:postgresql:} URL; {@code reWriteBatchedInserts=true} is added unless the URL sets it,
     *                because it turns the writer's JDBC batches into multi-row INSERTs
     */
    public static HikariDataSource pooled(String jdbcUrl, String user, String password, int maxPoolSize) {
        return pooled(jdbcUrl, user, password, maxPoolSize, 5_000);
    }

    /**
     * @param connectionTimeoutMs how long a caller waits for a connection; the listener keeps it short because an
     *                            absent database should cost the watched job nothing (it spools instead)
     */
    public static HikariDataSource pooled(String jdbcUrl, String user, String password, int maxPoolSize,
                                          long connectionTimeoutMs) {
        return new HikariDataSource(config(jdbcUrl, user, password, maxPoolSize, connectionTimeoutMs));
    }

    /**
     * As {@link #pooled(String, String, String, int, long)}, for a writer that retries by itself and says once that
     * the database is away (the listener). The pool would evict each connection the database dropped with a warning
     * and a stack trace of its own, at every outage and at a driver's exit; here it leaves them to the writer, which
     * evicts them all quietly once it sees the database gone ({@code getHikariPoolMXBean().softEvictConnections()}).
     */
    public static HikariDataSource pooledForRetryingWriter(String jdbcUrl, String user, String password, int maxPoolSize,
                                                           long connectionTimeoutMs) {
        HikariConfig config = config(jdbcUrl, user, password, maxPoolSize, connectionTimeoutMs);
        config.setExceptionOverride(new SQLExceptionOverride() {
            @java.lang.Override
            public SQLExceptionOverride.Override adjudicate(SQLException e) {
                return SQLExceptionOverride.Override.DO_NOT_EVICT;
            }
        });
        return new HikariDataSource(config);
    }

    private static HikariConfig config(String jdbcUrl, String user, String password, int maxPoolSize,
                                       long connectionTimeoutMs) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(withBatchRewrite(jdbcUrl));
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(maxPoolSize);
        config.setPoolName("sparkscope-store");
        // Fail fast when the database is down: the listener spools instead of waiting.
        config.setConnectionTimeout(connectionTimeoutMs);
        config.setInitializationFailTimeout(-1);
        return config;
    }

    static String withBatchRewrite(String jdbcUrl) {
        if (jdbcUrl.toLowerCase(java.util.Locale.ROOT).contains("rewritebatchedinserts")) {
            return jdbcUrl;
        }
        return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
    }
}
