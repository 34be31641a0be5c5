package io.sparkscope.store.prune;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TaskPartitions;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Pruner} on the partitioned task table: a past month whose applications are all old goes as one DROP TABLE;
 * a month with an application still young goes row by row; the applications' other rows go (or stay, with
 * {@link Pruner.Scope#TASK_ROWS}) as for any pruned application.
 */
class TaskPartitionPruneTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = System.currentTimeMillis();
    private static final long CUTOFF = NOW - 90 * DAY;
    /** The month before the cutoff's: one old and one young (still running at the cutoff) application start in it. */
    private static final long STRADDLING = ZonedDateTime.ofInstant(Instant.ofEpochMilli(CUTOFF), ZoneOffset.UTC)
            .withDayOfMonth(1).toLocalDate().atStartOfDay(ZoneOffset.UTC).minusMonths(1).toInstant().toEpochMilli();

    private static AppSnapshot app(String id, long start, long durationMs) {
        // 2 jobs × 2 stages × 10 tasks = 40 task rows
        var base = SnapshotBuilder.syntheticSpec(id, "nightly", "etl", start, durationMs);
        return SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(base.appId(), null, base.name(),
                base.user(), start, base.durationMs(), true, base.conf(), 2, 2, 10,
                "ExecutorLostFailure (executor 1 exited)", 64L << 20, 7));
    }

    private static DataSource database() throws SQLException {
        DataSource ds = TestDb.migrated();
        for (AppSnapshot s : List.of(
                app("app-old-1", NOW - 400 * DAY, 600_000),
                app("app-old-2", NOW - 200 * DAY, 600_000),
                app("app-straddling-old", STRADDLING + DAY, 600_000),
                app("app-straddling-young", STRADDLING + 2 * DAY, CUTOFF + DAY - (STRADDLING + 2 * DAY)),
                app("app-new", NOW - 10 * DAY, 600_000))) {
            new SnapshotWriter().write(ds, s, Diagnoser.defaults().diagnose(s));
        }
        TestDb.analyze(ds); // a dry run and the real run then estimate bytes from the same row counts
        return ds;
    }

    private static String partitionOf(long startMs) {
        return TaskPartitions.nameOf(TaskPartitions.monthOf(startMs));
    }

    private static long tasksOf(DataSource ds, String appId) {
        return TestDb.count(ds, "SELECT count(*) FROM task JOIN application USING (app_pk) WHERE app_id = '"
                + appId + "'");
    }

    private static List<String> apps(DataSource ds) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT app_id FROM application ORDER BY app_id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static boolean exists(DataSource ds, String table) {
        return TestDb.count(ds, "SELECT count(*) FROM pg_class WHERE relname = '" + table + "'") > 0;
    }

    private static List<String> dropped(Pruner p) {
        return p.partitionDrops().stream().filter(Pruner.PartitionDrop::dropped).map(Pruner.PartitionDrop::name)
                .toList();
    }

    @Test
    void oldMonthsGoAsWholePartitionsAndTheStraddlingMonthRowByRow() throws Exception {
        DataSource ds = database();
        String old1 = partitionOf(NOW - 400 * DAY);
        String old2 = partitionOf(NOW - 200 * DAY);
        String straddling = partitionOf(STRADDLING);
        for (String p : List.of(old1, old2, straddling, partitionOf(NOW - 10 * DAY))) {
            assertTrue(exists(ds, p), "the writers created " + p);
        }
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM task_default"), "every month had its partition");

        Pruner pruner = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.APPLICATIONS, 7, false));
        Pruner.Tally t = pruner.run(s -> { });
        assertEquals(List.of(old1, old2), dropped(pruner));
        assertFalse(exists(ds, old1));
        assertFalse(exists(ds, old2));
        assertTrue(exists(ds, straddling), "a young application's rows are in it");
        assertEquals(3, t.applications());
        assertEquals(120, t.taskRows(), "80 by the drops, 40 row by row");
        // 2 drops; 40 rows 7 at a time (6 batches, the last finds fewer); 3 applications, one transaction each
        assertEquals(2 + 6 + 3, t.transactions());
        assertEquals(List.of("app-new", "app-straddling-young"),
                apps(ds));
        assertEquals(40, tasksOf(ds, "app-straddling-young"));
        assertEquals(40, tasksOf(ds, "app-new"));
        assertEquals(80, TestDb.count(ds, "SELECT count(*) FROM task"));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM stage_attempt s WHERE NOT EXISTS"
                + " (SELECT 1 FROM application a WHERE a.app_pk = s.app_pk)"), "no stage rows left behind");

        Pruner again = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.APPLICATIONS, 7, false));
        assertEquals(new Pruner.Tally(0, 0, 0, 0, 0, 0), again.run(s -> { }), "nothing left to prune");
        assertEquals(List.of(), again.partitionDrops());
    }

    @Test
    void keepFindingsDropsThePartitionsAndRecordsEachApplicationsRows() throws Exception {
        DataSource ds = database();
        Pruner pruner = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.TASK_ROWS, 25, false));
        Pruner.Tally t = pruner.run(s -> { });
        assertEquals(2, dropped(pruner).size());
        // 2 drops; the straddling month's 40 rows 25 at a time (2 batches); the stage rows and record, locked
        assertEquals(2 + 2 + 1, t.transactions());
        assertEquals(3, t.applications());
        assertEquals(120, t.taskRows());
        assertEquals(5, TestDb.count(ds, "SELECT count(*) FROM application"), "every application stays");
        assertEquals(3, TestDb.count(ds, "SELECT count(*) FROM task_prune WHERE task_rows = 40"),
                "the dropped rows are counted per application, as the row deletes count them");
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM stage_attempt s JOIN application a USING (app_pk)"
                + " WHERE a.app_id IN ('app-old-1', 'app-old-2', 'app-straddling-old')"
                + " AND (s.kept_tasks <> 0 OR s.tasks_digest IS NOT NULL)"), "their stages say no task is kept");
        assertEquals(40, tasksOf(ds, "app-straddling-young"));

        // the same log imported again: its month's partition comes back and holds its rows
        AppSnapshot again = app("app-old-1", NOW - 400 * DAY, 600_000);
        new SnapshotWriter().write(ds, again, Diagnoser.defaults().diagnose(again));
        assertEquals(40, tasksOf(ds, "app-old-1"));
        assertEquals(40, TestDb.count(ds, "SELECT count(*) FROM " + partitionOf(NOW - 400 * DAY)));
    }

    @Test
    void aDryRunNamesThePartitionsItWouldDropAndCountsAsTheRun() throws Exception {
        DataSource ds = database();
        Pruner dry = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.APPLICATIONS, 7, true));
        Pruner.Tally d = dry.run(s -> { });
        assertEquals(List.of(partitionOf(NOW - 400 * DAY), partitionOf(NOW - 200 * DAY)), dropped(dry));
        assertTrue(dry.partitionDrops().stream().allMatch(p -> p.bytes() > 0), dry.partitionDrops().toString());
        assertEquals(200, TestDb.count(ds, "SELECT count(*) FROM task"), "nothing removed");
        assertTrue(exists(ds, partitionOf(NOW - 400 * DAY)));
        Pruner.Tally real = new Pruner(ds, new Pruner.Options(CUTOFF, Pruner.Scope.APPLICATIONS, 7, false))
                .run(s -> { });
        assertEquals(List.of(real.candidates(), real.applications(), real.taskRows(), real.otherRows()),
                List.of(d.candidates(), d.applications(), d.taskRows(), d.otherRows()));
        assertEquals(real.bytes(), d.bytes(), 64);
    }
}
