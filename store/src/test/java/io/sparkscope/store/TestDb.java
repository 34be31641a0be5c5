package io.sparkscope.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL (zonky embedded) per test JVM, started on first use (~2 s) and stopped at JVM exit; every test
 * class gets its own fresh database in it, so classes cannot see each other's rows and the suite pays the start once.
 */
public final class TestDb {
    private static EmbeddedPostgres postgres;
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private TestDb() {
    }

    public static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is going away anyway
                }
            }));
        }
        return postgres;
    }

    /** JDBC URL of a database in the shared server (for code that takes a URL, like the listener). */
    public static String url(String database) {
        return "jdbc:postgresql://localhost:" + server().getPort() + "/" + database + "?user=postgres";
    }

    /**
     * For a test that writes with this code into a schema older than V33: the task table's metrics column takes this
     * code's bigint array, as V33 would make it (V33 then leaves it as it is).
     */
    public static void taskMetricsAsArray(DataSource ds) {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE task ALTER COLUMN metrics TYPE bigint[] USING NULL");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Analyses every table now. A prune's byte estimate divides each table's size by the planner's row count; once
     * analysed, autovacuum has nothing left to analyse, so a dry run and the real run right after it read the same
     * counts.
     */
    public static void analyze(DataSource ds) {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("ANALYZE");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new empty database's name. */
    public static String newDatabaseName() {
        String name = "sparkscope_test_" + COUNTER.incrementAndGet();
        try (Connection c = server().getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name); // name is ours, not user input
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return name;
    }

    /** A new empty database; {@code reWriteBatchedInserts=true} as production pools use it. */
    public static PGSimpleDataSource newDatabase() {
        String name = newDatabaseName();
        return dataSource(name);
    }

    public static PGSimpleDataSource dataSource(String database) {
        return dataSource(server().getPort(), database);
    }

    /**
     * A database of a PostgreSQL on this machine (the shared one, or a bench's own) as user postgres, with
     * {@code reWriteBatchedInserts=true} as production pools use it.
     */
    public static PGSimpleDataSource dataSource(int port, String database) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[]{"localhost"});
        ds.setPortNumbers(new int[]{port});
        ds.setDatabaseName(database);
        ds.setUser("postgres");
        ds.setReWriteBatchedInserts(true);
        return ds;
    }

    /** A fresh, migrated database. */
    public static DataSource migrated() {
        PGSimpleDataSource ds = newDatabase();
        SchemaManager.migrate(ds);
        return ds;
    }

    public static long count(DataSource ds, String sql) {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             var rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
