package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.EfficiencyStoreTest;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.WasteQuery;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dashboard's waste of the week is kept while the dashboard beside it is unchanged, and no longer. */
class KeptWasteTest {
    private static final WasteQuery.Result EMPTY = new WasteQuery.Result(List.of(),
            new WasteQuery.Totals(0, 0, 0, 0, 0, 0));

    private static KeptWaste.Key key(long applications) {
        return new KeptWaste.Key(1, 0, 100, applications, new DashboardQuery.Health(1, 0, 0), 7);
    }

    @Test
    void theSameDashboardReadsTheRankingOnceAndAChangedOneAgain() throws Exception {
        KeptWaste kept = new KeptWaste();
        AtomicInteger runs = new AtomicInteger();
        KeptWaste.Query query = () -> {
            runs.incrementAndGet();
            return new WasteQuery.Result(List.of(), new WasteQuery.Totals(runs.get(), 0, 0, 0, 0, 0));
        };
        WasteQuery.Result first = kept.get(key(10), query);
        assertSame(first, kept.get(key(10), query));
        assertEquals(1, runs.get());
        WasteQuery.Result afterAnImport = kept.get(key(11), query);
        assertEquals(2, runs.get(), "one more application stored: ranked again");
        assertEquals(2, afterAnImport.totals().computed());
        kept.get(new KeptWaste.Key(0.05, 0.006, 100, 11, new DashboardQuery.Health(1, 0, 0), 7), query);
        assertEquals(3, runs.get(), "other prices: ranked again");
    }

    @Test
    void aKeptResultExpires() throws Exception {
        KeptWaste kept = new KeptWaste(50_000_000L);
        AtomicInteger runs = new AtomicInteger();
        kept.get(key(1), () -> {
            runs.incrementAndGet();
            return EMPTY;
        });
        Thread.sleep(80);
        kept.get(key(1), () -> {
            runs.incrementAndGet();
            return EMPTY;
        });
        assertEquals(2, runs.get());
    }

    @Test
    void clientsArrivingTogetherShareOneRanking() throws Exception {
        KeptWaste kept = new KeptWaste();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<WasteQuery.Result>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return kept.get(key(5), () -> {
                        runs.incrementAndGet();
                        try {
                            Thread.sleep(200);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return EMPTY;
                    });
                }));
            }
            start.countDown();
            for (Future<WasteQuery.Result> a : answers) {
                assertSame(EMPTY, a.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, runs.get(), "eight clients at once, one ranking");
    }

    /** On a real database: an application stored after the dashboard was shown appears on the next view at once. */
    @Test
    void anApplicationStoredAfterAViewIsOnTheNext() throws Exception {
        DataSource ds = TestDb.migrated();
        long now = SnapshotBuilder.RICH_START + 3_600_000L;
        WebData data = new WebData(ds, () -> now);
        SnapshotWriter writer = new SnapshotWriter();
        writer.write(ds, EfficiencyStoreTest.withWorker("app-kept-one", 4, 100_000), List.of());
        DashboardQuery.Dashboard shown = data.dashboard();
        WasteQuery.Result before = data.waste(Prices.NONE, shown);
        assertEquals(List.of("app-kept-one"), before.top().stream().map(WasteQuery.Wasteful::appId).toList());
        assertSame(before, data.waste(Prices.NONE, data.dashboard()), "nothing changed: the kept result");

        writer.write(ds, EfficiencyStoreTest.withWorker("app-kept-two", 16, 50_000), List.of());
        WasteQuery.Result after = data.waste(Prices.NONE, data.dashboard());
        assertTrue(after.top().stream().anyMatch(w -> w.appId().equals("app-kept-two")),
                after.top().toString());
        assertEquals(2, after.totals().computed());
        assertEquals(data.waste(Prices.NONE).totals(), after.totals(), "the kept result is the query's");
    }
}
