package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SampleFindings;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.prune.Pruner;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.HistoryQuery;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The summaries V27's triggers keep (totals, hourly health, root findings by heuristic, jobs) equal a recomputation
 * from application and finding after every kind of write: new applications, a running one rewritten until it
 * finishes, findings that change, bulk SQL, prune, and the migration's backfill of rows written before it.
 */
class SummariesTest {
    private static final long HOUR = 3600_000L;
    private static final long T0 = SnapshotBuilder.RICH_START;

    /** Each query lists what the summary says and not the base tables, or the reverse: no row when they agree. */
    private static final List<String> DIFFERENCES = List.of(
            "SELECT 'totals', x::text FROM ((SELECT count(*) AS apps, coalesce(sum(num_executors), 0) AS e,"
                    + " coalesce(sum(num_jobs), 0) AS j, coalesce(sum(num_stages), 0) AS s,"
                    + " coalesce(sum(num_tasks), 0) AS t FROM application)"
                    + " EXCEPT (SELECT coalesce(sum(apps), 0), coalesce(sum(executors), 0), coalesce(sum(jobs), 0),"
                    + " coalesce(sum(stages), 0), coalesce(sum(tasks), 0) FROM app_totals)) x",
            symmetric("health",
                    "SELECT floor(start_time / 3600000.0)::bigint AS hour,"
                            + " count(*) FILTER (WHERE worst_severity = 'HIGH') AS red,"
                            + " count(*) FILTER (WHERE worst_severity = 'LOW') AS yellow,"
                            + " count(*) FILTER (WHERE worst_severity IS NULL) AS green FROM application GROUP BY 1",
                    "SELECT hour, sum(red), sum(yellow), sum(green) FROM app_health_hour GROUP BY hour"
                            + " HAVING sum(red) <> 0 OR sum(yellow) <> 0 OR sum(green) <> 0"),
            symmetric("findings",
                    "SELECT heuristic, count(DISTINCT app_pk) AS apps, count(*) AS n,"
                            + " count(*) FILTER (WHERE severity = 'HIGH') AS high, sum(impact_wall_ms) AS wall,"
                            + " sum(impact_task_ms) AS task FROM finding WHERE caused_by IS NULL GROUP BY heuristic",
                    "SELECT heuristic, sum(apps), sum(findings), sum(high), sum(wall_ms), sum(task_ms)"
                            + " FROM finding_summary GROUP BY heuristic HAVING sum(findings) <> 0 OR sum(apps) <> 0"),
            symmetric("jobs",
                    "SELECT job_key, count(*) AS runs, min(start_time) AS first_start, max(start_time) AS last_start,"
                            + " (array_agg(name ORDER BY start_time DESC, app_pk DESC))[1] AS name,"
                            + " (array_agg(spark_user ORDER BY start_time DESC, app_pk DESC))[1] AS spark_user,"
                            + " coalesce((array_agg(duration_ms ORDER BY start_time DESC, app_pk DESC)"
                            + " FILTER (WHERE complete))[1:10], '{}') AS recent"
                            + " FROM application WHERE job_key IS NOT NULL GROUP BY job_key",
                    "SELECT job_key, runs, first_start, last_start, name, spark_user, recent_durations_ms"
                            + " FROM job_summary"));

    private static String symmetric(String what, String base, String summary) {
        return "SELECT '" + what + " in the tables, not the summary', x::text FROM ((" + base + ") EXCEPT (" + summary
                + ")) x UNION ALL SELECT '" + what + " in the summary, not the tables', y::text FROM ((" + summary
                + ") EXCEPT (" + base + ")) y";
    }

    static void assertSummariesMatch(DataSource ds, String when) throws SQLException {
        List<String> diffs = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String q : DIFFERENCES) {
                try (ResultSet rs = st.executeQuery(q)) {
                    while (rs.next()) {
                        diffs.add(rs.getString(1) + ": " + rs.getString(2));
                    }
                }
            }
        }
        assertEquals(List.of(), diffs, "summaries after " + when);
    }

    private static long count(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void exec(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** The rich sample application under another id, name (so job), start and completeness. */
    private static AppSnapshot app(String id, String name, long start, boolean complete, long events) {
        AppSnapshot rich = SnapshotBuilder.rich(id, null, complete);
        long shift = start - rich.startTime();
        return SnapshotBuilder.copy(rich).appName(name).startTime(start)
                .endTime(rich.endTime() < 0 ? rich.endTime() : rich.endTime() + shift)
                .lastEventTime(rich.lastEventTime() + shift).eventCount(events).build();
    }

    private static Finding finding(String id, String heuristic, Severity severity, long wallMs, String causedBy) {
        return new Finding(id, heuristic, severity, heuristic + " " + id, "m", "r", List.of(), List.of(), List.of(),
                null, new Impact(wallMs, wallMs * 3, 0, "test"), causedBy, List.of());
    }

    @Test
    void writesRewritesAndFindingsKeepEverySummaryRight() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        assertSummariesMatch(ds, "an empty database");
        SnapshotWriter w = new SnapshotWriter();
        for (int i = 0; i < 6; i++) { // two jobs of three runs, an hour apart, one at the same start as another
            w.write(ds, app("app-s-" + i, "nightly-" + (i % 2), T0 + (i / 2) * HOUR + (i == 5 ? -HOUR : 0), true,
                    100), i % 3 == 0 ? SampleFindings.skewAndGc() : List.of(
                            finding("a", "skew", Severity.LOW, 10 * i, null),
                            finding("b", "skew", Severity.HIGH, 20, null),
                            finding("c", "spill", Severity.LOW, 5, "a")));
            assertSummariesMatch(ds, "new application " + i);
        }
        // a running application of the first job, rewritten as it goes, then finished with other findings
        for (int events = 10; events <= 50; events += 10) {
            w.write(ds, app("app-s-live", "nightly-0", T0 + 5 * HOUR, false, events),
                    events < 30 ? List.of() : List.of(finding("x", "gc", Severity.LOW, events, null)));
            assertSummariesMatch(ds, "running rewrite at " + events + " events");
        }
        w.write(ds, app("app-s-live", "nightly-0", T0 + 5 * HOUR, true, 60),
                List.of(finding("x", "gc", Severity.HIGH, 7, null), finding("y", "gc", Severity.LOW, 1, null)));
        assertSummariesMatch(ds, "the running application finished");
        // a rewrite that moves it to another job and another hour
        w.overwrite(ds, app("app-s-live", "weekly", T0 + 9 * HOUR, true, 70), SampleFindings.skewAndGc());
        assertSummariesMatch(ds, "an overwrite under another name");
        assertTrue(count(ds, "SELECT count(*) FROM job_summary") >= 2, "the jobs are summarised");

        // bulk SQL, as the benchmark's copier and hand-written repairs do: one statement, many rows
        exec(ds, "UPDATE application SET worst_severity = NULL, num_tasks = num_tasks + 1 WHERE app_id <> 'app-s-1'");
        exec(ds, "DELETE FROM finding WHERE heuristic = 'skew' AND app_pk % 2 = 0");
        assertSummariesMatch(ds, "bulk updates and deletes");
        exec(ds, "DELETE FROM application WHERE app_id IN ('app-s-0', 'app-s-3')");
        assertSummariesMatch(ds, "deleted applications");
    }

    @Test
    void pruneKeepsTheSummariesRight() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        SnapshotWriter w = new SnapshotWriter();
        for (int i = 0; i < 8; i++) {
            w.write(ds, app("app-p-" + i, "etl-" + (i % 3), T0 + i * 24 * HOUR, true, 100),
                    SampleFindings.skewAndGc());
        }
        Pruner.Tally t = new Pruner(ds, new Pruner.Options(T0 + 4 * 24 * HOUR, Pruner.Scope.APPLICATIONS, 200,
                false)).run(p -> { });
        assertEquals(4, t.applications(), "pruned");
        assertSummariesMatch(ds, "prune");
        assertEquals(4, count(ds, "SELECT sum(apps) FROM app_totals"));
        assertEquals(4, count(ds, "SELECT sum(apps) FROM finding_summary WHERE heuristic = 'skew'"));
    }

    /**
     * A writer and a prune at once, where a cycle would be: the writer has added its application to the totals (and
     * not yet its findings) when a delete of another application of the same totals shard starts. The delete adds up
     * the totals before its cascade reaches the findings' summary the writer needs next, so it waits for the writer
     * instead of PostgreSQL aborting one of them as a deadlock.
     */
    @Test
    void aWriterAndAPruneAtOnceDoNotDeadlock() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        SnapshotWriter w = new SnapshotWriter();
        for (int i = 0; i <= 16; i++) { // app_pk 1 … 17: the first and the last share shard 1
            w.write(ds, app("app-lock-" + i, "lock", T0 + i * HOUR, true, 100), SampleFindings.skewAndGc());
        }
        // app_pk carries the start month in its high bits (the task table is partitioned by it); the low bits are
        // the sequence's 1 … 17, so the first and the last application still share a totals shard
        long first = count(ds, "SELECT app_pk FROM application WHERE app_id = 'app-lock-0'");
        long last = count(ds, "SELECT app_pk FROM application WHERE app_id = 'app-lock-16'");
        assertEquals(first % 16, last % 16, "the same totals shard");
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Connection writer = ds.getConnection(); Statement st = writer.createStatement()) {
            writer.setAutoCommit(false);
            st.execute("UPDATE application SET num_tasks = num_tasks + 1 WHERE app_pk = " + first); // holds its shard
            Thread prune = new Thread(() -> {
                try (Connection c = ds.getConnection(); Statement d = c.createStatement()) {
                    d.execute("DELETE FROM application WHERE app_pk = " + last);
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            prune.start();
            // until the delete waits on a lock (the writer's)
            for (int i = 0; i < 200 && count(ds, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type"
                    + " = 'Lock' AND query LIKE 'DELETE FROM application%'") == 0; i++) {
                Thread.sleep(25);
            }
            try {
                st.execute("INSERT INTO finding (app_pk, finding_id, ord, heuristic, severity, stage_ids,"
                        + " executor_ids, config_keys, impact_wall_ms) VALUES (" + first + ", 'skew:9', 9, 'skew', 'HIGH', '{}',"
                        + " '{}', '{}', 5)");
                writer.commit();
            } catch (SQLException e) {
                errors.add(e);
                writer.rollback();
            }
            prune.join();
        }
        assertEquals(List.of(), errors.stream().map(Throwable::toString).toList(), "neither was aborted");
        assertEquals(16, count(ds, "SELECT sum(apps) FROM app_totals"));
        assertSummariesMatch(ds, "a write and a delete at once");
    }

    /** Rows written before V27 are counted by its backfill. */
    @Test
    void theMigrationBackfillsWhatWasStored() throws Exception {
        DataSource ds = TestDb.newDatabase();
        Flyway.configure().dataSource(ds).table(SchemaManager.HISTORY_TABLE).locations(SchemaManager.LOCATION)
                .target("26").load().migrate();
        TestDb.taskMetricsAsArray(ds);
        SnapshotWriter w = new SnapshotWriter();
        for (int i = 0; i < 5; i++) {
            w.write(ds, app("app-b-" + i, "daily-" + (i % 2), T0 + i * HOUR, i != 4, 100),
                    i == 2 ? List.of() : SampleFindings.skewAndGc());
        }
        SchemaManager.migrate(ds);
        assertEquals(5, count(ds, "SELECT sum(apps) FROM app_totals"));
        assertSummariesMatch(ds, "the backfill");
        exec(ds, "UPDATE job_summary SET runs = 99; DELETE FROM finding_summary; SELECT sparkscope_rebuild_summaries()");
        assertSummariesMatch(ds, "a rebuild");
    }

    /**
     * The dashboard's health windows (last day, last week) from hourly summaries plus the edge hours read from the
     * applications, and the recurring-jobs list, equal what the base tables say.
     */
    @Test
    void dashboardAndJobsReadTheSummaries() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        SnapshotWriter w = new SnapshotWriter();
        long now = T0 + 10 * 24 * HOUR + 17 * 60_000L; // 17 minutes past an hour: both windows have an edge
        long[] ago = {5 * 60_000L, 23 * HOUR + 50 * 60_000L, 24 * HOUR + 10 * 60_000L, 24 * HOUR - 10 * 60_000L,
                3 * 24 * HOUR, 7 * 24 * HOUR - 5 * 60_000L, 7 * 24 * HOUR + 5 * 60_000L, 9 * 24 * HOUR};
        for (int i = 0; i < ago.length; i++) {
            w.write(ds, app("app-d-" + i, "report-" + (i % 3), now - ago[i], true, 100),
                    i % 3 == 0 ? SampleFindings.skewAndGc() : i % 3 == 1
                            ? List.of(finding("g", "gc", Severity.LOW, 30, null)) : List.of());
        }
        DashboardQuery.Dashboard d = new DashboardQuery(ds).load(now);
        assertEquals(ago.length, d.applications());
        assertEquals(health(ds, now - 24 * HOUR), d.lastDay(), "last day");
        assertEquals(health(ds, now - 7 * 24 * HOUR), d.lastWeek(), "last week");
        assertEquals(6, d.lastWeek().total(), "runs in the last week");
        assertEquals(List.of("skew", "gc"), d.topFindings().stream().map(DashboardQuery.TopFinding::heuristic)
                .toList(), "findings by saving");
        assertEquals(3, d.topFindings().get(0).apps());
        assertEquals("HIGH", d.topFindings().get(0).severity());

        List<HistoryQuery.Job> jobs = new HistoryQuery(ds).jobs(null, 2, 10);
        assertEquals(3, jobs.size());
        assertEquals("report-0", jobs.get(0).name(), "the most recently run job first");
        assertEquals(3, jobs.get(0).runs());
        assertEquals(now - ago[6], jobs.get(0).firstStart());
        assertEquals(List.of(jobs.get(0)), new HistoryQuery(ds).jobs("report-0", 2, 10),
                "the summary row equals the aggregate of the job's runs");
        assertTrue(new HistoryQuery(ds).jobs(null, 4, 10).isEmpty(), "no job has four runs");
    }

    private static DashboardQuery.Health health(DataSource ds, long from) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE worst_severity = 'HIGH'),"
                     + " count(*) FILTER (WHERE worst_severity = 'LOW'), count(*) FILTER (WHERE worst_severity IS NULL)"
                     + " FROM application WHERE start_time >= " + from)) {
            rs.next();
            return new DashboardQuery.Health(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
    }
}
