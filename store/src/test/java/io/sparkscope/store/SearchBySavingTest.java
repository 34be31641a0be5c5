package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Search ranks applications by what fixing their findings would save (application.saving_ms, V9): root causes'
 * estimates summed, knock-ons not counted twice, at most the application's duration; kept on every write of the
 * findings and filled by the migration for rows stored before it.
 */
class SearchBySavingTest {
    private static final long NOW = System.currentTimeMillis();

    private static Finding root(String heuristic, long wallMs) {
        return Finding.builder(heuristic, Severity.HIGH).title(heuristic).message("m")
                .impact(wallMs, wallMs * 3, "test estimate").build();
    }

    private static List<String> bySaving(DataSource ds) throws Exception {
        return new AppSearchQuery(ds).search(new AppFilter(null, null, null, null, null, null, null, null, null, null,
                AppFilter.Sort.SAVING, true, 50, 0, NOW)).rows().stream().map(AppListRow::appId).toList();
    }

    private static long saving(DataSource ds, String appId) throws Exception {
        return TestDb.count(ds, "SELECT saving_ms FROM application WHERE app_id = '" + appId + "'");
    }

    @Test
    void searchRanksBySavingOfTheRootCauses() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        SnapshotWriter w = new SnapshotWriter();
        AppSnapshot many = SnapshotBuilder.rich("app-many-cheap", null, true);
        AppSnapshot one = SnapshotBuilder.rich("app-one-costly", null, true);
        AppSnapshot none = SnapshotBuilder.rich("app-clean", null, true);
        long duration = one.durationMs();
        assertTrue(duration > 10_000, "the fixture runs long enough to hold the savings: " + duration);

        // three cheap causes, each with a knock-on whose saving is already in its cause's
        Finding a = root("SerializerConfig", 1_000);
        Finding b = root("SmallTasks", 1_000);
        Finding c = root("DriverTime", 1_000);
        Finding knockOn = root("StageFailure", 5_000).withCausedBy(a.id());
        w.write(ds, many, List.of(a, b, c, knockOn));
        w.write(ds, one, List.of(root("StageSkew", duration / 2)));
        w.write(ds, none, List.of());

        assertEquals(3_000, saving(ds, "app-many-cheap"), "the three causes; the knock-on counts with its cause");
        assertEquals(duration / 2, saving(ds, "app-one-costly"));
        assertEquals(0, saving(ds, "app-clean"));
        assertEquals(List.of("app-one-costly", "app-many-cheap", "app-clean"), bySaving(ds),
                "one costly finding above three cheap ones");
        AppListRow costly = new AppSearchQuery(ds).search(AppFilter.all(NOW)).rows().stream()
                .filter(r -> r.appId().equals("app-one-costly")).findFirst().orElseThrow();
        assertEquals(duration / 2, costly.savingMs(), "the row carries it for the page");

        // never more than the whole run, and rewritten with the findings (reanalyze)
        w.overwrite(ds, many, List.of(root("ExecutorGc", 10 * duration), root("MemoryConfig", duration)));
        assertEquals(many.durationMs(), saving(ds, "app-many-cheap"), "capped at the application's duration");
        w.overwrite(ds, many, List.of());
        assertEquals(0, saving(ds, "app-many-cheap"));
        assertEquals("app-one-costly", bySaving(ds).get(0));
    }

    @Test
    void theMigrationFillsTheSavingOfApplicationsStoredBeforeIt() throws Exception {
        DataSource ds = TestDb.newDatabase();
        // A database as Sparkscope left it before V9: findings with their V8 estimates and causes.
        Flyway.configure().dataSource(ds).locations(SchemaManager.LOCATION).table(SchemaManager.HISTORY_TABLE)
                .target("8").load().migrate();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String[] app : new String[][]{{"app-old", "100000"}, {"app-short", "2000"}}) {
                st.execute("INSERT INTO application (app_id, start_time, end_time, last_event_time, duration_ms, status,"
                        + " complete, num_jobs, num_failed_jobs, num_stages, num_failed_stages, num_tasks,"
                        + " num_failed_tasks, num_executors, total_task_time_ms, total_run_time_ms, total_cpu_time_ns,"
                        + " total_gc_time_ms, memory_bytes_spilled, disk_bytes_spilled, shuffle_read_bytes,"
                        + " shuffle_write_bytes, input_bytes, output_bytes, driver_gc_time_ms, driver_max_memory,"
                        + " event_count, num_findings, worst_severity) VALUES ('" + app[0] + "', 1, 2, 2, " + app[1]
                        + ", 'COMPLETE', true, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 3, 3, 'HIGH')");
                st.execute("INSERT INTO finding (app_pk, finding_id, ord, heuristic, severity, title, message,"
                        + " recommendation, stage_ids, executor_ids, config_keys, impact_wall_ms, impact_task_ms,"
                        + " caused_by) SELECT app_pk, f.id, f.ord, f.id, 'HIGH', 't', 'm', '', '{}', '{}', '{}', f.wall,"
                        + " 0, f.cause FROM application, (VALUES ('TaskFailure', 0, 4000, NULL),"
                        + " ('StageFailure', 1, 9000, 'TaskFailure'), ('StageSkew', 2, 1500, NULL))"
                        + " AS f(id, ord, wall, cause) WHERE app_id = '" + app[0] + "'");
            }
        }
        assertTrue(SchemaManager.migrate(ds).usable());
        assertEquals(5_500, saving(ds, "app-old"), "the two root causes' estimates, not the knock-on's");
        assertEquals(2_000, saving(ds, "app-short"), "at most the application's duration");
        assertEquals(List.of("app-old", "app-short"), bySaving(ds));
    }
}
