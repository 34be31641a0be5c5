package io.sparkscope.store;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationVersion;

import javax.sql.DataSource;

/**
 * Versioned schema migrations (Flyway, {@code db/migration/sparkscope/V*.sql}) and the version check the listener and
 * server run at start.
 *
 * <p>The history table is {@code sparkscope_schema_history} rather than Flyway's default so the schema can share a
 * database (and a schema) with other Flyway-managed applications.
 */
public final class SchemaManager {
    public static final String HISTORY_TABLE = "sparkscope_schema_history";
    public static final String LOCATION = "classpath:db/migration/sparkscope";

    private SchemaManager() {
    }

    /**
     * Applies pending migrations and returns the resulting status. Safe to call from many processes at once: Flyway
     * serialises migrators with a PostgreSQL advisory lock. A database migrated by a newer Sparkscope is left alone
     * and reported as {@link SchemaStatus.State#NEWER}.
     */
    public static SchemaStatus migrate(DataSource dataSource) {
        flyway(dataSource).migrate();
        return check(dataSource);
    }

    /** Compares the database's schema version with this code's, without changing anything. */
    public static SchemaStatus check(DataSource dataSource) {
        MigrationInfoService info = flyway(dataSource).info();
        MigrationVersion expected = null;
        MigrationVersion current = null;
        boolean failed = false;
        for (MigrationInfo m : info.all()) {
            if (m.getVersion() == null) {
                continue; // repeatable migrations carry no version
            }
            if (m.getState().isResolved() && (expected == null || m.getVersion().compareTo(expected) > 0)) {
                expected = m.getVersion();
            }
            if (m.getState().isApplied()) {
                failed |= m.getState().isFailed();
                if (current == null || m.getVersion().compareTo(current) > 0) {
                    current = m.getVersion();
                }
            }
        }
        if (expected == null) {
            throw new IllegalStateException("no Sparkscope migrations on the classpath at " + LOCATION);
        }
        return status(current == null ? null : current.getVersion(), expected.getVersion(), failed);
    }

    static SchemaStatus status(String current, String expected, boolean failed) {
        if (failed) {
            return new SchemaStatus(current, expected, SchemaStatus.State.FAILED,
                    "Sparkscope schema migration to version " + current + " failed; fix the database and run "
                            + "Flyway repair on table " + HISTORY_TABLE + " before using it");
        }
        if (current == null) {
            return new SchemaStatus(null, expected, SchemaStatus.State.EMPTY,
                    "the database has no Sparkscope schema yet (expected version " + expected
                            + "); start the server or run migrate to create it");
        }
        int cmp = MigrationVersion.fromVersion(current).compareTo(MigrationVersion.fromVersion(expected));
        if (cmp < 0) {
            return new SchemaStatus(current, expected, SchemaStatus.State.OLDER,
                    "the Sparkscope schema in the database is version " + current + ", older than version "
                            + expected + " this Sparkscope needs; upgrade it (start the newer server, or migrate)");
        }
        if (cmp > 0) {
            return new SchemaStatus(current, expected, SchemaStatus.State.NEWER,
                    "the Sparkscope schema in the database is version " + current + ", newer than version "
                            + expected + " this Sparkscope understands; upgrade this Sparkscope (listener jar or server)");
        }
        return new SchemaStatus(current, expected, SchemaStatus.State.CURRENT,
                "Sparkscope schema version " + current + " is current");
    }

    private static Flyway flyway(DataSource dataSource) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations(LOCATION)
                .table(HISTORY_TABLE)
                // A shared database may already hold other tables: baseline at 0 so V1 still runs there.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                // Version numbers are handed out to parallel pieces of work, so a lower one (an index) can land after
                // a higher one was applied; it is applied then instead of failing validation.
                .outOfOrder(true)
                // The Spark driver log and server log get our own one-line status, not Flyway's banner.
                .loggers("slf4j")
                .load();
    }
}
