package io.sparkscope.server.cli;

import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.TestDb;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A database that a test can lose in the middle of a command's run: a PostgreSQL of its own (the shared one must
 * survive), migrated, whose insert of one application's row waits on an advisory lock this object holds.
 * {@link #start} runs the command line on another thread and returns once the command waits on that lock; the test
 * then looks at what is stored, {@link #stopDatabase}s and reads the command's {@link #result}. Closing it lets go of
 * the lock and stops the database if the test did not.
 */
public final class HeldWrite implements AutoCloseable {
    private static final long LOCK = 4242;

    private final EmbeddedPostgres pg;
    private boolean stopped;
    private Connection holder;
    private CompletableFuture<CliRun> running;

    private HeldWrite(EmbeddedPostgres pg) {
        this.pg = pg;
    }

    /** A new database whose insert of application {@code appId} (a test's own constant) will wait for the lock. */
    public static HeldWrite holdingInsertOf(String appId) throws IOException, SQLException {
        HeldWrite held = new HeldWrite(EmbeddedPostgres.builder().start());
        try {
            DataSource ds = held.dataSource();
            SchemaManager.migrate(ds);
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF NEW.app_id = '" + appId + "' THEN PERFORM pg_advisory_lock(" + LOCK + "); END IF;"
                        + " RETURN NEW; END $$");
                st.execute("CREATE TRIGGER hold BEFORE INSERT ON application FOR EACH ROW EXECUTE FUNCTION hold()");
            }
            return held;
        } catch (RuntimeException | SQLException e) {
            held.close();
            throw e;
        }
    }

    public DataSource dataSource() {
        return pg.getPostgresDatabase();
    }

    /** For the command's {@code --db}. */
    public String jdbcUrl() {
        return pg.getJdbcUrl("postgres", "postgres");
    }

    /** Takes the lock, runs the command line with {@code args}, and returns when its write waits (at most 120 s). */
    public void start(List<String> args) throws Exception {
        holder = dataSource().getConnection();
        try (Statement st = holder.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + LOCK + ")");
        }
        running = CompletableFuture.supplyAsync(() -> CliRun.of(args.toArray(String[]::new)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (TestDb.count(dataSource(), "select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
                + " and wait_event = 'advisory'") == 0) {
            if (System.nanoTime() > deadline || running.isDone()) {
                fail("the " + args.get(0) + " never reached the held write: "
                        + (running.isDone() ? running.get().err() : "still running"));
            }
            Thread.sleep(50);
        }
    }

    /** Stops the database while the command's write waits. */
    public void stopDatabase() throws IOException {
        stopped = true;
        pg.close();
    }

    /** What the command printed and returned, once it has ended (at most 120 s). */
    public CliRun result() throws Exception {
        return running.get(120, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException, SQLException {
        try {
            if (holder != null) {
                holder.close();
            }
        } finally {
            if (!stopped) {
                pg.close();
            }
        }
    }
}
