package io.sparkscope.store.query;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every page of the executors, in every order and filter, read each way the query can read it (from a position,
 * counted over the index, after a cursor), is exactly the slice of the whole ordered list: nothing skipped, nothing
 * twice. Also after a live listener's partial write left two executors at one position, which makes the positions
 * no longer 0 … n-1.
 */
class ExecutorPagesTest {
    private static final String APP = "app-executor-pages";
    private static final long T0 = 1_764_400_000_000L;

    @Test
    void everyPageIsTheSliceOfTheWholeListAndCursorsWalkItWithoutGapOrOverlap() throws Exception {
        // pooled as the server's pages are: some two thousand page reads, each its own transaction
        String db = TestDb.newDatabaseName();
        SchemaManager.migrate(TestDb.dataSource(db));
        try (var ds = StoreDataSources.pooled(TestDb.url(db), "postgres", "", 2)) {
            writeAndCheck(ds);
        }
    }

    private static void writeAndCheck(DataSource ds) throws Exception {
        AppSnapshot full = app(40);
        new SnapshotWriter().write(ds, full, List.of());
        assertEquals(List.of(41L, 27L, true, true), counts(ds), "40 executors and the driver");
        checkEveryPage(ds);

        // A partial snapshot lists three executors at positions 0, 1, 2: two are new, one is stored ("9", now
        // removed); "41" then shares position 0 with the driver, and the rows keep what the snapshot does not list.
        List<ExecutorSummary> some = List.of(executor(41, true), executor(42, false), executor(9, true));
        AppSnapshot partial = full.toBuilder().executors(some).jobs(List.of()).stages(List.of())
                .sqlExecutions(List.of()).driverGcTimeMs(0).driverMaxMemory(0).eventCount(full.eventCount() + 10)
                .unknownEventTypes(Map.of()).partial(true).build();
        new SnapshotWriter().write(ds, partial, List.of());
        assertEquals(List.of(43L, 29L, true, false), counts(ds), "41 and 9 removed, 42 alive; positions not dense");
        checkEveryPage(ds);
    }

    private static void checkEveryPage(DataSource ds) throws Exception {
        JobsExecutorsQuery q = new JobsExecutorsQuery(ds);
        for (JobsExecutorsQuery.State state : JobsExecutorsQuery.State.values()) {
            for (JobsExecutorsQuery.Order order : JobsExecutorsQuery.Order.values()) {
                List<String> whole = ordered(ds, state, order);
                String what = state + " " + order;
                for (int offset = 0; offset <= whole.size() + 1; offset++) {
                    // every offset of pages of 7 (each row is first, last, inside a page somewhere); the ends and
                    // the middle for pages of one row and pages longer than the list
                    boolean ends = offset <= 1 || offset == whole.size() / 2 || offset >= whole.size() - 1;
                    for (int length : ends ? new int[] {1, 7, 1000} : new int[] {7}) {
                        var page = q.executorPage(APP, null, new JobsExecutorsQuery.Request(state, order, offset,
                                length)).orElseThrow();
                        assertEquals(whole.subList(Math.min(offset, whole.size()),
                                Math.min(offset + length, whole.size())), ids(page), what + " offset " + offset);
                        assertEquals(whole.size(), page.matching(), what);
                    }
                }
                // Following the cursor from the first page walks the whole list once.
                List<String> walked = new ArrayList<>();
                String after = null;
                for (int pages = 0; pages <= whole.size(); pages++) {
                    var page = q.executorPage(APP, null, new JobsExecutorsQuery.Request(state, order, walked.size(),
                            7, after)).orElseThrow();
                    if (page.executors().isEmpty()) {
                        break;
                    }
                    walked.addAll(ids(page));
                    after = walked.get(walked.size() - 1);
                }
                assertEquals(whole, walked, what + " by cursor");
                assertEquals(whole.size(), new HashSet<>(walked).size(), what + ": no executor twice");
                if (!whole.isEmpty()) {
                    // A cursor naming no stored executor (a link older than the application's rewrite) reads from
                    // the offset the link also carries, in the order they appeared; by id it is a place in the order.
                    var stale = q.executorPage(APP, null, new JobsExecutorsQuery.Request(state, order, 2, 3, "gone"))
                            .orElseThrow();
                    if (order == JobsExecutorsQuery.Order.APPEARED) {
                        assertEquals(whole.subList(Math.min(2, whole.size()), Math.min(5, whole.size())), ids(stale),
                                what);
                    } else {
                        assertTrue(ids(stale).stream().allMatch(id -> order == JobsExecutorsQuery.Order.ID
                                ? id.compareTo("gone") > 0 : id.compareTo("gone") < 0), what + " " + ids(stale));
                    }
                }
            }
        }
    }

    /** The definition of each order, straight from the rows. */
    private static List<String> ordered(DataSource ds, JobsExecutorsQuery.State state, JobsExecutorsQuery.Order order)
            throws Exception {
        String where = switch (state) {
            case ALL -> "";
            case ACTIVE -> " AND remove_time < 0";
            case REMOVED -> " AND remove_time >= 0";
        };
        String by = switch (order) {
            case APPEARED -> "ord, executor_id COLLATE \"C\"";
            case ID -> "executor_id COLLATE \"C\"";
            case ID_DESCENDING -> "executor_id COLLATE \"C\" DESC";
        };
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT executor_id"
                + " FROM executor JOIN application USING (app_pk) WHERE app_id = ?" + where + " ORDER BY " + by)) {
            ps.setString(1, APP);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static List<Object> counts(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT total, removed,"
                + " any_peaks, dense_ord FROM executor_counts JOIN application USING (app_pk) WHERE app_id = ?")) {
            ps.setString(1, APP);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the writer keeps the counts");
                return List.of(rs.getLong(1), rs.getLong(2), rs.getBoolean(3), rs.getBoolean(4));
            }
        }
    }

    private static List<String> ids(JobsExecutorsQuery.ExecutorPage page) {
        return page.executors().stream().map(ExecutorSummary::executorId).toList();
    }

    /** {@code n} executors "1" … "n" and the driver; every third still alive, one with peak memory measured. */
    private static AppSnapshot app(int n) {
        AppSnapshot s = SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec(APP, "elastic", "pages", T0, 600_000L));
        List<ExecutorSummary> executors = new ArrayList<>();
        executors.add(new ExecutorSummary("driver", "driver-host", 0, T0, -1, null, 1L << 30, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, Map.of(), "driver-host:4040", true, 0, 0, 1L << 30, 0));
        for (int i = 1; i <= n; i++) {
            executors.add(executor(i, i % 3 != 0));
        }
        return s.toBuilder().executors(executors).totals(null).partial(false).streamingQueries(List.of()).build();
    }

    private static ExecutorSummary executor(int i, boolean removed) {
        long added = T0 + i * 1000L;
        return new ExecutorSummary(String.valueOf(i), "host-" + (i % 4), 4, added, removed ? added + 500 : -1,
                removed ? "idle" : null, 1L << 30, 3, 0, 0, 900, 800, 700_000_000L, 10, 1 << 20, 0, 0, 0, 0,
                i == 5 ? Map.of("JVMHeapMemory", 123L) : Map.of(), "host-" + (i % 4) + ":40000", true, 3, 0,
                1L << 30, 0);
    }
}
