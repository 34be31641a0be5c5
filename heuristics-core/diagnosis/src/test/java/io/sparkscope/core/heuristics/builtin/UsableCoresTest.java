package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.heuristics.builtin.PlanFixtures.changeStage;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * local[4] on a machine with two cores: the savings that add tasks (more partitions, a split straggler) count the
 * cores the tasks showed they could use at once, not the four threads.
 */
class UsableCoresTest {
    private static final long NS_PER_MS = 1_000_000;

    /**
     * local[4], a first stage of 8 tasks, 4 side by side for 8 s, each running 4 s of which {@code cpuMs} on a CPU
     * (2 s: four threads shared two cores; 4 s: every thread had a core), then {@code rest} from 9 s on.
     */
    private static SnapshotBuilder fourThreads(long cpuMs) {
        return app().local(4).durationMs(30_000)
                .stage(0).slots(4).tasks(8, i -> task().runTime(4_000)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, cpuMs * NS_PER_MS)).done();
    }

    @Test
    void tasksSideBySideThatGotHalfACpuEachShowTwoCores() {
        AppSnapshot shared = fourThreads(2_000).build();
        assertEquals(4, Facts.slots(shared, SparkSettings.of(shared)));
        assertEquals(2, Facts.usableSlots(shared, SparkSettings.of(shared)), "16 s of CPU in an 8 s span");
        AppSnapshot own = fourThreads(4_000).build();
        assertEquals(4, Facts.usableSlots(own, SparkSettings.of(own)), "every thread had a core");
        // two tasks in flight on four threads that waited for CPU (I/O, or other processes): no evidence of the cores
        AppSnapshot twoInFlight = app().local(4).durationMs(30_000)
                .stage(0).slots(2).tasks(8, i -> task().runTime(4_000)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, 1_000 * NS_PER_MS)).done().build();
        assertEquals(4, Facts.usableSlots(twoInFlight, SparkSettings.of(twoInFlight)));
        // on a cluster the executors' cores are reserved: they stand whatever the CPU times say
        AppSnapshot cluster = app().master("yarn").durationMs(30_000).executor("1", 4, 32_000)
                .stage(0).slots(4).tasks(8, i -> task().runTime(4_000)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, 2_000 * NS_PER_MS)).done().build();
        assertEquals(4, Facts.usableSlots(cluster, SparkSettings.of(cluster)));
    }

    @Test
    void oneTaskOnFourThreadsOfTwoCoresSavesWhatTwoCoresGive() {
        // 20 s in one task: spread over 4 cores it would take 5 s (15 s saved), over the 2 real ones 10 s
        Finding f = single(Severity.HIGH, run(new TooFewTasks(), fourThreads(2_000)
                .stage(1).startAt(9_000).tasks(1, i -> task().runTime(20_000)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, 19_000 * NS_PER_MS)).done().build()));
        assertEquals(10_000, f.impact().wallMs(), f.impact().basis());
        assertTrue(f.impact().basis().contains("2 cores counted, not the 4"), f.impact().basis());
        assertEquals("Stage 1 ran 1 task on 2 cores", f.title());
        Finding own = single(Severity.HIGH, run(new TooFewTasks(), fourThreads(4_000)
                .stage(1).startAt(9_000).tasks(1, i -> task().runTime(20_000)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, 19_000 * NS_PER_MS)).done().build()));
        assertEquals(15_000, own.impact().wallMs(), own.impact().basis());
    }

    @Test
    void repartitionTwoOnFourThreadsOfTwoCoresLeavesNoCoreIdle() {
        AppSnapshot app = fourThreads(2_000)
                .stage(1).startAt(9_000).tasks(2, i -> task().runTime(20_000).shuffleRead(MiB)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, 19_000 * NS_PER_MS)).done().build();
        app = changeStage(app, 0, b -> b.name("repartition at Job.java:12"));
        app = changeStage(app, 1, b -> b.name("count at Job.java:13").parentIds(List.of(0)));
        assertTrue(run(new ExplicitRepartition(), app).isEmpty(), "two tasks keep both real cores busy");
        // with a core per thread the same stage leaves two of four cores idle
        AppSnapshot own = fourThreads(4_000)
                .stage(1).startAt(9_000).tasks(2, i -> task().runTime(20_000).shuffleRead(MiB)
                        .metric(TaskMetric.EXECUTOR_CPU_TIME, 19_000 * NS_PER_MS)).done().build();
        own = changeStage(own, 0, b -> b.name("repartition at Job.java:12"));
        own = changeStage(own, 1, b -> b.name("count at Job.java:13").parentIds(List.of(0)));
        assertEquals(10_000, single(Severity.HIGH, run(new ExplicitRepartition(), own)).impact().wallMs());
    }

    @Test
    void splittingAStragglerSavesNoMoreThanTheStageSpreadOverTheRealCores() {
        // a 10 s straggler among seven 1 s tasks (17 s of task time), its shuffle read 40× theirs: 9 s over the
        // median, but spread over 2 cores the stage still takes 8.5 s: 1.5 s to gain; over 4 cores 5.75 s
        Finding shared = single(Severity.HIGH, run(new StageSkew(), skewAfter(fourThreads(2_000))));
        assertEquals(9_000L, shared.details().get("excessMs"));
        assertEquals(1_500, shared.impact().wallMs(), shared.impact().basis());
        assertTrue(shared.impact().basis().contains("2 cores counted"), shared.impact().basis());
        Finding own = single(Severity.HIGH, run(new StageSkew(), skewAfter(fourThreads(4_000))));
        assertEquals(5_750, own.impact().wallMs(), own.impact().basis());
    }

    private static AppSnapshot skewAfter(SnapshotBuilder b) {
        return b.stage(1).startAt(9_000).tasks(8, i -> task().runTime(i == 0 ? 10_000 : 1_000)
                .shuffleRead(i == 0 ? 40 * MiB : MiB)).done().build();
    }
}
