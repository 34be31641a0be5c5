package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heap tasks had: the setting, or what the block managers measured when the setting was not in force. */
class TaskHeapTest {

    /** The app with every executor's block manager reporting the storage and execution memory of this heap. */
    static AppSnapshot withHeap(SnapshotBuilder b, long heapBytes, double fraction) {
        AppSnapshot app = b.build();
        long unified = Math.round((heapBytes - 300 * MiB) * fraction);
        return SnapshotBuilder.copy(app).executors(app.executors().stream()
                .map(e -> e.toBuilder().maxMemory(unified).build()).toList()).build();
    }

    @Test
    void aLocalDriverJvmGivenMoreThanTheDefaultIsMeasuredAndAdvisedFrom() {
        // local mode in a JVM started with a 4 GiB heap: Spark's default of 1g is not in force
        AppSnapshot app = withHeap(SnapshotBuilder.app().local(2), 4 * GiB, 0.6);
        TaskHeap heap = TaskHeap.of(app, SparkSettings.of(app));
        assertEquals("spark.driver.memory", heap.key());
        assertEquals(4 * GiB, heap.bytes());
        SettingAdvice more = heap.more("spill");
        assertEquals("spark.driver.memory=6g (now 4g, measured)", more.phrase());
        assertEquals(SettingAdvice.ValueSource.MEASURED, more.currentSource());
    }

    @Test
    void aSmallerHeapThanTheSettingIsTheOneInForceToo() {
        // spark.driver.memory=1g set, but the JVM had 640 MiB and a memory fraction of its own
        AppSnapshot app = withHeap(SnapshotBuilder.app().local(2).conf("spark.driver.memory", "1g")
                .conf("spark.memory.fraction", "0.3"), 640 * MiB, 0.3);
        TaskHeap heap = TaskHeap.of(app, SparkSettings.of(app));
        assertEquals(640 * MiB, heap.bytes());
        assertEquals("spark.driver.memory=960m (now 640m, measured)", heap.more("gc").phrase());
    }

    @Test
    void aHeapTheSettingExplainsKeepsTheSetting() {
        // executors of 4g report a little less heap (a JVM's own bookkeeping): the setting is in force
        AppSnapshot app = withHeap(SnapshotBuilder.app().master("yarn").conf("spark.executor.memory", "4g")
                .executor("1", 4, 10_000), 3_800 * MiB, 0.6);
        TaskHeap heap = TaskHeap.of(app, SparkSettings.of(app));
        assertEquals(4 * GiB, heap.bytes());
        assertEquals("spark.executor.memory=6g (now 4g)", heap.more("gc").phrase());
        // no block manager report: the setting (or Spark's default) as before
        AppSnapshot unreported = SnapshotBuilder.app().local(2).build();
        assertEquals("spark.driver.memory=1536m (now 1g, the default)",
                TaskHeap.of(unreported, SparkSettings.of(unreported)).more("gc").phrase());
    }

    @Test
    void theAdviceIsNeverAtOrBelowTheHeapInForce() {
        for (long heap : new long[]{400 * MiB, 1 * GiB, 3 * GiB, 7 * GiB + 123 * MiB, 30 * GiB}) {
            AppSnapshot app = withHeap(SnapshotBuilder.app().local(2), heap, 0.6);
            TaskHeap h = TaskHeap.of(app, SparkSettings.of(app));
            long recommended = (long) SettingAdvice.numeric(h.key(), h.more("x").recommendedValue()).orElseThrow();
            assertTrue(recommended > h.bytes() && h.bytes() >= heap - MiB, heap + " -> " + h.more("x").phrase());
        }
    }
}
