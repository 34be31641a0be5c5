package io.sparkscope.server.cli;

import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code import} fails loudly: exit 0 only when every application was stored, 1 when any was not (one line each,
 * the others still imported), 2 when the database is lost mid-run (one line, no further file tried); a second
 * import of the same logs says "unchanged". On a real PostgreSQL; the database refuses an application through a
 * trigger, as it would refuse a value or a constraint.
 */
class ImportExitCodesTest {
    private static final long T0 = 1_764_400_000_000L;

    private static Path log(Path dir, String appId, int i) throws Exception {
        return ImportRegressionTest.log(dir, appId, T0 + i * 3_600_000L, 10_000 + i);
    }

    private static void sql(DataSource ds, String... statements) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    private static List<String> appIds(DataSource ds) throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select app_id from application order by app_id")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static void assertNoStackTrace(CliRun run) {
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception in"), run.err());
    }

    @Test
    void allStoredIsZeroAndASecondImportIsUnchanged(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        String good = log(dir, "app-good-1", 1).toString();
        String good2 = log(dir, "app-good-2", 2).toString();
        CliRun first = CliRun.of("import", good, good2, "--db", TestDb.url(db));
        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.err().contains("imported 2 application(s), 0 unchanged, 0 older than the stored copy,"
                + " 0 failed"), first.err());
        DataSource ds = TestDb.dataSource(db);
        long findings = TestDb.count(ds, "select count(*) from finding");

        CliRun second = CliRun.of("import", good, good2, "--db", TestDb.url(db));
        assertEquals(0, second.exitCode(), second.err());
        assertTrue(second.err().contains("app-good-1 unchanged"), second.err());
        assertTrue(second.err().contains("imported 0 application(s), 2 unchanged, 0 older than the stored copy,"
                + " 0 failed"), second.err());
        assertEquals(findings, TestDb.count(ds, "select count(*) from finding"));
        assertEquals(2, TestDb.count(ds, "select count(*) from application"));
    }

    @Test
    void aFileWithoutAnApplicationAmongGoodOnesIsExitOneAndTheRestIsImported(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        Path bad = Files.writeString(dir.resolve("bad.log"),
                "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");
        CliRun run = CliRun.of("import", log(dir, "app-good-1", 1).toString(), bad.toString(),
                log(dir, "app-good-2", 2).toString(), "--db", TestDb.url(db));
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("[2/3] " + bad + ": not imported: no Spark application events"), run.err());
        assertTrue(run.err().contains("[3/3] "), "the file after the bad one is still imported: " + run.err());
        assertTrue(run.err().contains("imported 2 application(s), 0 unchanged, 0 older than the stored copy,"
                + " 1 failed"), run.err());
        assertEquals(List.of("app-good-1", "app-good-2"), appIds(TestDb.dataSource(db)));
        assertNoStackTrace(run);
    }

    /**
     * Locations that hold no readable log (an empty rolling-log directory, one whose only part has a number past a
     * long, a path that does not exist) are each named with why, and the good logs beside them are still stored.
     */
    @Test
    void aLocationWithoutALogIsNamedAndTheOthersAreImportedExitOne(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        Path empty = Files.createDirectory(dir.resolve("eventlog_v2_app-empty"));
        Path overflow = Files.createDirectory(dir.resolve("eventlog_v2_app-overflow"));
        String huge = "events_99999999999999999999_app-overflow";
        Files.writeString(overflow.resolve(huge), "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");
        Files.writeString(overflow.resolve("appstatus_app-overflow"), "");
        Path missing = dir.resolve("no-such-log");
        CliRun run = CliRun.of("import", log(dir, "app-good-1", 1).toString(), empty.toString(), overflow.toString(),
                missing.toString(), log(dir, "app-good-2", 2).toString(), "--db", TestDb.url(db));
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("sparkscope import: " + empty + ": rolling event log directory without events_"
                + " files (it is empty); not imported"), run.err());
        assertTrue(run.err().contains("sparkscope import: " + overflow + ": rolling event log directory without events_"
                + " files it can read: " + huge + " has a part number past 9223372036854775807, which no Spark"
                + " writes; not imported"), run.err());
        assertTrue(run.err().contains("sparkscope import: " + missing + ": no such file or directory; not imported"),
                run.err());
        assertTrue(run.err().contains("[2/2] "), "both good logs are imported: " + run.err());
        assertTrue(run.err().contains("imported 2 application(s), 0 unchanged, 0 older than the stored copy,"
                + " 3 failed"), run.err());
        assertEquals(List.of("app-good-1", "app-good-2"), appIds(TestDb.dataSource(db)));
        assertNoStackTrace(run);
    }

    @Test
    void theHelpListsTheExitStatuses() {
        CliRun run = CliRun.of("import", "--help");
        assertEquals(0, run.exitCode(), run.err());
        String help = run.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("Exit status: 0 every application was stored"), run.out());
        assertTrue(help.contains(" 1 one or more were not stored, each named on its own line with why (a location"
                + " that is missing or holds no readable log, such as an empty rolling-log directory;"), run.out());
        assertTrue(help.contains(" 2 usage error in the options, or the database could not be reached or was lost"
                + " mid-run"), run.out());
    }

    /**
     * The database refuses one application half-way through its write (a task row, after its application row):
     * nothing of it stays (one transaction), the run names it and goes on, exit 1.
     */
    @Test
    void anApplicationTheDatabaseRefusesIsExitOneAndLeavesNoRows(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        SchemaManager.migrate(ds);
        sql(ds, "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF (SELECT app_id FROM application WHERE app_pk = NEW.app_pk) = 'app-refused' THEN"
                        + " RAISE EXCEPTION 'task rows of app-refused are refused on purpose'; END IF;"
                        + " RETURN NEW; END $$",
                "CREATE TRIGGER refuse BEFORE INSERT ON task FOR EACH ROW EXECUTE FUNCTION refuse()");
        Path refused = log(dir, "app-refused", 2);
        CliRun run = CliRun.of("import", log(dir, "app-good-1", 1).toString(), refused.toString(),
                log(dir, "app-good-2", 3).toString(), "--db", TestDb.url(db));
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("[2/3] " + refused + ": app-refused not stored: ERROR: task rows of"
                + " app-refused are refused on purpose"), run.err());
        assertEquals(List.of("app-good-1", "app-good-2"), appIds(ds));
        assertEquals(0, TestDb.count(ds, "select count(*) from stage_attempt s join application a using (app_pk)"
                + " where a.app_id = 'app-refused'"));
        assertNoStackTrace(run);

        // the cause removed, the same import stores it and leaves the others as they are
        sql(ds, "DROP TRIGGER refuse ON task");
        CliRun again = CliRun.of("import", log(dir, "app-good-1", 1).toString(), refused.toString(),
                log(dir, "app-good-2", 3).toString(), "--db", TestDb.url(db));
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains("imported 1 application(s), 2 unchanged"), again.err());
    }

    /**
     * The database stops while the second of five applications is being written (its write is held on a lock
     * until the server is stopped): one line, exit 2, and the three files after it are not tried.
     */
    @Test
    void aDatabaseLostMidRunIsOneLineAndStopsTheRun(@TempDir Path dir) throws Exception {
        List<String> args = new ArrayList<>(List.of("import"));
        for (int i = 1; i <= 5; i++) {
            args.add(log(dir, "app-mid-" + i, i).toString());
        }
        try (HeldWrite db = HeldWrite.holdingInsertOf("app-mid-2")) {
            args.addAll(List.of("--db", db.jdbcUrl()));
            db.start(args);
            assertEquals(List.of("app-mid-1"), appIds(db.dataSource()));
            db.stopDatabase();
            CliRun run = db.result();
            assertEquals(2, run.exitCode(), run.err());
            List<String> lost = run.err().lines().filter(l -> l.contains("lost the database")).toList();
            assertEquals(1, lost.size(), run.err());
            assertTrue(lost.get(0).startsWith("sparkscope import: lost the database "), run.err());
            assertTrue(lost.get(0).contains("app-mid-2") && lost.get(0).contains("stopped with 4 of 5 not imported"),
                    run.err());
            for (int i = 3; i <= 5; i++) {
                assertFalse(run.err().contains("app-mid-" + i), "file " + i + " was tried: " + run.err());
            }
            assertNoStackTrace(run);
        }
    }

    /** {@code reanalyze} goes on past an application the database refuses, names it and exits 1. */
    @Test
    void reanalyzeNamesWhatTheDatabaseRefusedAndExitsOne(@TempDir Path dir) throws Exception {
        Path shipped = ExampleEventLogs.DIR;
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        assertEquals(0, CliRun.of("import", shipped.toString(), log(dir, "app-other", 1).toString(), "--db",
                TestDb.url(db)).exitCode());
        String shippedId = appIds(ds).stream().filter(id -> !id.equals("app-other")).findFirst().orElseThrow();
        sql(ds, "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF NEW.app_id = '" + shippedId + "' THEN RAISE EXCEPTION 'refused on purpose'; END IF;"
                        + " RETURN NEW; END $$",
                "CREATE TRIGGER refuse BEFORE UPDATE ON application FOR EACH ROW EXECUTE FUNCTION refuse()");
        // new thresholds change the shipped application's findings, so its row is rewritten: refused
        Path cfg = Files.writeString(dir.resolve("t.properties"), "StageSkew.enabled=false\n");
        CliRun run = CliRun.of("reanalyze", "--db", TestDb.url(db), "--heuristics-config", cfg.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains(shippedId + ": not reanalysed: ERROR: refused on purpose"), run.err());
        // app-other has no StageSkew finding to lose: it is reanalysed, unchanged, past the refused one
        assertTrue(run.err().contains("reanalyzed 1 application(s): 0 changed, 1 unchanged, 1 failed"), run.err());
        assertNoStackTrace(run);

        sql(ds, "DROP TRIGGER refuse ON application");
        run = CliRun.of("reanalyze", "--db", TestDb.url(db), "--heuristics-config", cfg.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("reanalyzed 2 application(s): 1 changed, 1 unchanged, 0 failed"), run.err());
        run = CliRun.of("reanalyze", "--db", TestDb.url(db), "--heuristics-config", cfg.toString());
        assertTrue(run.err().contains("reanalyzed 2 application(s): 0 changed, 2 unchanged, 0 failed"), run.err());
    }
}
