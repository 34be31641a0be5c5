package io.sparkscope.core.recorder;

import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recorder with the listener's default window fed 1 000 000 small SQL jobs, written every 500 jobs as the
 * listener's flushes do: the heap it retains stays under {@link RecorderOptions#windowBytesBound()} (plus the
 * stated bit per id that left) and does not grow from 20 000 jobs on. A correctness bound, not a timing goal; runs in
 * its own JVM (surefire execution {@code long-run}) so no other test's garbage is measured.
 */
class MillionJobsTest {
    static final RecorderOptions LISTENER_WINDOW = RecorderOptions.DEFAULTS.withWindow(1000, 1000, 1000);

    @Test
    void retainedHeapStaysUnderTheStatedBound() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = used(memory, null);
        Recorder r = new Recorder(LISTENER_WINDOW);
        r.onEvent(LongRun.appStart());
        r.onEvent(LongRun.environment());
        LongRun run = new LongRun();
        long afterWarmUp = 0;
        int jobs = 1_000_000;
        for (int i = 0; i < jobs; i++) {
            run.job(r, i, 1, false);
            if ((i + 1) % 500 == 0) {
                r.written(r.snapshots(false).changed().eventCount());
            }
            if (i + 1 == 20_000) {
                afterWarmUp = used(memory, r);
            }
        }
        long after = used(memory, r);
        AppSnapshot s = r.snapshot();
        assertEquals(jobs, s.totals().jobs());
        assertEquals(jobs, s.totalTasks());
        assertEquals(jobs, s.totals().sqlExecutions());
        assertTrue(s.jobs().size() <= 1000 + 500, "jobs kept: " + s.jobs().size());

        long retained = after - before;
        // A bit per job, stage and SQL execution that left: the ids that keep late events from bringing them back.
        long idBits = 3L * jobs / 8 * 2;
        long bound = LISTENER_WINDOW.windowBytesBound() + idBits;
        System.out.printf("MillionJobsTest: retained %.1f MB after 20 000 jobs, %.1f MB after %d (bound %.1f MB)%n",
                (afterWarmUp - before) / 1e6, retained / 1e6, jobs, bound / 1e6);
        assertTrue(retained < bound, "retained " + retained + " bytes, bound " + bound);
        assertTrue(after - afterWarmUp < 4_000_000 + idBits,
                "grew by " + (after - afterWarmUp) + " bytes from 20 000 to " + jobs + " jobs");
        assertEquals(0, r.leftUnwritten());
    }

    /**
     * Heap in use after full collections (System.gc is a full GC on the JVMs we run, G1 and Serial). A snapshot
     * between them lets the redaction memo drop the entries whose objects the first collection freed (it expunges
     * them on its next use), so what is measured is what the recorder holds.
     */
    static long used(MemoryMXBean memory, Recorder r) {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            if (r != null) {
                r.snapshot();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
