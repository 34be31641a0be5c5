package io.sparkscope.store;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.testing.SampleFindings;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppSearchQuery;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search page's statements are planned for their values on every run: the driver never makes them named
 * prepared statements, for which PostgreSQL may choose one generic plan (wrong for a name filter that matches half
 * the applications). Other statements of the same pool are prepared as usual, so their plans are reused.
 */
class SearchPlansTest {
    private static final long NOW = System.currentTimeMillis();

    @Test
    void searchIsNeverAPreparedStatementWhileOtherQueriesAre() throws Exception {
        String db = TestDb.newDatabaseName();
        try (HikariDataSource writer = StoreDataSources.pooled(TestDb.url(db), "postgres", null, 2)) {
            SchemaManager.migrate(writer);
            for (int i = 0; i < 3; i++) {
                new SnapshotWriter().write(writer, SnapshotBuilder.rich("app-plans-" + i, null, true),
                        SampleFindings.skewAndGc());
            }
        }
        // one connection, so every statement below runs on the same PostgreSQL session
        try (HikariDataSource ds = StoreDataSources.pooled(TestDb.url(db), "postgres", null, 1)) {
            AppSearchQuery search = new AppSearchQuery(ds);
            for (int i = 0; i < 8; i++) { // the driver prepares a statement on its fifth run
                AppSearchQuery.Result r = search.search(new AppFilter(null, null, null, null, null, null, null,
                        null, null, null, AppFilter.Sort.DURATION, true, 2, 0, NOW), 10);
                assertEquals(2, r.rows().size());
                search.search(new AppFilter(null, null, null, 0L, null, null, null, null, null, null,
                        AppFilter.Sort.START, true, 2, 20, NOW), 10); // past the end: counted by a statement of its own
            }
            try (Connection c = ds.getConnection()) {
                for (int i = 0; i < 8; i++) { // the control: an ordinary statement run as often
                    try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM application WHERE app_pk > ?")) {
                        ps.setLong(1, i);
                        ps.executeQuery().close();
                    }
                }
                assertEquals(0, prepared(c, "%FROM application a%"), "search statements prepared on the server");
                assertTrue(prepared(c, "SELECT count(*) FROM application WHERE app_pk > $1") > 0,
                        "an ordinary statement is prepared after five runs");
            }
        }
    }

    private static int prepared(Connection c, String like) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE ?")) {
            ps.setString(1, like);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
