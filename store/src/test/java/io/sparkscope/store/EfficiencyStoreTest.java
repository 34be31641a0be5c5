package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.store.ingest.AppKey;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.HistoryQuery;
import io.sparkscope.store.query.WasteQuery;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The efficiency figures on the application row (V17): what the writer stores equals {@link Efficiency} of the
 * snapshot, every reader returns them, a row without them reads as "not computed" until reanalysed, a live
 * listener's partial snapshot still gets the figures of the whole run, and search sorts and filters by idle
 * core-hours through the V17 index.
 */
public class EfficiencyStoreTest {
    private static final long NOW = SnapshotBuilder.RICH_START + 3_600_000L;
    private static final double EPS = 1e-9;

    /** The rich fixture with one worker of {@code cores} cores that ran {@code taskMs} of tasks in its 59 s. */
    public static AppSnapshot withWorker(String appId, int cores, long taskMs) {
        AppSnapshot s = SnapshotBuilder.rich(appId, null, true);
        List<ExecutorSummary> executors = new ArrayList<>();
        for (ExecutorSummary e : s.executors()) {
            executors.add(e.isDriver() ? e : e.toBuilder().totalCores(cores).totalDuration(taskMs).build());
        }
        return SnapshotBuilder.copy(s).executors(executors).build();
    }

    static void assertFigures(Efficiency expected, AppEfficiency stored) {
        assertNotNull(stored, "figures stored");
        assertEquals(expected.coreHoursAllocated(), stored.coreHoursAllocated(), EPS);
        assertEquals(expected.coreHoursUsed(), stored.coreHoursUsed(), EPS);
        assertEquals(expected.coreHoursIdle(), stored.coreHoursWasted(), EPS);
        assertEquals(expected.coreHoursDriverAlone(), stored.coreHoursDriverAlone(), EPS);
        assertEquals(expected.gbHoursAllocated(), stored.gbHoursAllocated(), EPS);
        assertEquals(expected.gbHoursPeakUsed(), stored.gbHoursPeakUsed(), EPS);
        assertEquals(expected.gbHoursWasted(), stored.gbHoursWasted(), EPS);
        assertEquals(expected.gbHoursDriverAlone(), stored.gbHoursDriverAlone(), EPS);
        assertEquals(expected.driverAloneMs(), stored.driverAloneMs());
        assertEquals(expected.coreDriverAloneShare(), stored.coreDriverAloneShare(), EPS);
        assertEquals(expected.memoryDriverAloneShare(), stored.memoryDriverAloneShare(), EPS);
    }

    private static AppEfficiency detail(DataSource ds, String appId) throws Exception {
        return new AppDetailQuery(ds).load(new AppDetailQuery.Ref(appId, null), NOW).orElseThrow().header()
                .efficiency();
    }

    private static List<AppListRow> search(DataSource ds, AppFilter.Sort sort, boolean desc, Double minWaste)
            throws Exception {
        return new AppSearchQuery(ds).search(new AppFilter(null, null, null, null, null, null, null, null, null,
                null, sort, desc, 50, 0, NOW, minWaste)).rows();
    }

    @Test
    void theFiguresRoundTripThroughEveryReader() throws Exception {
        DataSource ds = TestDb.migrated();
        AppSnapshot s = withWorker("app-eff", 4, 50_000);
        Efficiency expected = Efficiency.of(s);
        assertTrue(expected.memoryMeasured() && expected.coreHoursIdle() > 0 && expected.gbHoursWasted() > 0,
                "the fixture wastes cores and measured memory");
        new SnapshotWriter().write(ds, s, List.of());

        assertFigures(expected, detail(ds, "app-eff"));
        assertFigures(expected, search(ds, AppFilter.Sort.START, true, null).get(0).efficiency());
        assertFigures(expected, new HistoryQuery(ds).runs(s.appName() == null ? "" : jobKey(ds, "app-eff"), 10)
                .get(0).efficiency());
        assertFigures(expected, SnapshotReader.read(ds, "app-eff", null).map(Efficiency::of)
                .map(EfficiencyStoreTest::asStored).orElseThrow());

        // the same snapshot again changes nothing: the figures are the same numbers, not a fresh float each time
        assertFalse(new SnapshotWriter().write(ds, s, List.of()).changed(), "an identical rewrite stays a no-op");
    }

    private static String jobKey(DataSource ds, String appId) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT job_key FROM application WHERE app_id = '" + appId + "'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** What the writer would store for {@code e}, to compare read-back snapshots with. */
    private static AppEfficiency asStored(Efficiency e) {
        return new AppEfficiency(e.coreHoursAllocated(), e.coreHoursUsed(), e.coreHoursIdle(),
                e.coreHoursDriverAlone(), e.gbHoursAllocated(), e.memoryMeasured() ? e.gbHoursPeakUsed() : null,
                e.memoryMeasured() ? e.gbHoursWasted() : null, e.gbHoursDriverAlone(), e.driverAloneMs());
    }

    @Test
    void unmeasuredMemoryIsStoredAsUnknownNotAsZero() throws Exception {
        DataSource ds = TestDb.migrated();
        AppSnapshot s = withWorker("app-unmeasured", 4, 50_000);
        List<ExecutorSummary> noPeaks = s.executors().stream().map(e -> e.toBuilder().peakMetrics(Map.of()).build())
                .toList();
        AppSnapshot unmeasured = SnapshotBuilder.copy(s).executors(noPeaks).build();
        new SnapshotWriter().write(ds, unmeasured, List.of());
        AppEfficiency e = detail(ds, "app-unmeasured");
        assertNotNull(e);
        assertTrue(e.gbHoursAllocated() > 0);
        assertNull(e.gbHoursPeakUsed(), "no peak measured");
        assertNull(e.gbHoursWasted(), "no waste claimed for memory nobody measured");
        assertFalse(e.memoryMeasured());
    }

    @Test
    void aRowStoredBeforeTheFiguresReadsAsNotComputedUntilReanalysed() throws Exception {
        DataSource ds = TestDb.migrated();
        AppSnapshot s = withWorker("app-old", 4, 50_000);
        new SnapshotWriter().write(ds, s, List.of());
        // what V17 leaves on a row stored before it: the new columns NULL
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE application SET core_hours_allocated = NULL, core_hours_used = NULL,"
                    + " core_hours_wasted = NULL, core_hours_driver_alone = NULL, gb_hours_allocated = NULL,"
                    + " gb_hours_peak_used = NULL, gb_hours_wasted = NULL, gb_hours_driver_alone = NULL,"
                    + " driver_alone_ms = NULL");
        }
        assertNull(detail(ds, "app-old"), "not computed, not zero");
        assertNull(search(ds, AppFilter.Sort.START, true, null).get(0).efficiency());
        assertEquals(List.of(), search(ds, AppFilter.Sort.START, true, 0.0), "a minimum excludes unknown waste");

        IngestResult r = IngestService.builder(ds).heuristics(x -> List.of()).build()
                .reingest(new AppKey("app-old", null));
        assertEquals(IngestResult.Outcome.WRITTEN, r.outcome(), "reanalyze fills the figures: " + r.reason());
        assertFigures(Efficiency.of(s), detail(ds, "app-old"));
    }

    @Test
    void aPartialSnapshotGetsTheFiguresOfTheWholeRun() throws Exception {
        DataSource ds = TestDb.migrated();
        AppSnapshot full = withWorker("app-live", 4, 50_000);
        Efficiency expected = Efficiency.of(full);
        new SnapshotWriter().write(ds, full, List.of());
        // What a live listener sends next: every executor, one changed stage, only the job-identity settings.
        AppSnapshot partial = full.toBuilder().config(full.config().jobIdentity()).jobs(List.of())
                .stages(List.of(full.stages().get(2))).sqlExecutions(List.of()).eventCount(full.eventCount() + 1)
                .partial(true).build();
        assertTrue(Efficiency.of(partial).gbHoursAllocated() != expected.gbHoursAllocated()
                        || Efficiency.of(partial).driverAloneMs() != expected.driverAloneMs(),
                "the partial snapshot alone would give other figures");
        new SnapshotWriter().write(ds, partial, List.of());
        assertFigures(expected, detail(ds, "app-live"));
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM configuration WHERE key = 'spark.executor.memory'"),
                "the stored configuration is kept under a partial write");
    }

    @Test
    void searchSortsAndFiltersByIdleCoreHoursThroughTheIndex() throws Exception {
        DataSource ds = TestDb.migrated();
        SnapshotWriter w = new SnapshotWriter();
        w.write(ds, withWorker("app-busy", 1, 59_000), List.of());     // ~0 idle
        w.write(ds, withWorker("app-some", 4, 100_000), List.of());    // 4 × 59 s − 100 s idle
        w.write(ds, withWorker("app-most", 16, 50_000), List.of());    // 16 × 59 s − 50 s idle
        w.write(ds, withWorker("app-unknown", 8, 50_000), List.of());
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE application SET core_hours_allocated = NULL, core_hours_used = NULL,"
                    + " core_hours_wasted = NULL WHERE app_id = 'app-unknown'");
        }
        List<String> desc = search(ds, AppFilter.Sort.WASTE, true, null).stream().map(AppListRow::appId).toList();
        assertEquals(List.of("app-most", "app-some", "app-busy", "app-unknown"), desc,
                "most idle first, not computed last");
        List<String> asc = search(ds, AppFilter.Sort.WASTE, false, null).stream().map(AppListRow::appId).toList();
        assertEquals(List.of("app-unknown", "app-busy", "app-some", "app-most"), asc, "the exact reverse");

        double some = detail(ds, "app-some").coreHoursWasted();
        assertEquals(List.of("app-most", "app-some"), search(ds, AppFilter.Sort.WASTE, true, some).stream()
                .map(AppListRow::appId).toList(), "at least as much idle time as app-some");
        assertEquals(List.of("app-most", "app-some"), search(ds, AppFilter.Sort.START, true, some).stream()
                .map(AppListRow::appId).sorted().toList(), "the filter with another sort");

        // The page's order and filter are an index scan (planner forced off sequential scans and sorts so the tiny
        // table does not hide a missing or mis-shaped index).
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("SET enable_seqscan = off");
            st.execute("SET enable_sort = off");
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = st.executeQuery("EXPLAIN SELECT app_pk FROM application a"
                    + " WHERE a.core_hours_wasted >= 0.01"
                    + " ORDER BY a.core_hours_wasted DESC NULLS LAST, a.app_pk DESC LIMIT 50")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            assertTrue(plan.toString().contains("application_core_waste_pk_idx"), plan.toString());
            assertFalse(plan.toString().contains("Sort"), plan.toString());
        }
    }

    @Test
    void theDashboardRanksTheWeeksWasteByTheGivenWeights() throws Exception {
        DataSource ds = TestDb.migrated();
        SnapshotWriter w = new SnapshotWriter();
        w.write(ds, withWorker("app-busy", 1, 59_000), List.of());
        w.write(ds, withWorker("app-most", 16, 50_000), List.of());
        WasteQuery.Result r = new WasteQuery(ds).since(SnapshotBuilder.RICH_START - 1, 1, 0, 5);
        assertEquals(List.of("app-most", "app-busy"), r.top().stream().map(WasteQuery.Wasteful::appId).toList());
        double most = detail(ds, "app-most").coreHoursWasted();
        double busy = detail(ds, "app-busy").coreHoursWasted();
        assertEquals(most + busy, r.totals().coreHoursWasted(), EPS);
        assertEquals(2, r.totals().computed());
        assertEquals(0, r.totals().notComputed());
        assertEquals(0, new WasteQuery(ds).since(SnapshotBuilder.RICH_START + 1, 1, 0, 5).top().size(),
                "started before the window");
    }
}
