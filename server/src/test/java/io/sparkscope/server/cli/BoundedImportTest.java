package io.sparkscope.server.cli;

import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code import} keeps the listener's windows and writes what leaves them on the way: a log with more jobs and
 * removed executors than the windows hold is stored whole, and imported again it changes nothing.
 */
class BoundedImportTest {
    @Test
    void everyJobAndExecutorIsStoredThoughTheWindowsHoldAThousand(@TempDir Path dir) throws Exception {
        Path jobs = dir.resolve("jobs");
        WideLogs.write("jobs", jobs, 3_000);
        Path executors = dir.resolve("executors");
        WideLogs.write("executors", executors, 2_500);
        String db = TestDb.newDatabaseName();
        CliRun run = CliRun.of("import", jobs.toString(), executors.toString(), "--db", TestDb.url(db));
        assertEquals(0, run.exitCode(), run.err());
        DataSource ds = TestDb.dataSource(db);
        assertEquals(3_000, count(ds, "SELECT count(*) FROM job j JOIN application a USING (app_pk)"
                + " WHERE a.name = 'wide-jobs'"));
        assertEquals(3_000, count(ds, "SELECT count(*) FROM stage_attempt s JOIN application a USING (app_pk)"
                + " WHERE a.name = 'wide-jobs'"));
        assertEquals(2_501, count(ds, "SELECT count(*) FROM executor e JOIN application a USING (app_pk)"
                + " WHERE a.name = 'wide-executors'"), "the live one and every removed one");
        assertEquals(2_500, count(ds, "SELECT count(*) FROM executor e JOIN application a USING (app_pk)"
                + " WHERE a.name = 'wide-executors' AND e.remove_time >= 0"));
        assertEquals(2_501, count(ds, "SELECT num_executors FROM application WHERE name = 'wide-executors'"),
                "the application row counts the executors that left the window too");
        // Positions do not restart once executors left the window (they did: a thousand shared each position). The
        // one live executor, listed before every removed one, moves behind those that left and may share one.
        long positions = count(ds, "SELECT count(DISTINCT e.ord) FROM executor e JOIN application a USING (app_pk)"
                + " WHERE a.name = 'wide-executors'");
        assertTrue(positions >= 2_500, "positions: " + positions);
        assertEquals(2_501, count(ds, "SELECT e.executor_id::bigint FROM executor e JOIN application a USING (app_pk)"
                + " WHERE a.name = 'wide-executors' ORDER BY e.ord DESC LIMIT 1"), "the newest comes last");

        CliRun again = CliRun.of("import", jobs.toString(), "--db", TestDb.url(db));
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains("unchanged") || again.err().contains("not replaced"), again.err());
        assertEquals(3_000, count(ds, "SELECT count(*) FROM job"));
    }

    private static long count(DataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
