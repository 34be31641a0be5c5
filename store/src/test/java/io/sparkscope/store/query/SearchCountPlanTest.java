package io.sparkscope.store.query;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A filtered search's capped count reads its matches from an index that answers the filter, and stops at the cap.
 * 60 000 applications: one in twenty of each name and of each user (as a fleet's recurring jobs are), one in 97
 * judged HIGH.
 */
class SearchCountPlanTest {
    private static final int APPS = 60_000;
    private static DataSource ds;

    @BeforeAll
    static void fleet() throws Exception {
        ds = TestDb.migrated();
        new SnapshotWriter().write(ds, SnapshotBuilder.rich("app-plan-0", null, true), List.of());
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            // copies of the one application with new ids, names, users, severities and one start a second apart
            st.execute("DO $$ DECLARE cols text; BEGIN"
                    + " SELECT string_agg(quote_ident(column_name), ', ') INTO cols FROM information_schema.columns"
                    + " WHERE table_schema = current_schema() AND table_name = 'application' AND is_generated = 'NEVER'"
                    + " AND column_name NOT IN ('app_pk', 'app_id', 'name', 'start_time', 'spark_user',"
                    + " 'worst_severity');"
                    + " EXECUTE format('INSERT INTO application (app_id, name, start_time, spark_user, worst_severity,"
                    + " %s) SELECT ''app-plan-'' || g, ''job-'' || (g %% 20), 1700000000000 + g * 1000,"
                    + " ''user'' || (g %% 20), CASE WHEN g %% 97 = 0 THEN ''HIGH'' ELSE ''LOW'' END, %s"
                    + " FROM generate_series(1, " + APPS + ") g, application a WHERE a.app_id = ''app-plan-0''',"
                    + " cols, cols); END $$");
            st.execute("VACUUM ANALYZE application");
        }
    }

    /**
     * A name one application in twenty has: counted newest first from the index on start_time that carries the
     * names, about 1 001 × 20 entries, not a whole index read in name order.
     */
    @Test
    void aBroadNameFilterIsCountedNewestFirstFromTheIndexAlone() throws Exception {
        String plan = plan(" WHERE a.name_lower LIKE lower(?)", "%job-7%");
        assertTrue(plan.contains("Index Only Scan Backward using application_start_search_idx"), plan);
        long scanned = 0;
        for (String line : plan.split("\n")) {
            if (line.contains("Index Only Scan") || line.contains("Rows Removed by Filter")) {
                scanned += rows(line);
            }
        }
        assertTrue(scanned < 30_000, scanned + " entries read:\n" + plan);
        AppSearchQuery.Result r = new AppSearchQuery(ds).search(new AppFilter(null, "job-7", null, null, null, null,
                null, null, null, null, AppFilter.Sort.START, true, 50, 0, System.currentTimeMillis()), 1000);
        assertEquals(1000, r.total());
        assertTrue(r.totalIsLowerBound());
        assertEquals(50, r.rows().size());
    }

    /**
     * A user and a severity together (30 of 60 000 applications) are read from the index on both, for the count as
     * for the page, not by intersecting the user's list with the severity's.
     */
    @Test
    void aUserAndASeverityAreReadFromTheIndexOnBoth() throws Exception {
        String plan = plan(" WHERE a.spark_user = ? AND a.worst_severity = ?", "user3", "HIGH");
        assertTrue(plan.contains("application_user_severity_idx") && !plan.contains("BitmapAnd"), plan);
        AppSearchQuery.Result r = new AppSearchQuery(ds).search(new AppFilter(null, null, "user3", null, null, null,
                null, "HIGH", null, null, AppFilter.Sort.START, true, 50, 0, System.currentTimeMillis()), 1000);
        assertEquals(30, r.total(), "g ≡ 3 (mod 20) and g ≡ 0 (mod 97) for g up to 60 000");
        assertEquals(30, r.rows().size());
    }

    /** EXPLAIN ANALYZE of the search's capped count with a cap of 1 000. */
    private static String plan(String where, String... values) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "EXPLAIN (ANALYZE, FORMAT TEXT) " + AppSearchQuery.cappedCountSql(where))) {
            int i = 1;
            for (String v : values) {
                ps.setString(i++, v);
            }
            ps.setLong(i, 1001);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    /** The rows of a plan line: "actual time=… rows=N loops=1" or "Rows Removed by Filter: N". */
    private static long rows(String line) {
        Matcher m = Pattern.compile("(?:rows=|Filter: )(\\d+)(?!.*rows=)").matcher(line);
        long n = 0;
        while (m.find()) {
            n = Long.parseLong(m.group(1));
        }
        return n;
    }
}
