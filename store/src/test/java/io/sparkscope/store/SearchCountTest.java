package io.sparkscope.store;

import io.sparkscope.core.testing.SampleFindings;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppSearchQuery;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The search page's total: counted in the page's own statement up to the cap, by a statement of its own for a page
 * past the end, and not at all for a page that is not full.
 */
class SearchCountTest {
    private static final long NOW = System.currentTimeMillis();
    private static DataSource ds;

    @BeforeAll
    static void fiveApplications() throws Exception {
        ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        for (int i = 0; i < 5; i++) {
            new SnapshotWriter().write(ds, SnapshotBuilder.rich("app-count-" + i, null, true),
                    SampleFindings.skewAndGc());
        }
    }

    private static AppSearchQuery.Result page(String appId, Long startedFrom, int limit, int offset, int countCap)
            throws Exception {
        return new AppSearchQuery(ds).search(new AppFilter(appId, null, null, startedFrom, null, null, null, null, null,
                null, AppFilter.Sort.START, true, limit, offset, NOW), countCap);
    }

    private static void assertTotal(long total, boolean lowerBound, AppSearchQuery.Result r) {
        assertEquals(total, r.total(), "total");
        assertEquals(lowerBound, r.totalIsLowerBound(), "lower bound");
    }

    /** 5 matches, pages of 2: counted up to offset + cap, past which the total is a lower bound ("3+"). */
    @Test
    void fullPagesCountUpToTheCap() throws Exception {
        assertTotal(3, true, page(null, null, 2, 0, 3));
        assertTotal(4, true, page(null, null, 2, 0, 4));
        assertTotal(5, false, page(null, null, 2, 0, 5));
        assertTotal(4, true, page(null, null, 2, 2, 2)); // second page: offset 2 + cap 2
        assertTotal(5, false, page(null, null, 2, 2, 10));
        // a filter's parameters are bound twice, for the count and for the page
        assertTotal(3, true, page(null, 0L, 2, 0, 3));
        assertTotal(5, false, page(null, 0L, 2, 0, 10));
        assertEquals(2, page(null, 0L, 2, 0, 10).rows().size());
    }

    @Test
    void partialAndEmptyPages() throws Exception {
        assertTotal(5, false, page(null, null, 2, 4, 10)); // one row on the last page: offset + rows
        assertTotal(5, false, page(null, 0L, 2, 20, 10)); // past the end: no row carries the count
        assertEquals(0, page(null, null, 2, 20, 10).rows().size());
        assertTotal(1, false, page("app-count-3", null, 2, 0, 10));
        assertTotal(0, false, page("no-such-app", 0L, 2, 0, 10));
    }
}
