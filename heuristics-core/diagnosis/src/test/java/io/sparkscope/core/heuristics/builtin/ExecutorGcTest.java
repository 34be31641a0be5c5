package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExecutorGcTest {
    private final ExecutorGc heuristic = new ExecutorGc();

    private static List<Finding> gc(int tasks, long gcPerTask, String master, String memory) {
        return run(new ExecutorGc(), app().master(master).conf("spark.executor.memory", memory)
                .stage(0).tasks(tasks, i -> task().runTime(1_000).gc(gcPerTask)).done().build());
    }

    @Test
    void fifteenPercentIsLow() {
        Finding f = single(Severity.LOW, gc(100, 150, "yarn", "4g"));
        assertEquals(0.15, f.details().get("gcRatio"));
        assertTrue(f.recommendation().contains("spark.executor.memory=6g (now 4g)"), f.recommendation());
        assertEquals("6g", f.adviceFor("spark.executor.memory").recommendedValue());
        assertEquals("4g", f.adviceFor("spark.executor.memory").currentValue());
    }

    @Test
    void thirtyPercentIsHigh() {
        single(Severity.HIGH, gc(100, 300, "yarn", "4g"));
    }

    @Test
    void hardlyAnyGcOnHugeHeapsIsLow() {
        Finding f = single(Severity.LOW, gc(100, 0, "yarn", "20g"));
        assertEquals("ExecutorGc:underused", f.id());
    }

    @Test
    void shortApplicationsAndModerateGcAreSilent() {
        silent(gc(30, 150, "yarn", "4g")); // 30 s of task time at 15 %: a short run is judged only at extremes
        silent(gc(5, 500, "yarn", "4g")); // 5 s of task time: below the floor
        silent(gc(100, 50, "yarn", "4g"));
        silent(gc(100, 0, "local[4]", "20g")); // executor memory does not apply locally
    }

    /**
     * local[4], heap peaks not measured: an RDD stage (mapPartitions building a HashMap of lists per task) whose tasks
     * used none of Spark's execution memory spends 75 % of its time in GC. The heap holds the code's own objects: the
     * advice is at the code, naming the stage, and no larger heap is asked for.
     */
    @Test
    void gcOfAnRddStageThatUsedNoSparkMemoryIsTheCodesObjectsNotAShortHeap() {
        Finding f = single(Severity.LOW, run(heuristic, app().local(4).job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(16, i -> task().runTime(3_000).gc(2_250)).done().build()));
        assertEquals("codeObjects", f.details().get("cause"));
        assertEquals("0.0", f.details().get("gcStage"));
        assertTrue(f.advice().isEmpty(), f.advice().toString());
        assertFalse(f.recommendation().contains("spark.driver.memory"), f.recommendation());
        assertTrue(f.recommendation().contains("stage 0") && f.recommendation().contains("reduceByKey"),
                f.recommendation());
        // Spark's own aggregation buffers (execution memory in use) on the same heap: a larger heap may help them
        Finding spark = single(Severity.LOW, run(heuristic, app().local(4).job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(16, i -> task().runTime(3_000).gc(2_250)
                        .metric(TaskMetric.PEAK_EXECUTION_MEMORY, 64 * MiB)).done().build()));
        assertEquals("heap", spark.details().get("cause"));
        assertTrue(spark.adviceFor("spark.driver.memory") != null, spark.advice().toString());
    }

    @Test
    void inLocalModeTheHeapAdvisedFromIsTheOneTheDriverMeasured() {
        // a local-mode JVM given a 4 GiB heap, not the default 1g spark.driver.memory would suggest
        var app = TaskHeapTest.withHeap(app().local(4)
                .stage(0).tasks(100, i -> task().runTime(1_000).gc(150)).done(), 4 * GiB, 0.6);
        Finding f = single(Severity.LOW, run(heuristic, app));
        assertEquals("6g", f.adviceFor("spark.driver.memory").recommendedValue());
        assertTrue(f.recommendation().contains("spark.driver.memory=6g (now 4g, measured)"), f.recommendation());
    }
}
