package io.sparkscope.server.cli;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.DatabricksRollover;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code import} of a Databricks rollover directory (two gzip'd {@code eventlog-…gz} files and the current
 * {@code eventlog}) stores one application with all its jobs, stages and tasks and the Spark version of its
 * metadata lines; naming its files one by one stores it once too. On a real PostgreSQL.
 */
class DatabricksRolloverImportTest {
    private static final String APP = "app-20220114165818-0000";

    @Test
    void aRolloverDirectoryIsOneApplication(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        SyntheticLog app = new SyntheticLog(APP, "Databricks Shell", 1_642_179_495_331L, 6, 40);
        Path rollover = dir.resolve("3987391921526261116");
        List<Path> files = DatabricksRollover.write(rollover, app);
        Path other = ImportRegressionTest.log(dir, "app-good-1", 1_764_400_000_000L, 10_000);

        CliRun run = CliRun.of("import", rollover.toString(), other.toString(), "--db", TestDb.url(db));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("[1/2] " + rollover + ": " + APP + " imported"), run.err());
        assertTrue(run.err().contains("imported 2 application(s), 0 unchanged"), run.err());
        DataSource ds = TestDb.dataSource(db);
        assertEquals(2, TestDb.count(ds, "select count(*) from application"));
        AppSnapshot s = SnapshotReader.read(ds, APP, null).orElseThrow();
        assertEquals(DatabricksRollover.SPARK_VERSION, s.sparkVersion());
        assertEquals(6, s.totals().jobs());
        assertEquals(6, s.totals().stages());
        assertEquals(app.tasks(), s.totals().tasks());
        assertTrue(s.complete());

        // each file named, as a shell glob gives them: the same one application, once
        List<String> args = new ArrayList<>(List.of("import"));
        files.forEach(f -> args.add(f.toString()));
        args.addAll(List.of("--db", TestDb.url(db)));
        CliRun again = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains("[1/1] " + rollover + ": " + APP + " unchanged"), again.err());
        assertEquals(2, TestDb.count(ds, "select count(*) from application"));
    }
}
