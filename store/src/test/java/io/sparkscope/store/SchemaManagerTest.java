package io.sparkscope.store;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaManagerTest {

    @Test
    void migratesAnEmptyDatabaseToTheCurrentVersion() {
        DataSource ds = TestDb.newDatabase();
        SchemaStatus before = SchemaManager.check(ds);
        assertEquals(SchemaStatus.State.EMPTY, before.state());
        assertNull(before.current());
        assertTrue(before.message().contains("no Sparkscope schema"), before.message());

        SchemaStatus after = SchemaManager.migrate(ds);
        assertEquals(SchemaStatus.State.CURRENT, after.state(), after.message());
        assertEquals(after.expected(), after.current());
        assertTrue(after.usable());
        for (String table : new String[]{"application", "configuration", "executor", "job", "stage_attempt",
                "stage_statistics", "task", "sql_execution", "sql_plan_node", "sql_plan_edge", "sql_node_metric", "finding",
                SchemaManager.HISTORY_TABLE}) {
            assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM pg_tables WHERE tablename = '" + table + "'"), table);
        }
        // zonky's PostgreSQL ships pg_trgm, so name search gets the trigram index (on the lower-cased name, V20).
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM pg_indexes WHERE indexname = 'application_name_lower_trgm_idx'"));

        // Idempotent: a second migrate (another server starting) changes nothing.
        assertEquals(SchemaStatus.State.CURRENT, SchemaManager.migrate(ds).state());
    }

    @Test
    void manyProcessesMigratingAnEmptyDatabaseAtOnceAllSucceed() throws Exception {
        // Twenty drivers starting against a new database race to create the history table; each must end with a
        // usable schema rather than an error about a history table that "already exists, and is empty".
        for (int round = 0; round < 3; round++) {
            DataSource ds = TestDb.newDatabase();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(12);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.List<java.util.concurrent.Future<SchemaStatus>> results = new java.util.ArrayList<>();
            for (int i = 0; i < 12; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return SchemaManager.migrate(ds);
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<SchemaStatus> f : results) {
                assertEquals(SchemaStatus.State.CURRENT, f.get(120, java.util.concurrent.TimeUnit.SECONDS).state());
            }
            pool.shutdown();
        }
    }

    @Test
    void reportsAnOlderSchemaWithAClearMessage() {
        DataSource ds = TestDb.newDatabase();
        Flyway.configure().dataSource(ds).locations(SchemaManager.LOCATION).table(SchemaManager.HISTORY_TABLE)
                .target("1").load().migrate();
        SchemaStatus status = SchemaManager.check(ds);
        assertEquals(SchemaStatus.State.OLDER, status.state());
        assertEquals("1", status.current());
        assertTrue(status.message().contains("version 1, older than version " + status.expected()), status.message());

        assertEquals(SchemaStatus.State.CURRENT, SchemaManager.migrate(ds).state());
    }

    @Test
    void reportsANewerSchemaWithAClearMessage() throws Exception {
        DataSource ds = TestDb.migrated();
        String expected = SchemaManager.check(ds).expected();
        // What a newer Sparkscope's migration V99 would leave in the history table.
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO " + SchemaManager.HISTORY_TABLE + " (installed_rank, version, description, type,"
                    + " script, checksum, installed_by, execution_time, success) VALUES"
                    + " (100, '99', 'future', 'SQL', 'V99__future.sql', 1, 'test', 1, true)");
        }
        SchemaStatus status = SchemaManager.check(ds);
        assertEquals(SchemaStatus.State.NEWER, status.state());
        assertEquals("99", status.current());
        assertTrue(status.message().contains("version 99, newer than version " + expected), status.message());
        assertTrue(!status.usable());
        // migrate() must not fail or downgrade on a newer database: it reports it.
        assertEquals(SchemaStatus.State.NEWER, SchemaManager.migrate(ds).state());
    }

    @Test
    void namesTheVersionsOfAHistoryThatDoesNotMatchThisCode() throws Exception {
        DataSource ds = TestDb.migrated();
        // What a development build's migration V1.5 (since renumbered) and an edited V2 leave in the history table.
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO " + SchemaManager.HISTORY_TABLE + " (installed_rank, version, description, type,"
                    + " script, checksum, installed_by, execution_time, success) VALUES"
                    + " (100, '1.5', 'sql plan graph', 'SQL', 'V1.5__sql_plan_graph.sql', 1, 'test', 1, true)");
            st.execute("UPDATE " + SchemaManager.HISTORY_TABLE + " SET checksum = 12345 WHERE version = '2'");
        }
        SchemaStatus status = SchemaManager.migrate(ds);
        assertEquals(SchemaStatus.State.MISMATCHED, status.state(), status.message());
        assertTrue(!status.usable());
        assertTrue(status.message().contains("version 1.5 (sql plan graph)"), status.message());
        assertTrue(status.message().contains("version 2 "), status.message());
        assertTrue(status.message().contains(SchemaManager.HISTORY_TABLE), status.message());
        assertTrue(!status.message().contains("\n"), "one line: " + status.message());
    }

    /** A lower version that lands after a higher one was applied (parallel work) is applied, not refused. */
    @Test
    void appliesALowerVersionMissingBelowTheAppliedOnes() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP INDEX task_stage_duration_idx");
            st.execute("DROP INDEX task_stage_status_idx");
            st.execute("DELETE FROM " + SchemaManager.HISTORY_TABLE + " WHERE version = '18'");
        }
        assertEquals(SchemaStatus.State.CURRENT, SchemaManager.migrate(ds).state());
        assertEquals(2, TestDb.count(ds, "SELECT count(*) FROM pg_indexes WHERE indexname IN"
                + " ('task_stage_duration_idx', 'task_stage_status_idx')"));
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM " + SchemaManager.HISTORY_TABLE
                + " WHERE version = '18' AND success"));
    }

    @Test
    void migratesIntoADatabaseThatAlreadyHoldsOtherTables() throws Exception {
        DataSource ds = TestDb.newDatabase();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE someone_elses (id int)");
        }
        SchemaStatus status = SchemaManager.migrate(ds);
        assertEquals(SchemaStatus.State.CURRENT, status.state(), status.message());
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM pg_tables WHERE tablename = 'application'"));
    }

    /** The list the quick check compares with is the migration directory, script for script. */
    @Test
    void theShippedScriptsAreTheMigrationDirectory() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of("src/main/resources/db/migration/sparkscope");
        java.util.List<String> files;
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(dir)) {
            files = s.map(p -> p.getFileName().toString())
                    .sorted(java.util.Comparator.comparing(n -> org.flywaydb.core.api.MigrationVersion.fromVersion(
                            ShippedMigrations.version(n))))
                    .toList();
        }
        assertEquals(files, ShippedMigrations.SCRIPTS,
                "a migration was added or renamed: list it in ShippedMigrations.SCRIPTS, in version order");
    }

    /** On a current database the quick check answers, and says what Flyway would say. */
    @Test
    void aCurrentDatabaseIsRecognisedWithoutFlyway() throws Exception {
        DataSource ds = TestDb.newDatabase();
        assertNull(ShippedMigrations.currentOrNull(ds), "no history table yet");
        SchemaManager.migrate(ds);
        // the checksums this code computes are the ones Flyway stored, script by script
        for (String script : ShippedMigrations.SCRIPTS) {
            assertEquals((long) ShippedMigrations.checksum(script), TestDb.count(ds, "SELECT checksum FROM "
                    + SchemaManager.HISTORY_TABLE + " WHERE version = '" + ShippedMigrations.version(script) + "'"),
                    script);
        }
        SchemaStatus quick = ShippedMigrations.currentOrNull(ds);
        assertEquals(SchemaManager.flywayCheck(ds), quick);
        assertEquals(SchemaStatus.State.CURRENT, quick.state());
    }

    /** Anything but exactly the shipped migrations, all successful, goes to Flyway. */
    @Test
    void anyOtherHistoryIsLeftToFlyway() throws Exception {
        String[] edits = {
                "UPDATE " + SchemaManager.HISTORY_TABLE + " SET checksum = checksum + 1 WHERE version = '2'",
                "UPDATE " + SchemaManager.HISTORY_TABLE + " SET success = false WHERE version = '33'",
                "DELETE FROM " + SchemaManager.HISTORY_TABLE + " WHERE version = '18'",
                "INSERT INTO " + SchemaManager.HISTORY_TABLE + " (installed_rank, version, description, type,"
                        + " script, checksum, installed_by, execution_time, success) VALUES"
                        + " (100, '99', 'future', 'SQL', 'V99__future.sql', 1, 'test', 1, true)",
        };
        for (String edit : edits) {
            DataSource ds = TestDb.migrated();
            assertEquals(SchemaStatus.State.CURRENT, ShippedMigrations.currentOrNull(ds).state());
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute(edit);
            }
            assertNull(ShippedMigrations.currentOrNull(ds), edit);
        }
    }

    @Test
    void statusMessagesNameBothVersions() {
        assertEquals(SchemaStatus.State.FAILED, SchemaManager.status("2", "2", true).state());
        assertTrue(SchemaManager.status("1.1", "1.10", false).message().contains("older"));
        assertTrue(SchemaManager.status("10", "9", false).message().contains("newer"));
    }
}
