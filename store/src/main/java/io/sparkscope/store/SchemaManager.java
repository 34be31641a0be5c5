package io.sparkscope.store;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.ValidateOutput;
import org.flywaydb.core.api.output.ValidateResult;

import java.util.ArrayList;
import java.util.List;

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
     * and reported as {@link SchemaStatus.State#NEWER}. A database that already holds exactly this code's migrations
     * is recognised from its history table alone, without starting Flyway ({@link ShippedMigrations}).
     */
    public static SchemaStatus migrate(DataSource dataSource) {
        SchemaStatus quick = ShippedMigrations.currentOrNull(dataSource);
        if (quick != null) {
            return quick;
        }
        for (int attempt = 1; ; attempt++) {
            boolean late = lateVersions(dataSource);
            try {
                flyway(dataSource, late).migrate();
                return check(dataSource);
            } catch (FlywayValidateException e) {
                // Flyway's own message is "Validate failed: Migrations have failed validation" with the detail on
                // later lines that one-line error reports drop; say which versions differ and what to do instead.
                return mismatch(dataSource, late);
            } catch (FlywayException e) {
                // Flyway's advisory lock covers the migrations, not the creation of the history table on an empty
                // database: when many drivers start at once, one can see the table another has just created, still
                // empty, and give up ("unable to baseline ... already exists, and is empty"). A second look finds it
                // filled in, so try again a few times before reporting the error.
                if (attempt >= MIGRATE_ATTEMPTS) {
                    throw e;
                }
                try {
                    Thread.sleep(100L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static final int MIGRATE_ATTEMPTS = 5;

    /**
     * Whether a migration of this code is missing below the newest applied one. Version numbers are handed out to
     * parallel pieces of work, so a lower one (an index) can land after a higher one was applied; Flyway then
     * applies it out of order instead of failing validation. Only then, as Flyway warns about that mode each run.
     */
    private static boolean lateVersions(DataSource dataSource) {
        for (MigrationInfo m : flyway(dataSource).info().all()) {
            if (m.getState() == MigrationState.IGNORED) {
                return true;
            }
        }
        return false;
    }

    /** The versions whose history in the database differs from this code's migrations, in one sentence. */
    private static SchemaStatus mismatch(DataSource dataSource, boolean late) {
        ValidateResult result = Flyway.configure().configuration(flyway(dataSource, late).getConfiguration())
                // not yet applied (an older database) and newer than this code are not mismatches: migrate and
                // check() handle those
                .ignoreMigrationPatterns("*:pending", "*:future")
                .load().validateWithResult();
        List<String> what = new ArrayList<>();
        for (ValidateOutput o : result.invalidMigrations) {
            String detail = o.errorDetails == null || o.errorDetails.errorMessage == null ? ""
                    : ": " + firstLine(o.errorDetails.errorMessage);
            what.add("version " + o.version + (o.description == null || o.description.isBlank() ? ""
                    : " (" + o.description + ")") + detail);
        }
        if (what.isEmpty()) {
            what.add(firstLine(result.getAllErrorMessages() == null ? "no detail from Flyway"
                    : result.getAllErrorMessages()));
        }
        SchemaStatus versions = check(dataSource);
        return new SchemaStatus(versions.current(), versions.expected(), SchemaStatus.State.MISMATCHED,
                "the Sparkscope schema history in this database (table " + HISTORY_TABLE + ") does not match this"
                        + " Sparkscope's migrations: " + String.join("; ", what) + ". A database written by another"
                        + " build of Sparkscope? Use a new database, or run Flyway repair on " + HISTORY_TABLE
                        + " once you know the schema is the same");
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    /**
     * Compares the database's schema version with this code's, without changing anything. Flyway is started only when
     * the history table does not hold exactly this code's migrations.
     */
    public static SchemaStatus check(DataSource dataSource) {
        SchemaStatus quick = ShippedMigrations.currentOrNull(dataSource);
        return quick != null ? quick : flywayCheck(dataSource);
    }

    /** {@link #check} as Flyway sees it: its scripts on the classpath against its history table. */
    static SchemaStatus flywayCheck(DataSource dataSource) {
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
        return flyway(dataSource, false);
    }

    private static Flyway flyway(DataSource dataSource, boolean outOfOrder) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations(LOCATION)
                .table(HISTORY_TABLE)
                // A shared database may already hold other tables: baseline at 0 so V1 still runs there.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .outOfOrder(outOfOrder)
                // The Spark driver log and server log get our own one-line status, not Flyway's banner.
                .loggers("slf4j")
                .load();
    }
}
