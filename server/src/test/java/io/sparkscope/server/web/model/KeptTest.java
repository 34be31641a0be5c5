package io.sparkscope.server.web.model;

import com.google.common.base.Ticker;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.EfficiencyStoreTest;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.WasteQuery;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Answers are kept for the same key, for a while, for a bounded number of keys, and clients arriving together share
 * one computation; on a real database, what the pages keep shows a stored application at once.
 */
class KeptTest {
    /** A clock the test moves. */
    private static final class Clock extends Ticker {
        final AtomicLong nanos = new AtomicLong();

        @Override
        public long read() {
            return nanos.get();
        }
    }

    @Test
    void theSameKeyIsReadOnceAndAnotherKeyAgain() throws Exception {
        Kept<String, Integer> kept = Kept.byValue(8, Kept.TIME);
        AtomicInteger reads = new AtomicInteger();
        Kept.Query<Integer> query = reads::incrementAndGet;
        assertEquals(1, kept.get("job|app-1,app-2", query));
        assertEquals(1, kept.get("job|app-1,app-2", query), "the same key: the kept answer");
        assertEquals(2, kept.get("job|app-1,app-2,app-3", query), "a new run: read again");
        assertEquals(3, kept.get("other job|app-1,app-2", query), "another job: read");
    }

    @Test
    void aKeptAnswerExpiresAndTheKeysKeptAreBounded() throws Exception {
        Clock clock = new Clock();
        Kept<String, Integer> kept = Kept.byValue(8, Duration.ofSeconds(30), clock);
        AtomicInteger reads = new AtomicInteger();
        kept.get("k", reads::incrementAndGet);
        clock.nanos.addAndGet(Duration.ofSeconds(29).toNanos());
        kept.get("k", reads::incrementAndGet);
        assertEquals(1, reads.get(), "29 s later: still kept");
        clock.nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        kept.get("k", reads::incrementAndGet);
        assertEquals(2, reads.get(), "31 s later: read again");

        Kept<Integer, Integer> many = Kept.byValue(WebData.KEPT_JOBS, Kept.TIME);
        for (int i = 0; i < WebData.KEPT_JOBS * 2; i++) {
            many.get(i, () -> 0);
        }
        assertTrue(many.size() <= WebData.KEPT_JOBS, many.size() + " kept");
    }

    @Test
    void aFailedReadKeepsNothingAndSaysWhy() throws Exception {
        Kept<String, Integer> kept = Kept.byValue(8, Kept.TIME);
        SQLException e = assertThrows(SQLException.class, () -> kept.get("k", () -> {
            throw new SQLException("database away");
        }));
        assertEquals("database away", e.getMessage());
        assertEquals(7, kept.get("k", () -> 7), "the next read runs");
    }

    @Test
    void keysByIdentityAreNotComparedByValue() throws Exception {
        Kept<List<String>, Integer> kept = Kept.byIdentity(8, Kept.TIME);
        AtomicInteger reads = new AtomicInteger();
        List<String> one = new ArrayList<>(List.of("a"));
        kept.get(one, reads::incrementAndGet);
        kept.get(one, reads::incrementAndGet);
        kept.get(new ArrayList<>(List.of("a")), reads::incrementAndGet);
        assertEquals(2, reads.get(), "an equal key that is another object: read again");
    }

    @Test
    void clientsArrivingTogetherShareOneRead() throws Exception {
        Kept<String, String> kept = Kept.byValue(1, Kept.TIME);
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        String answer = "ranking";
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return kept.get("week", () -> {
                        reads.incrementAndGet();
                        try {
                            Thread.sleep(200);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return answer;
                    });
                }));
            }
            start.countDown();
            for (Future<String> a : answers) {
                assertSame(answer, a.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, reads.get(), "eight clients at once, one read");
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

    /** On a real database: a job's history is kept for the same runs, and a new run of the job shows at once. */
    @Test
    void aJobsHistoryIsKeptForTheSameRunsAndANewRunShowsAtOnce() throws Exception {
        DataSource ds = TestDb.migrated();
        WebData data = new WebData(ds, () -> SnapshotBuilder.RICH_START + 30 * 86_400_000L);
        SnapshotWriter writer = new SnapshotWriter();
        for (int i = 1; i <= 3; i++) {
            writer.write(ds, run("app-history-" + i, i), List.of());
        }
        String job = data.lookup(null, "kept nightly").jobKey();
        RunHistory first = data.history(job, 100);
        assertEquals(3, first.runs().size());
        assertSame(first, data.history(job, 100), "the same runs: the kept history");
        assertNotSame(first, data.history(job, 2), "fewer runs asked for: other runs, read again");
        assertEquals(2, data.history(job, 2).runs().size());

        writer.write(ds, run("app-history-4", 4), List.of());
        RunHistory after = data.history(job, 100);
        assertEquals(4, after.runs().size(), "a new run: on the next view");
        assertEquals("app-history-4", after.runs().get(3).run().appId());
    }

    private static io.sparkscope.core.model.AppSnapshot run(String appId, int day) {
        var spec = SnapshotBuilder.syntheticSpec(appId, "kept nightly", "alice",
                SnapshotBuilder.RICH_START + day * 86_400_000L, 60_000);
        return SnapshotBuilder.synthetic(spec);
    }
}
