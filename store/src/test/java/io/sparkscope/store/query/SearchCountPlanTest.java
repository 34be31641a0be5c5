package io.sparkscope.store.query;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A broad filter's capped count reads the applications newest first from the index that carries the filtered
 * columns, and stops at the cap: it does not read a whole index in another order. 60 000 applications, one in twenty
 * of each name, as a fleet's recurring jobs are.
 */
class SearchCountPlanTest {
    private static final int APPS = 60_000;

    @Test
    void aBroadNameFilterIsCountedNewestFirstFromTheIndexAlone() throws Exception {
        DataSource ds = TestDb.migrated();
        new SnapshotWriter().write(ds, SnapshotBuilder.rich("app-plan-0", null, true), List.of());
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            // copies of the one application: new ids, one of twenty names, one start a second apart
            st.execute("DO $$ DECLARE cols text; BEGIN"
                    + " SELECT string_agg(quote_ident(column_name), ', ') INTO cols FROM information_schema.columns"
                    + " WHERE table_schema = current_schema() AND table_name = 'application' AND is_generated = 'NEVER'"
                    + " AND column_name NOT IN ('app_pk', 'app_id', 'name', 'start_time');"
                    + " EXECUTE format('INSERT INTO application (app_id, name, start_time, %s) SELECT ''app-plan-'' || g,"
                    + " ''job-'' || (g %% 20), 1700000000000 + g * 1000, %s FROM generate_series(1, " + APPS + ") g,"
                    + " application a WHERE a.app_id = ''app-plan-0''', cols, cols); END $$");
            st.execute("VACUUM ANALYZE application");
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, FORMAT TEXT) "
                + AppSearchQuery.cappedCountSql(" WHERE a.name_lower LIKE lower(?)"))) {
            ps.setString(1, "%job-7%");
            ps.setLong(2, 1001);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            assertTrue(plan.toString().contains("Index Only Scan Backward using application_start_search_idx"), plan.toString());
            // the cap is reached after about 1 001 × 20 entries of the index, not 60 000
            long scanned = 0;
            for (String line : plan.toString().split("\n")) {
                if (line.contains("Index Only Scan") || line.contains("Rows Removed by Filter")) {
                    scanned += rows(line);
                }
            }
            assertTrue(scanned < 30_000, scanned + " entries read:\n" + plan);
        }
        // and the count is right: job-7 is every twentieth copy
        AppSearchQuery.Result r = new AppSearchQuery(ds).search(new AppFilter(null, "job-7", null, null, null, null,
                null, null, null, null, AppFilter.Sort.START, true, 50, 0, System.currentTimeMillis()), 1000);
        assertEquals(1000, r.total());
        assertTrue(r.totalIsLowerBound());
        assertEquals(50, r.rows().size());
    }

    /** The rows of a plan line: "actual time=… rows=N loops=1" or "Rows Removed by Filter: N". */
    private static long rows(String line) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:rows=|Filter: )(\\d+)(?!.*rows=)").matcher(line);
        long n = 0;
        while (m.find()) {
            n = Long.parseLong(m.group(1));
        }
        return n;
    }
}
