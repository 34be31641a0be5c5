package io.sparkscope.server.web;

import jakarta.servlet.FilterChain;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AdmissionFilterTest {
    @Test
    void neverRunsMoreThanItsPermitsAtOnceAndReleasesOnFailure() throws Exception {
        AdmissionFilter filter = new AdmissionFilter(2);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        FilterChain chain = (req, res) -> {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                Thread.sleep(20);
                if (calls.incrementAndGet() % 3 == 0) {
                    throw new IllegalStateException("handler failed"); // the permit must still come back
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        Future<?>[] fs = new Future<?>[24];
        for (int i = 0; i < fs.length; i++) {
            fs[i] = pool.submit(() -> {
                go.await();
                try {
                    filter.doFilter(null, null, chain);
                } catch (IllegalStateException expected) {
                    // thrown by every third call on purpose
                }
                return null;
            });
        }
        go.countDown();
        for (Future<?> f : fs) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertEquals(24, calls.get(), "every request ran");
        assertEquals(2, maxRunning.get(), "at most 2 at once, and the limit was reached");
    }

    @Test
    void rejectsANonPositiveLimit() {
        assertThrows(IllegalArgumentException.class, () -> new AdmissionFilter(0));
    }
}
