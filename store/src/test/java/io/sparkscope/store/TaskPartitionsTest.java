package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The task table partitioned by the month its application started (app_pk ranges): the migration keeps every row,
 * a new application's rows land in its month's partition, and a write into a month with no partition still works.
 */
class TaskPartitionsTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = System.currentTimeMillis();

    private static AppSnapshot app(String id, long start) {
        // 2 jobs × 2 stages × 10 tasks = 40 task rows
        var base = SnapshotBuilder.syntheticSpec(id, "nightly", "etl", start, 600_000);
        return SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(base.appId(), null, base.name(),
                base.user(), start, base.durationMs(), true, base.conf(), 2, 2, 10,
                "ExecutorLostFailure (executor 1 exited)", 64L << 20, 7));
    }

    /** Written in a transaction of the caller's: the writer then creates no partition first. */
    private static void writeWithoutPartitioning(DataSource ds, AppSnapshot s) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            new SnapshotWriter().write(c, s, List.of());
        }
    }

    private static String text(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Every task row, as text, in key order. */
    private static final String ALL_TASKS = "SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|'"
            + " ORDER BY app_pk, stage_id, stage_attempt_id, task_id)), '') FROM task t";

    private static String partitionOf(long startMs) {
        return TaskPartitions.nameOf(TaskPartitions.monthOf(startMs));
    }

    @Test
    void theMigrationKeepsEveryStoredTaskRowInPlace() throws Exception {
        DataSource ds = TestDb.newDatabase();
        // the schema as it was before partitioning (27 and below)
        var config = Flyway.configure().dataSource(ds).locations(SchemaManager.LOCATION)
                .table(SchemaManager.HISTORY_TABLE).baselineOnMigrate(true).baselineVersion("0");
        String last = Arrays.stream(config.load().info().all()).map(m -> m.getVersion())
                .filter(v -> v.isNewerThan("0") && !v.isAtLeast("28")).max(Comparator.naturalOrder())
                .orElseThrow().getVersion();
        config.target(last).load().migrate();
        TestDb.taskMetricsAsArray(ds);
        writeWithoutPartitioning(ds, app("app-before-1", NOW - 400 * DAY));
        writeWithoutPartitioning(ds, app("app-before-2", NOW - 3 * DAY));
        String before = text(ds, ALL_TASKS);
        String pksBefore = text(ds, "SELECT string_agg(app_pk::text, ',' ORDER BY app_id) FROM application");
        assertTrue(before.startsWith("80:"), before);

        SchemaManager.migrate(ds);
        assertEquals(before, text(ds, ALL_TASKS), "the same rows, byte for byte");
        assertEquals(80, TestDb.count(ds, "SELECT count(*) FROM task_before"), "kept in place as one partition");
        assertEquals(pksBefore, text(ds, "SELECT string_agg(app_pk::text, ',' ORDER BY app_id) FROM application"));
        assertEquals("p", text(ds, "SELECT relkind FROM pg_class WHERE relname = 'task'"));

        // an old application written again keeps its rows where they are; a new one goes to its month
        new SnapshotWriter().write(ds, app("app-before-1", NOW - 400 * DAY), List.of());
        new SnapshotWriter().write(ds, app("app-after", NOW - 40 * DAY), List.of());
        assertEquals(80, TestDb.count(ds, "SELECT count(*) FROM task_before"));
        assertEquals(40, TestDb.count(ds, "SELECT count(*) FROM " + partitionOf(NOW - 40 * DAY)));
        assertEquals(TaskPartitions.monthOf(NOW - 40 * DAY), TestDb.count(ds,
                "SELECT app_pk >> 32 FROM application WHERE app_id = 'app-after'"), "app_pk says the month");
    }

    @Test
    void aWriteIntoAMonthWithoutPartitionGoesInAndMovesWhenThePartitionComes() throws Exception {
        DataSource ds = TestDb.migrated();
        long start = NOW - 300 * DAY;
        String partition = partitionOf(start);
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM pg_class WHERE relname = '" + partition + "'"));
        writeWithoutPartitioning(ds, app("app-early", start));
        assertEquals(40, TestDb.count(ds, "SELECT count(*) FROM task_default"), "no partition yet: the default one");
        assertEquals(40, TestDb.count(ds, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                + " WHERE a.app_id = 'app-early'"));

        // the next write of that month creates the partition first; the rows waiting in the default one move in
        new SnapshotWriter().write(ds, app("app-early-2", start + DAY), List.of());
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM task_default"));
        assertEquals(80, TestDb.count(ds, "SELECT count(*) FROM " + partition));
        try (Connection c = ds.getConnection()) {
            assertEquals(partition, TaskPartitions.ensure(c, TaskPartitions.monthOf(start)), "created once");
            assertTrue(TaskPartitions.list(c).stream().anyMatch(p -> p.name().equals(partition)
                    && p.from() == TaskPartitions.monthOf(start) * TaskPartitions.MONTH_SPAN
                    && p.to() - p.from() == TaskPartitions.MONTH_SPAN), TaskPartitions.list(c).toString());
        }
    }

    @Test
    void anApplicationsTaskQueriesReadOnlyItsOwnPartition() throws Exception {
        DataSource ds = TestDb.migrated();
        new SnapshotWriter().write(ds, app("app-a", NOW - 100 * DAY), List.of());
        new SnapshotWriter().write(ds, app("app-b", NOW - 10 * DAY), List.of());
        long pk = TestDb.count(ds, "SELECT app_pk FROM application WHERE app_id = 'app-a'");
        String plan = text(ds, "EXPLAIN (COSTS OFF) SELECT * FROM task WHERE app_pk = " + pk
                + " AND stage_id = 0 AND stage_attempt_id = 0 ORDER BY duration_ms");
        assertTrue(plan.contains(partitionOf(NOW - 100 * DAY)), plan);
        String all = plan;
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("EXPLAIN (COSTS OFF) SELECT * FROM task WHERE app_pk = " + pk)) {
            StringBuilder b = new StringBuilder();
            while (rs.next()) {
                b.append(rs.getString(1)).append('\n');
            }
            all = b.toString();
        }
        assertTrue(all.contains(partitionOf(NOW - 100 * DAY)) && !all.contains(partitionOf(NOW - 10 * DAY))
                && !all.contains("task_default"), all);
    }

    /** The first millisecond of a month counted from January 1970, in UTC. */
    private static long startOf(long month) {
        return java.time.LocalDate.of(1970 + (int) (month / 12), (int) (month % 12) + 1, 1)
                .atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
    }

    /**
     * Writers of applications from different months create those months' partitions at the same time (an archive
     * import's tasks do): each moves its month's rows out of the default partition and attaches its table. They take
     * turns, so none of them fails with a deadlock.
     */
    @Test
    void partitionsOfManyMonthsAreCreatedAtOnceWithoutDeadlock() throws Exception {
        int months = 8;
        for (int round = 0; round < 3; round++) {
            DataSource ds = TestDb.migrated();
            long first = TaskPartitions.monthOf(NOW) - 60 - round * 20; // months no partition exists for yet
            for (int i = 0; i < months; i++) {
                // rows in the default partition for each month, for the creator to move
                writeWithoutPartitioning(ds, app("app-" + i, startOf(first + i) + DAY));
            }
            assertEquals(months * 40, TestDb.count(ds, "SELECT count(*) FROM task_default"));
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(months);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<String>> created = new java.util.ArrayList<>();
            for (int i = 0; i < months; i++) {
                long month = first + i;
                created.add(pool.submit(() -> {
                    go.await();
                    try (Connection c = ds.getConnection()) {
                        return TaskPartitions.ensure(c, month);
                    }
                }));
            }
            go.countDown();
            for (int i = 0; i < months; i++) {
                assertEquals(TaskPartitions.nameOf(first + i),
                        created.get(i).get(60, java.util.concurrent.TimeUnit.SECONDS));
            }
            pool.shutdown();
            assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM task_default"), "every row moved");
            assertEquals(months * 40, TestDb.count(ds, "SELECT count(*) FROM task"));
        }
    }
}
