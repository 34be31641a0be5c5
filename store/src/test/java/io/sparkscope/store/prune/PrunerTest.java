package io.sparkscope.store.prune;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.ingest.AppKey;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Pruner} on a real PostgreSQL: what goes, what stays, in how many transactions. */
class PrunerTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = System.currentTimeMillis();
    private static final long CUTOFF = NOW - 90 * DAY;

    /** Tables an application's rows live in, besides application itself. */
    private static final List<String> CHILDREN = List.of("configuration", "executor", "job", "stage_attempt",
            "stage_statistics", "task", "finding");

    private static AppSnapshot app(String id, long start, boolean complete) {
        return app(id, start, 600_000, complete);
    }

    private static AppSnapshot app(String id, long start, long durationMs, boolean complete) {
        // 2 jobs × 2 stages × 10 tasks = 40 task rows; spill and a failure give it findings
        var base = SnapshotBuilder.syntheticSpec(id, "nightly", "etl", start, durationMs);
        return SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(base.appId(), null, base.name(),
                base.user(), start, base.durationMs(), complete, base.conf(), 2, 2, 10,
                "ExecutorLostFailure (executor 1 exited)", 64L << 20, 7));
    }

    private static void write(DataSource ds, AppSnapshot s) throws SQLException {
        new SnapshotWriter().write(ds, s, Diagnoser.defaults().diagnose(s));
    }

    /** Three old (one of them never ended), two recent. */
    private static DataSource database() throws SQLException {
        DataSource ds = TestDb.migrated();
        write(ds, app("app-old-1", NOW - 400 * DAY, true));
        write(ds, app("app-old-2", NOW - 200 * DAY, true));
        write(ds, app("app-old-running", NOW - 120 * DAY, false));
        write(ds, app("app-new-1", NOW - 10 * DAY, true));
        // started before the cutoff, ended after it: young enough
        write(ds, app("app-new-long", CUTOFF - DAY, 2 * DAY, true));
        TestDb.analyze(ds); // a dry run and the real run then estimate bytes from the same row counts
        return ds;
    }

    /** table → rows of the application, for every table it has rows in. */
    private static Map<String, Long> rowsOf(DataSource ds, String appId) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        for (String t : CHILDREN) {
            out.put(t, TestDb.count(ds, "SELECT count(*) FROM " + t + " x JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = '" + appId + "'"));
        }
        return out;
    }

    private static List<String> apps(DataSource ds) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT app_id FROM application ORDER BY app_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static Map<String, Long> allRows(DataSource ds) {
        Map<String, Long> out = new TreeMap<>();
        for (String t : CHILDREN) {
            out.put(t, TestDb.count(ds, "SELECT count(*) FROM " + t));
        }
        out.put("application", TestDb.count(ds, "SELECT count(*) FROM application"));
        return out;
    }

    @Test
    void oldApplicationsGoWholeInBatchesSmallerThanTheirTasks() throws Exception {
        DataSource ds = database();
        Map<String, Long> recent = rowsOf(ds, "app-new-1");
        assertEquals(40, recent.get("task"));
        assertTrue(recent.get("finding") > 0, "the synthetic app has findings: " + recent);
        List<Pruner.Tally> steps = new ArrayList<>();
        Pruner.Tally t = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.APPLICATIONS, 7, false))
                .run(steps::add);
        assertEquals(List.of("app-new-1", "app-new-long"), apps(ds));
        assertEquals(3, t.candidates());
        assertEquals(3, t.applications());
        assertEquals(120, t.taskRows());
        // each old application started in a past month of its own: its task partition goes whole (3 drops); the
        // row deletes then find nothing (one batch), then one transaction per application. The batches themselves:
        // TaskPartitionPruneTest, whose month with a young application goes row by row.
        assertEquals(3 + 1 + 3, t.transactions());
        assertTrue(t.otherRows() > 3, "stages, statistics, configuration, findings went too: " + t);
        assertTrue(t.bytes() > 0, t.toString());
        assertEquals(recent, rowsOf(ds, "app-new-1"), "the recent application is untouched");
        for (String gone : List.of("app-old-1", "app-old-2", "app-old-running")) {
            assertEquals(0, rowsOf(ds, gone).values().stream().mapToLong(Long::longValue).sum(), gone);
        }
        assertEquals(List.of(t), steps, "one group of applications, one progress report");
        Pruner.Tally again = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.APPLICATIONS, 7, false))
                .run(steps::add);
        assertEquals(new Pruner.Tally(0, 0, 0, 0, 0, 0), again, "nothing left to prune");
    }

    @Test
    void keepFindingsRemovesOnlyTaskRows() throws Exception {
        DataSource ds = database();
        Map<String, Long> before = rowsOf(ds, "app-old-1");
        Map<String, Long> recent = rowsOf(ds, "app-new-1");
        Pruner.Tally t = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.TASK_ROWS, 25, false))
                .run(s -> { });
        assertEquals(new Pruner.Tally(3, 3, 120, 0, t.bytes(), 3 + 1 + 1), t,
                "120 task rows in 3 whole partitions (one per old month), a batch that finds none, then the stage"
                        + " rows and the record under the locks");
        assertEquals(5, apps(ds).size(), "every application stays");
        Map<String, Long> after = rowsOf(ds, "app-old-1");
        Map<String, Long> expected = new TreeMap<>(before);
        expected.put("task", 0L);
        assertEquals(expected, after, "only the task rows went");
        assertEquals(recent, rowsOf(ds, "app-new-1"));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM stage_attempt s JOIN application a USING (app_pk)"
                + " WHERE a.app_id LIKE 'app-old-%' AND (s.kept_tasks <> 0 OR s.tasks_digest IS NOT NULL)"));
        assertEquals(Set.of(new AppKey("app-old-1", null), new AppKey("app-old-2", null),
                new AppKey("app-old-running", null)), Pruner.tasksPruned(ds));
        assertEquals(3, TestDb.count(ds, "SELECT count(*) FROM task_prune WHERE task_rows = 40"));
        Pruner.Tally again = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.TASK_ROWS, 25, false))
                .run(s -> { });
        assertEquals(0, again.candidates(), "nothing left to prune");

        // the same log imported again brings the task rows back (the stage rows no longer claim to hold them)
        write(ds, app("app-old-1", NOW - 400 * DAY, true));
        assertEquals(before, rowsOf(ds, "app-old-1"));
        assertEquals(Set.of(new AppKey("app-old-2", null), new AppKey("app-old-running", null)),
                Pruner.tasksPruned(ds));
    }

    @Test
    void aDryRunCountsWhatTheRunThenRemovesAndChangesNothing() throws Exception {
        for (Pruner.Scope scope : Pruner.Scope.values()) {
            DataSource ds = database();
            Map<String, Long> before = allRows(ds);
            Pruner.Tally dry = new Pruner(ds, new Pruner.Options(CUTOFF, scope, 7, true)).run(s -> { });
            assertEquals(before, allRows(ds), scope + ": a dry run changes nothing");
            assertEquals(0, dry.transactions());
            Pruner.Tally real = new Pruner(ds, new Pruner.Options(CUTOFF, scope, 7, false)).run(s -> { });
            assertEquals(List.of(real.candidates(), real.applications(), real.taskRows(), real.otherRows()),
                    List.of(dry.candidates(), dry.applications(), dry.taskRows(), dry.otherRows()), scope.name());
            // the same rows at the same average sizes, rounded per batch instead of per group
            assertEquals(real.bytes(), dry.bytes(), 64, scope.name());
        }
    }
}
