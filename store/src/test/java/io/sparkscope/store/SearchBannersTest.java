package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SampleFindings;
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

/** The search page's banners come from application.banners (V7): they must always equal the stored findings. */
class SearchBannersTest {
    private static final long NOW = System.currentTimeMillis();

    private static List<List<String>> banners(DataSource ds) throws Exception {
        List<AppListRow> rows = new AppSearchQuery(ds).search(AppFilter.all(NOW)).rows();
        assertEquals(1, rows.size());
        return rows.get(0).findings().stream()
                .map(f -> List.of(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message())).toList();
    }

    /** How many applications the search's heuristic filter (V20: the row's own heuristics) finds. */
    private static long withHeuristic(DataSource ds, String heuristic) throws Exception {
        return new AppSearchQuery(ds).search(new AppFilter(null, null, null, null, null, null, null, null, heuristic,
                null, AppFilter.Sort.START, true, 50, 0, NOW)).total();
    }

    /** The heuristic filter finds the application for each heuristic it has a finding of, and for no other. */
    private static void assertHeuristicFilter(DataSource ds, List<Finding> findings) throws Exception {
        for (Finding f : SampleFindings.skewAndGc()) {
            boolean has = findings.stream().anyMatch(x -> x.heuristic().equals(f.heuristic()));
            assertEquals(has ? 1 : 0, withHeuristic(ds, f.heuristic()), f.heuristic());
        }
        assertEquals(0, withHeuristic(ds, "NoSuchHeuristic"));
    }

    private static List<List<String>> expected(List<Finding> fs) {
        return fs.stream().map(f -> List.of(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message())).toList();
    }

    @Test
    void bannersFollowEveryWriteOfTheFindings() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        AppSnapshot app = SnapshotBuilder.rich("app-banners", null, true);
        List<Finding> two = SampleFindings.skewAndGc();
        new SnapshotWriter().write(ds, app, two);
        assertEquals(expected(two), banners(ds), "in finding order, with messages");
        assertHeuristicFilter(ds, two);

        List<Finding> one = List.of(two.get(1));
        new SnapshotWriter().overwrite(ds, app, one); // e.g. reanalyze with other thresholds
        assertEquals(expected(one), banners(ds));
        assertHeuristicFilter(ds, one);

        new SnapshotWriter().overwrite(ds, app, List.of());
        assertEquals(List.of(), banners(ds));
        assertHeuristicFilter(ds, List.of());
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE banners IS NULL"));
    }

    @Test
    void theMigrationFillsBannersOfApplicationsStoredBeforeIt() throws Exception {
        DataSource ds = TestDb.newDatabase();
        // A database as Sparkscope left it before V7: migrated to V6, an application with two findings in it.
        Flyway.configure().dataSource(ds).locations(SchemaManager.LOCATION).table(SchemaManager.HISTORY_TABLE)
                .target("6").load().migrate();
        List<Finding> two = SampleFindings.skewAndGc();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO application (app_id, start_time, end_time, last_event_time, duration_ms, status,"
                    + " complete, num_jobs, num_failed_jobs, num_stages, num_failed_stages, num_tasks, num_failed_tasks,"
                    + " num_executors, total_task_time_ms, total_run_time_ms, total_cpu_time_ns, total_gc_time_ms,"
                    + " memory_bytes_spilled, disk_bytes_spilled, shuffle_read_bytes, shuffle_write_bytes, input_bytes,"
                    + " output_bytes, driver_gc_time_ms, driver_max_memory, event_count, num_findings, worst_severity)"
                    + " VALUES ('app-old', 1, 2, 2, 1, 'COMPLETE', true, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,"
                    + " 0, -1, -1, 3, 2, 'HIGH')");
        }
        try (Connection c = ds.getConnection(); java.sql.PreparedStatement ps = c.prepareStatement(
                "INSERT INTO finding (app_pk, finding_id, ord, heuristic, severity, title, message, recommendation,"
                        + " stage_ids, executor_ids, config_keys) SELECT app_pk, ?, ?, ?, ?, ?, ?, '', '{}', '{}', '{}'"
                        + " FROM application WHERE app_id = 'app-old'")) {
            for (int i = 0; i < two.size(); i++) {
                Finding f = two.get(i);
                ps.setString(1, f.id());
                ps.setInt(2, i);
                ps.setString(3, f.heuristic());
                ps.setString(4, f.severity().name());
                ps.setString(5, f.title());
                ps.setString(6, f.message());
                ps.executeUpdate();
            }
        }
        assertTrue(SchemaManager.migrate(ds).usable());
        assertEquals(expected(two), banners(ds), "V7 copied the existing findings, in order");
        assertHeuristicFilter(ds, two); // V20 filled the row's heuristics from the same findings
    }
}
