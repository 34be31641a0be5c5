package io.sparkscope.examples.demo;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.store.StoreDataSources;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Opens the PostgreSQL a (stopped) demo left in its data directory, to check what it recorded. */
final class DemoDb implements AutoCloseable {
    final EmbeddedPostgres pg;
    final HikariDataSource ds;

    DemoDb(Path dataDir) throws Exception {
        pg = EmbeddedPostgres.builder().setDataDirectory(dataDir.resolve("pg")).setCleanDataDirectory(false)
                .setPGStartupWait(Duration.ofSeconds(60)).start();
        ds = StoreDataSources.pooled("jdbc:postgresql://localhost:" + pg.getPort() + "/" + DemoDatabase.DB,
                DemoDatabase.USER, null, 2);
    }

    /** app name → app id of every recorded application (names are unique in these tests). */
    Map<String, String> appsByName() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name, app_id FROM application ORDER BY start_time")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    long count(String table) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws Exception {
        ds.close();
        pg.close();
    }
}
