package io.sparkscope.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

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
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(withBatchRewrite(jdbcUrl));
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(maxPoolSize);
        config.setPoolName("sparkscope-store");
        // Fail fast when the database is down: the listener spools instead of waiting (issue 3, outage).
        config.setConnectionTimeout(connectionTimeoutMs);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    static String withBatchRewrite(String jdbcUrl) {
        if (jdbcUrl.toLowerCase(java.util.Locale.ROOT).contains("rewritebatchedinserts")) {
            return jdbcUrl;
        }
        return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
    }
}
