package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one reading of error texts as "out of memory", shared by MemorySizing and StageFailure/TaskFailure. */
class MemoryFailuresTest {
    @Test
    void errorTextsSayWhatRanShort() {
        assertEquals(MemoryFailures.Shortage.HEAP, MemoryFailures.classify("GC overhead limit exceeded", false));
        assertEquals(MemoryFailures.Shortage.OVERHEAD, MemoryFailures.classify(
                "ExecutorLostFailure (executor 3 exited caused by one of the running tasks) Reason: Container from a"
                        + " bad node: container_1 on host: h. Exit status: 137.", false));
        assertEquals(MemoryFailures.Shortage.OVERHEAD, MemoryFailures.classify("Pod OOMKilled", false));
        assertEquals(null, MemoryFailures.classify("java.lang.OutOfMemoryError: Metaspace", false));
        assertEquals(null, MemoryFailures.classify("java.io.FileNotFoundException: /x", false));
    }

    /** Words only StageFailure's own list knew: a pod's "exit code: 137" and the RAPIDS plugin's GPU OOM. */
    @Test
    void containerExitCodesAndGpuOutOfMemoryAreRecognised() {
        assertEquals(MemoryFailures.Shortage.OVERHEAD, MemoryFailures.classify(
                "The executor with id 2 exited with exit code: 137.", false));
        assertEquals(MemoryFailures.Shortage.OVERHEAD, MemoryFailures.classify(
                "Container killed on request. Exit code is 137", false));
        assertEquals(MemoryFailures.Shortage.GPU, MemoryFailures.classify("com.nvidia.spark.rapids.jni"
                + ".GpuSplitAndRetryOOM: GPU OutOfMemory: could not split inputs and retry.", false));
    }

    /**
     * StageFailure used to call any text with "OutOfMemory" in it a memory shortage and advise more memory per task
     * and smaller partitions; a metaspace (loaded classes) or native-thread error is neither, as MemorySizing knew.
     */
    @Test
    void stageFailureAdvisesMemoryOnlyForRealShortages() {
        Finding metaspace = single(Severity.HIGH, run(new StageFailure(), app()
                .stage(1).failed("Job aborted: java.lang.OutOfMemoryError: Metaspace").tasks(4, i -> task()).done()
                .build()));
        assertFalse(metaspace.recommendation().contains("ran out of memory"), metaspace.recommendation());
        Finding killed = single(Severity.HIGH, run(new StageFailure(), app()
                .stage(1).failed("Job aborted: Container from a bad node: container_1 on host: h. Exit status: 137.")
                .tasks(4, i -> task()).done().build()));
        assertTrue(killed.recommendation().startsWith("Tasks ran out of memory."), killed.recommendation());
    }
}
