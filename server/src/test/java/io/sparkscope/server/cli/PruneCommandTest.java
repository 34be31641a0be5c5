package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.web.WebServer;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TaskPartitions;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code prune} from the command line, and the pages of what it kept. */
class PruneCommandTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = System.currentTimeMillis();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static void write(DataSource ds, String appId, long start) throws Exception {
        var base = SnapshotBuilder.syntheticSpec(appId, "nightly", "etl", start, 600_000);
        AppSnapshot s = SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(base.appId(), null, base.name(),
                base.user(), start, base.durationMs(), true, base.conf(), 2, 2, 30,
                "ExecutorLostFailure (executor 1 exited)", 64L << 20, 11));
        new SnapshotWriter().write(ds, s, Diagnoser.defaults().diagnose(s));
    }

    /** A database with one application of 200 days ago and one of 5 days ago (120 task rows each). */
    private static String database() throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        io.sparkscope.store.SchemaManager.migrate(ds);
        write(ds, "app-old", NOW - 200 * DAY);
        write(ds, "app-recent", NOW - 5 * DAY);
        return db;
    }

    /** The task partition of the month an application started in. */
    private static String partitionOf(long startMs) {
        return TaskPartitions.nameOf(TaskPartitions.monthOf(startMs));
    }

    private static HttpResponse<String> get(String base, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void keepFindingsLeavesPagesAndFindingsAndRemovesTasks() throws Exception {
        String db = database();
        DataSource ds = TestDb.dataSource(db);
        WebServer server = new WebServer(ds, new WebServer.Options(null, null), System::currentTimeMillis);
        String base = "http://127.0.0.1:" + server.start("127.0.0.1", 0);
        try {
            String findingsBefore = get(base, "/api/v1/apps/app-old/findings").body();
            assertTrue(findingsBefore.contains("\"heuristic\""), findingsBefore);

            CliRun run = CliRun.of("prune", "--older-than", "90d", "--keep-findings", "--batch-size", "50",
                    "--db", TestDb.url(db));
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.err().contains("[1/1 applications] 120 task rows removed"), run.err());
            assertTrue(run.err().contains("pruned the task rows of 1 application(s) that ended before "), run.err());
            assertTrue(run.err().contains("(applications and findings kept); 120 task rows and 0 other rows"),
                    run.err());
            // the old application is alone in its start month: its 120 rows go as one partition; the row deletes
            // find nothing (one batch), then the locked last step
            assertTrue(run.err().contains("task partition " + partitionOf(NOW - 200 * DAY) + " dropped whole: 120 task"
                    + " rows, "), run.err());
            assertTrue(run.err().contains("; 3 transaction(s), "), run.err());
            assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM task JOIN application USING (app_pk)"
                    + " WHERE app_id = 'app-old'"));
            assertEquals(120, TestDb.count(ds, "SELECT count(*) FROM task"), "the recent app keeps its tasks");

            assertEquals(findingsBefore, get(base, "/api/v1/apps/app-old/findings").body());
            var page = get(base, "/apps/app-old");
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("app-old"), "the application page renders");
            assertFalse(page.body().contains("at io.sparkscope"), "no stack trace: " + page.body());
            assertTrue(page.body().contains("6 of 30 task attempts (20 %) failed in stage 3"),
                    "the stored finding, whose evidence was in the task rows, is still shown");
            for (String sub : new String[]{"/stages/0/0/tasks", "/stages/0/0/timeline", "/jobs", "/executors"}) {
                assertEquals(200, get(base, "/apps/app-old" + sub).statusCode(), sub);
            }
            assertTrue(get(base, "/apps?name=nightly").body().contains("app-old"), "still found by the search");

            // reanalyze leaves the pruned application's findings as they were
            CliRun reanalyze = CliRun.of("reanalyze", "--db", TestDb.url(db));
            assertEquals(0, reanalyze.exitCode(), reanalyze.err());
            assertTrue(reanalyze.err().contains("1 with pruned task rows kept their findings"), reanalyze.err());
            assertEquals(findingsBefore, get(base, "/api/v1/apps/app-old/findings").body());
        } finally {
            server.stop();
        }
    }

    @Test
    void wholeApplicationsGoAndADryRunChangesNothing() throws Exception {
        String db = database();
        DataSource ds = TestDb.dataSource(db);
        long rows = TestDb.count(ds, "SELECT (SELECT count(*) FROM application) + (SELECT count(*) FROM task)"
                + " + (SELECT count(*) FROM finding) + (SELECT count(*) FROM stage_statistics)");

        CliRun dry = CliRun.of("prune", "--older-than", "12w", "--dry-run", "--db", TestDb.url(db));
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.err().contains("dry run: would remove 1 application(s) that ended before "), dry.err());
        assertTrue(dry.err().contains("; 120 task rows and "), dry.err());
        assertTrue(dry.err().contains("would be freed"), dry.err());
        assertTrue(dry.err().contains("; 0 transaction(s)"), dry.err());
        assertTrue(dry.err().contains("task partition " + partitionOf(NOW - 200 * DAY) + " would be dropped whole: ≈ "),
                dry.err());
        assertEquals(rows, TestDb.count(ds, "SELECT (SELECT count(*) FROM application) + (SELECT count(*) FROM task)"
                + " + (SELECT count(*) FROM finding) + (SELECT count(*) FROM stage_statistics)"));

        CliRun run = CliRun.of("prune", "--older-than", "2160h", "--batch-size", "40", "--db", TestDb.url(db));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("pruned 1 application(s) that ended before "), run.err());
        // the old application's month goes whole (its 120 task rows), the row deletes find none, then the
        // application
        assertTrue(run.err().contains("; 120 task rows and "), run.err());
        assertTrue(run.err().contains("; 3 transaction(s), "), run.err());
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM pg_class WHERE relname = '"
                + partitionOf(NOW - 200 * DAY) + "'"));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-old'"));
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-recent'"));
        assertEquals(120, TestDb.count(ds, "SELECT count(*) FROM task"));
    }

    @Test
    void aBadDurationOrBatchSizeIsOneLineAndExitsTwo() {
        String db = TestDb.url(TestDb.newDatabaseName());
        CliRun bad = CliRun.of("prune", "--older-than", "9x", "--db", db);
        assertEquals(2, bad.exitCode());
        assertEquals("sparkscope prune: --older-than: \"9x\" is not a duration; use e.g. 90d, 12h, 2w",
                bad.err().strip());
        CliRun zero = CliRun.of("prune", "--older-than", "0d", "--db", db);
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().contains("--older-than: \"0d\" would remove everything"), zero.err());
        CliRun batch = CliRun.of("prune", "--older-than", "90d", "--batch-size", "0", "--db", db);
        assertEquals(2, batch.exitCode());
        assertTrue(batch.err().contains("--batch-size: 0 is outside 1…1000000"), batch.err());
        CliRun missing = CliRun.of("prune", "--db", db);
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--older-than"), missing.err());
    }
}
