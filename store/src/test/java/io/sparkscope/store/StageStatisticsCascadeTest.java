package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.store.prune.Pruner;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * stage_statistics (V21) and task (V32) have no foreign key to stage_attempt: a trigger deletes a stage attempt's
 * statistics and task rows with it. Every way stage rows go (an application deleted, pruned, a full rewrite without
 * some stages, a plain DELETE or TRUNCATE) must leave no statistics or task row behind whose stage row is gone.
 */
class StageStatisticsCascadeTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = System.currentTimeMillis();

    /** Statistics rows whose stage attempt is not stored. */
    private static final String ORPHANS = "SELECT count(*) FROM stage_statistics s WHERE NOT EXISTS (SELECT 1"
            + " FROM stage_attempt a WHERE a.app_pk = s.app_pk AND a.stage_id = s.stage_id"
            + " AND a.attempt_id = s.stage_attempt_id)";

    /** Task rows whose stage attempt is not stored. */
    private static final String TASK_ORPHANS = "SELECT count(*) FROM task t WHERE NOT EXISTS (SELECT 1"
            + " FROM stage_attempt a WHERE a.app_pk = t.app_pk AND a.stage_id = t.stage_id"
            + " AND a.attempt_id = t.stage_attempt_id)";

    /** 3 jobs × 2 stages × 10 tasks; every stage has statistics. */
    private static AppSnapshot app(String id, long start) {
        var base = SnapshotBuilder.syntheticSpec(id, "nightly", "etl", start, 600_000);
        return SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(base.appId(), null, base.name(),
                base.user(), start, base.durationMs(), true, base.conf(), 3, 2, 10, null, 0, 11));
    }

    private static long statisticsOf(DataSource ds, String appId) {
        return TestDb.count(ds, "SELECT count(*) FROM stage_statistics JOIN application USING (app_pk)"
                + " WHERE app_id = '" + appId + "'");
    }

    private static long tasksOf(DataSource ds, String appId) {
        return TestDb.count(ds, "SELECT count(*) FROM task JOIN application USING (app_pk) WHERE app_id = '" + appId + "'");
    }

    private static void execute(DataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static DataSource twoApps() throws Exception {
        DataSource ds = TestDb.migrated();
        new SnapshotWriter().write(ds, app("app-a", NOW - 400 * DAY), List.of());
        new SnapshotWriter().write(ds, app("app-b", NOW - DAY), List.of());
        assertTrue(statisticsOf(ds, "app-a") > 6, "the fixture's stages have statistics");
        assertTrue(statisticsOf(ds, "app-b") > 6);
        assertTrue(tasksOf(ds, "app-a") > 6, "the fixture's stages have task rows");
        assertTrue(tasksOf(ds, "app-b") > 6);
        return ds;
    }

    @Test
    void theForeignKeysAreGoneAndTheTriggerTakesTheirPlace() throws Exception {
        DataSource ds = TestDb.migrated();
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"
                + " AND conrelid = 'stage_statistics'::regclass"));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"
                + " AND conrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'task'::regclass"
                + " UNION ALL SELECT 'task'::regclass)"), "neither the task table nor its partitions");
        assertEquals(2, TestDb.count(ds, "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal"
                + " AND tgrelid = 'stage_attempt'::regclass"));
    }

    @Test
    void deletingAnApplicationTakesItsStatisticsAndOnlyThose() throws Exception {
        DataSource ds = twoApps();
        long b = statisticsOf(ds, "app-b");
        long bTasks = tasksOf(ds, "app-b");
        execute(ds, "DELETE FROM application WHERE app_id = 'app-a'");
        assertEquals(0, TestDb.count(ds, ORPHANS), "the cascade from application fires the stage trigger");
        assertEquals(0, TestDb.count(ds, TASK_ORPHANS), "and it takes the task rows too");
        assertEquals(b, TestDb.count(ds, "SELECT count(*) FROM stage_statistics"), "app-b keeps its statistics");
        assertEquals(bTasks, TestDb.count(ds, "SELECT count(*) FROM task"), "and its task rows");
    }

    @Test
    void pruningLeavesNoStatisticsBehind() throws Exception {
        DataSource ds = twoApps();
        long b = statisticsOf(ds, "app-b");
        long bTasks = tasksOf(ds, "app-b");
        Pruner.Tally t = new Pruner(ds, new Pruner.Options(NOW - 90 * DAY, Pruner.Scope.APPLICATIONS, 7, false))
                .run(s -> { });
        assertEquals(1, t.applications());
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-a'"));
        assertEquals(0, TestDb.count(ds, ORPHANS));
        assertEquals(0, TestDb.count(ds, TASK_ORPHANS));
        assertEquals(b, TestDb.count(ds, "SELECT count(*) FROM stage_statistics"));
        assertEquals(bTasks, TestDb.count(ds, "SELECT count(*) FROM task"));
    }

    @Test
    void aFullRewriteWithoutSomeStagesDropsTheirStatistics() throws Exception {
        // both ways the writer ships rows: JDBC batches, and COPY through staging tables
        for (int copyThreshold : new int[]{Integer.MAX_VALUE, 0}) {
            DataSource ds = TestDb.migrated();
            SnapshotWriter w = new SnapshotWriter(1000, copyThreshold);
            AppSnapshot full = app("app-r", NOW - DAY);
            w.write(ds, full, List.of());
            List<StageSummary> kept = full.stages().subList(0, 2);
            AppSnapshot fewer = SnapshotBuilder.copy(full).jobs(full.jobs().subList(0, 1)).stages(kept).build();
            assertEquals(WriteResult.Outcome.WRITTEN, w.write(ds, fewer, List.of()).outcome());
            assertEquals(2, TestDb.count(ds, "SELECT count(*) FROM stage_attempt"), "copy threshold " + copyThreshold);
            assertEquals(0, TestDb.count(ds, ORPHANS), "copy threshold " + copyThreshold);
            assertEquals(0, TestDb.count(ds, TASK_ORPHANS), "copy threshold " + copyThreshold);
            assertTrue(tasksOf(ds, "app-r") > 0, "the kept stages keep their task rows");
            long expected = kept.stream().mapToLong(s -> SnapshotRows.of(fewer, List.of())
                    .get(Tables.STAGE_STATISTICS).stream()
                    .filter(r -> ((Number) r[0]).intValue() == s.stageId()).count()).sum();
            assertTrue(expected > 0);
            assertEquals(expected, statisticsOf(ds, "app-r"), "the kept stages keep theirs");
        }
    }

    @Test
    void plainDeletesAndTruncateOfStageRowsTakeTheStatistics() throws Exception {
        DataSource ds = twoApps();
        long a = statisticsOf(ds, "app-a");
        int first = app("app-b", NOW - DAY).stages().get(0).stageId();
        execute(ds, "DELETE FROM stage_attempt s USING application a WHERE a.app_pk = s.app_pk"
                + " AND a.app_id = 'app-b' AND s.stage_id = " + first);
        assertEquals(0, TestDb.count(ds, ORPHANS), "a statement deleting one stage row");
        assertEquals(0, TestDb.count(ds, TASK_ORPHANS), "a statement deleting one stage row: its task rows");
        assertEquals(a, statisticsOf(ds, "app-a"));
        assertTrue(tasksOf(ds, "app-b") > 0, "app-b's other stages keep their task rows");
        assertTrue(statisticsOf(ds, "app-b") > 0, "app-b's other stages keep theirs");
        execute(ds, "DELETE FROM stage_attempt WHERE false");
        assertEquals(a, statisticsOf(ds, "app-a"), "a delete of nothing deletes nothing");
        execute(ds, "TRUNCATE stage_attempt CASCADE");
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM stage_statistics"));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM task"));
    }
}
