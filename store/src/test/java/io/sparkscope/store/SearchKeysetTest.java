package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.SearchCursor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keyset paging: walking every page by the cursor of the previous page's last row (and back by its first row) returns
 * every application once, in the order of one big page, under every sort and direction, with ties on every sort key
 * and idle core-hours not computed for some.
 */
class SearchKeysetTest {
    private static final long NOW = System.currentTimeMillis();
    private static final int APPS = 23;
    private static DataSource ds;

    @BeforeAll
    static void applicationsWithTies() throws Exception {
        ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        SnapshotWriter w = new SnapshotWriter();
        for (int i = 0; i < APPS; i++) {
            w.write(ds, SnapshotBuilder.rich("app-key-" + i, null, true), List.of());
        }
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            // few distinct values per key, so most rows tie with others; every fifth has no idle core-hours
            st.execute("UPDATE application SET start_time = 1000 * (app_pk % 4), duration_ms = 10 * (app_pk % 3),"
                    + " saving_ms = app_pk % 2, core_hours_wasted = CASE WHEN app_pk % 5 = 0 THEN NULL"
                    + " ELSE (app_pk % 3) * 0.1 END,"
                    + " core_hours_allocated = CASE WHEN app_pk % 5 = 0 THEN NULL ELSE 1 END,"
                    + " spark_user = CASE WHEN app_pk % 2 = 0 THEN 'even' ELSE 'odd' END");
        }
    }

    private static AppFilter filter(String user, AppFilter.Sort sort, boolean desc, int limit, int offset) {
        return new AppFilter(null, null, user, null, null, null, null, null, null, null, sort, desc, limit, offset,
                NOW);
    }

    private static List<Long> pks(List<AppListRow> rows) {
        return rows.stream().map(AppListRow::pk).toList();
    }

    @Test
    void everyPageByCursorReturnsEachApplicationOnceInOrder() throws Exception {
        AppSearchQuery q = new AppSearchQuery(ds);
        for (String user : new String[] {null, "odd"}) {
            for (AppFilter.Sort sort : AppFilter.Sort.values()) {
                for (boolean desc : new boolean[] {true, false}) {
                    String what = sort + (desc ? " desc" : " asc") + (user == null ? "" : " user " + user);
                    List<Long> all = pks(q.search(filter(user, sort, desc, 500, 0)).rows());
                    assertEquals(user == null ? APPS : 12, all.size(), what);

                    List<Long> walked = new ArrayList<>();
                    List<List<AppListRow>> pages = new ArrayList<>();
                    AppSearchQuery.Result r = q.search(filter(user, sort, desc, 4, 0), 0);
                    while (!r.rows().isEmpty()) {
                        pages.add(r.rows());
                        walked.addAll(pks(r.rows()));
                        assertEquals(all.size(), r.total(), what + ": total at page " + pages.size());
                        AppListRow last = r.rows().get(r.rows().size() - 1);
                        r = q.search(filter(user, sort, desc, 4, pages.size() * 4)
                                .withCursor(SearchCursor.of(last, sort, false)), 0);
                    }
                    assertEquals(all, walked, what + ": forwards");
                    assertEquals(all.size(), new HashSet<>(walked).size(), what + ": each once");

                    // and back from the last page by "before" cursors
                    List<Long> back = new ArrayList<>(pks(pages.get(pages.size() - 1)));
                    for (int p = pages.size() - 1; p > 0; p--) {
                        AppListRow first = pages.get(p).get(0);
                        AppSearchQuery.Result prev = q.search(filter(user, sort, desc, 4, (p - 1) * 4)
                                .withCursor(SearchCursor.of(first, sort, true)), 0);
                        assertEquals(pks(pages.get(p - 1)), pks(prev.rows()), what + ": page " + p + " backwards");
                        assertEquals(all.size(), prev.total(), what + ": total backwards");
                        List<Long> before = new ArrayList<>(pks(prev.rows()));
                        before.addAll(back);
                        back = before;
                    }
                    assertEquals(all, back, what + ": backwards");
                }
            }
        }
    }

    /** The search page's capped count: a deep cursor page counts only what follows it, and says so. */
    @Test
    void aCursorPageCountsOnlyWhatFollows() throws Exception {
        AppSearchQuery q = new AppSearchQuery(ds);
        List<AppListRow> all = q.search(filter(null, AppFilter.Sort.START, true, 500, 0)).rows();
        AppSearchQuery.Result r = q.search(filter(null, AppFilter.Sort.START, true, 4, 8)
                .withCursor(SearchCursor.of(all.get(7), AppFilter.Sort.START, false)), 3);
        assertEquals(pks(all.subList(8, 12)), pks(r.rows()));
        assertEquals(8 + 4 + 3, r.total(), "position + page + the cap of what follows");
        assertTrue(r.totalIsLowerBound());
        r = q.search(filter(null, AppFilter.Sort.START, true, 4, 20)
                .withCursor(SearchCursor.of(all.get(19), AppFilter.Sort.START, false)), 3);
        assertEquals(APPS, r.total(), "the last page ends the count");
        assertFalse(r.totalIsLowerBound());
    }

    @Test
    void cursorTextRoundTrips() {
        SearchCursor waste = new SearchCursor(0.30000000000000004, 17, false);
        assertEquals(waste, SearchCursor.parse(waste.text(), AppFilter.Sort.WASTE, false));
        SearchCursor none = new SearchCursor(null, 3, true);
        assertEquals("none,3", none.text());
        assertEquals(none, SearchCursor.parse("none,3", AppFilter.Sort.WASTE, true));
        assertEquals(new SearchCursor(1764400000000L, 9, false),
                SearchCursor.parse("1764400000000,9", AppFilter.Sort.START, false));
        assertThrows(IllegalArgumentException.class, () -> SearchCursor.parse("none,3", AppFilter.Sort.START, false));
        assertThrows(IllegalArgumentException.class, () -> SearchCursor.parse("12", AppFilter.Sort.START, false));
        assertThrows(IllegalArgumentException.class, () -> SearchCursor.parse("NaN,1", AppFilter.Sort.WASTE, false));
    }
}
