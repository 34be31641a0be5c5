package io.sparkscope.listener;

import io.sparkscope.core.analysis.timeline.ExecutorLanes;
import io.sparkscope.core.analysis.timeline.TaskPhase;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.analysis.timeline.TimelineBar;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task timeline of a real local[2] run, recorded by the listener: two lanes, an artifact only where one is. */
class TimelineLocalSparkTest {

    @Test
    void aLocalTwoCoreStageHasTwoLanesWhateverTheDriverTimestampsOverlap() throws Exception {
        SparkSession spark = LocalSpark.start("timeline-local", Map.of("spark.sparkscope.report.enabled", "false"));
        SparkscopeListener listener = SparkscopeListener.latest();
        assertNotNull(listener);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> data = IntStream.range(0, 40).boxed().toList();
        long n = jsc.parallelize(data, 8).map(x -> {
            Thread.sleep(25); // long enough for tasks to queue behind the two cores
            return x;
        }).count();
        assertEquals(40, n);
        spark.stop();
        ListenerOutageTest.waitFor("final snapshot", java.time.Duration.ofSeconds(10),
                () -> listener.lastSnapshot() != null && listener.lastSnapshot().complete());

        AppSnapshot s = listener.lastSnapshot();
        StageSummary stage = s.stages().stream().filter(st -> st.numTasks() == 8).findFirst().orElseThrow();
        TaskTimeline t = TaskTimeline.of(s, stage);

        assertEquals(8, t.bars().size());
        assertFalse(t.sampled(), "8 tasks are far below the cap");
        assertEquals(1, t.executors().size());
        ExecutorLanes driver = t.executors().get(0);
        assertEquals("driver", driver.executorId());
        assertEquals(2, driver.slots(), "local[2]");
        assertEquals(2, t.lanes().size(), "one lane per core");

        // The artifact is flagged exactly when the recorded driver timestamps overlap more than 2 tasks at once.
        int real = maxOverlap(stage.keptTasks());
        System.out.printf("timeline of a local[2] stage: %d lanes, driver-stamped overlap %d, executor-side %d%n",
                t.lanes().size(), driver.maxConcurrent(), driver.executorSideMaxConcurrent());
        assertEquals(real, driver.maxConcurrent());
        assertEquals(real > 2, t.overflow(), "overlap " + real);
        assertEquals(real > 2, driver.crowded() > 0, "tasks drawn over a busy slot exactly when they overlap");
        assertTrue(driver.executorSideMaxConcurrent() <= driver.maxConcurrent());

        for (TimelineBar b : t.bars()) {
            assertTrue(b.metricsKnown());
            assertTrue(b.runMs() >= 20, "each task slept 5 × 25 ms in its run phase: " + b.runMs());
            long parts = 0;
            for (TaskPhase p : TaskPhase.values()) {
                parts += b.phaseMs(p);
            }
            assertTrue(parts >= b.durationMs(), "the phases cover the bar");
            assertEquals(b.finishTime(), b.phaseEnd(TaskPhase.GETTING_RESULT));
            assertTrue(b.lane() < t.lanes().size());
        }
    }

    /** Most tasks whose [launch, finish) intervals overlap, by a sweep independent of the timeline's packing. */
    static int maxOverlap(List<TaskRecord> tasks) {
        List<long[]> edges = new ArrayList<>();
        for (TaskRecord t : tasks) {
            edges.add(new long[]{t.launchTime(), 1});
            edges.add(new long[]{t.finishTime(), -1});
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int run = 0;
        int peak = 0;
        for (long[] e : edges) {
            run += (int) e[1];
            peak = Math.max(peak, run);
        }
        return peak;
    }
}
