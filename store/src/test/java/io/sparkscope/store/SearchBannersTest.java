package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
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

    private static List<List<String>> expected(List<Finding> fs) {
        return fs.stream().map(f -> List.of(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message())).toList();
    }

    @Test
    void bannersFollowEveryWriteOfTheFindings() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        AppSnapshot app = Snapshots.rich("app-banners", null, true);
        List<Finding> two = Snapshots.findings();
        new SnapshotWriter().write(ds, app, two);
        assertEquals(expected(two), banners(ds), "in finding order, with messages");

        List<Finding> one = List.of(two.get(1));
        new SnapshotWriter().overwrite(ds, app, one); // e.g. reanalyze with other thresholds
        assertEquals(expected(one), banners(ds));

        new SnapshotWriter().overwrite(ds, app, List.of());
        assertEquals(List.of(), banners(ds));
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE banners IS NULL"));
    }

    @Test
    void theMigrationFillsBannersOfApplicationsStoredBeforeIt() throws Exception {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        List<Finding> two = Snapshots.findings();
        new SnapshotWriter().write(ds, Snapshots.rich("app-old", null, true), two);
        // Turn the database back into one written before V7: no column, no V7 in Flyway's history.
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE application DROP COLUMN banners");
            st.execute("DELETE FROM " + SchemaManager.HISTORY_TABLE + " WHERE version = '7'");
        }
        assertTrue(SchemaManager.migrate(ds).usable());
        assertEquals(expected(two), banners(ds), "V7 copied the existing findings, in order");
    }
}
