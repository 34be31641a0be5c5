package io.sparkscope.server.web.sql;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kept renderings: by version, bounded by bytes (least recently served out first), one render per miss. */
class RenderedCacheTest {
    private static RenderedCache.Key key(long pk) {
        return new RenderedCache.Key("page", pk, 0, "");
    }

    private static RenderedCache.Render body(int bytes, String version, AtomicInteger renders) {
        return () -> {
            renders.incrementAndGet();
            return new RenderedCache.Rendered(new byte[bytes], version);
        };
    }

    @Test
    void keptWhileTheVersionHoldsRenderedAgainWhenItMoves() throws SQLException {
        RenderedCache c = new RenderedCache(1 << 20);
        AtomicInteger renders = new AtomicInteger();
        var first = c.get(key(1), "v1", false, body(100, "v1", renders));
        assertEquals(RenderedCache.Outcome.MISS, first.outcome());
        var again = c.get(key(1), "v1", false, body(100, "v1", renders));
        assertEquals(RenderedCache.Outcome.HIT, again.outcome());
        assertSame(first.body(), again.body());
        assertEquals(1, renders.get());
        assertEquals(RenderedCache.Outcome.MISS, c.get(key(1), "v2", false, body(100, "v2", renders)).outcome());
        assertEquals(2, renders.get());
        assertEquals(RenderedCache.Outcome.HIT, c.get(key(1), "v2", false, body(100, "v2", renders)).outcome());
    }

    @Test
    void withoutAVersionNothingIsKept() throws SQLException {
        RenderedCache c = new RenderedCache(1 << 20);
        AtomicInteger renders = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            assertEquals(RenderedCache.Outcome.BYPASS, c.get(key(1), null, false, body(10, null, renders)).outcome());
        }
        // asked at a version, but the rendering read rows that have none (the application runs again)
        for (int i = 0; i < 2; i++) {
            assertEquals(RenderedCache.Outcome.BYPASS, c.get(key(2), "v1", false, body(10, null, renders)).outcome());
        }
        assertEquals(5, renders.get());
        assertEquals(0, c.keptBytes());
        RenderedCache off = new RenderedCache(0);
        assertEquals(RenderedCache.Outcome.BYPASS, off.get(key(1), "v1", false, body(10, "v1", renders)).outcome());
        assertThrows(IllegalArgumentException.class, () -> new RenderedCache(-1));
    }

    @Test
    void boundedByBytesTheLeastRecentlyServedGoFirst() throws SQLException {
        RenderedCache c = new RenderedCache(3_000);
        AtomicInteger renders = new AtomicInteger();
        c.get(key(1), "v", false, body(700, "v", renders));
        c.get(key(2), "v", false, body(700, "v", renders));
        c.get(key(3), "v", false, body(700, "v", renders));
        assertTrue(c.keptBytes() <= 3_000, "within the bound: " + c.keptBytes());
        c.get(key(1), "v", false, body(700, "v", renders)); // 1 served again: 2 is now the eldest
        c.get(key(4), "v", false, body(700, "v", renders));
        assertTrue(c.keptBytes() <= 3_000, "within the bound: " + c.keptBytes());
        assertEquals(RenderedCache.Outcome.HIT, c.get(key(1), "v", false, body(700, "v", renders)).outcome());
        assertEquals(RenderedCache.Outcome.MISS, c.get(key(2), "v", false, body(700, "v", renders)).outcome());
        // larger than the whole bound: served, not kept, nothing else dropped for it
        long before = c.keptBytes();
        assertEquals(RenderedCache.Outcome.MISS, c.get(key(9), "v", false, body(5_000, "v", renders)).outcome());
        assertEquals(RenderedCache.Outcome.MISS, c.get(key(9), "v", false, body(5_000, "v", renders)).outcome());
        assertEquals(before, c.keptBytes());
    }

    @Test
    void gzipFormIsTheSameBodyAndKeptBeside() throws Exception {
        RenderedCache c = new RenderedCache(1 << 20);
        byte[] page = "<p>plan</p>".repeat(500).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        RenderedCache.Render render = () -> new RenderedCache.Rendered(page, "v");
        var plain = c.get(key(1), "v", false, render);
        assertNull(plain.gzip());
        long plainBytes = c.keptBytes();
        var z = c.get(key(1), "v", true, render);
        assertEquals(RenderedCache.Outcome.HIT, z.outcome());
        try (var in = new GZIPInputStream(new ByteArrayInputStream(z.gzip()))) {
            assertArrayEquals(page, in.readAllBytes());
        }
        assertEquals(plainBytes + z.gzip().length, c.keptBytes(), "the compressed form counts against the bound");
        assertSame(z.gzip(), c.get(key(1), "v", true, render).gzip(), "compressed once");
        var small = c.get(key(2), "v", true, () -> new RenderedCache.Rendered(new byte[10], "v"));
        assertNull(small.gzip(), "a short body is sent as it is");
    }

    @Test
    void concurrentMissesRenderOnceAndShareTheBody() throws Exception {
        RenderedCache c = new RenderedCache(1 << 20);
        AtomicInteger renders = new AtomicInteger();
        CountDownLatch rendering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RenderedCache.Render slow = () -> {
            renders.incrementAndGet();
            rendering.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return new RenderedCache.Rendered(new byte[64], "v");
        };
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<RenderedCache.Answer>> answers = new ArrayList<>();
            answers.add(pool.submit(() -> c.get(key(1), "v", false, slow)));
            assertTrue(rendering.await(10, TimeUnit.SECONDS));
            for (int i = 0; i < 7; i++) {
                answers.add(pool.submit(() -> c.get(key(1), "v", false, slow)));
            }
            Thread.sleep(200); // the seven are waiting for the one rendering
            release.countDown();
            byte[] body = answers.get(0).get(10, TimeUnit.SECONDS).body();
            for (Future<RenderedCache.Answer> a : answers) {
                assertSame(body, a.get(10, TimeUnit.SECONDS).body());
            }
            assertEquals(1, renders.get(), "rendered once for all eight");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedRenderingFailsItsWaitersAndIsNotKept() throws Exception {
        RenderedCache c = new RenderedCache(1 << 20);
        SQLException down = new SQLException("database away");
        assertSame(down, assertThrows(SQLException.class, () -> c.get(key(1), "v", false, () -> {
            throw down;
        })));
        AtomicInteger renders = new AtomicInteger();
        assertEquals(RenderedCache.Outcome.MISS, c.get(key(1), "v", false, body(10, "v", renders)).outcome());
        assertEquals(1, renders.get());
    }
}
