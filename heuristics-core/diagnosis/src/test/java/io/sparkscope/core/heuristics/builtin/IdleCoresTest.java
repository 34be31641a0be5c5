package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.idleExecutorApp;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdleCoresTest {
    private final IdleCores heuristic = new IdleCores();

    private static List<Finding> yarn(long taskSeconds) {
        // one 4-core executor for 100 s = 400 core-seconds
        return run(new IdleCores(), idleExecutorApp(100_000, 4, taskSeconds * 1000).build());
    }

    @Test
    void sixtyPercentIdleIsLow() {
        Finding f = single(Severity.LOW, yarn(160));
        assertEquals(0.6, f.details().get("idleRatio"));
        assertEquals(0.07, f.details().get("idleCoreHours"));
    }

    @Test
    void theSavingIsTheIdleCoreTimeFreedNotWallTimeAndNoneOnTheUsersOwnMachine() {
        // 400 core-seconds held, 160 s of tasks: dynamic allocation (off here) would free the 240 idle core-seconds.
        Finding f = single(Severity.LOW, yarn(160));
        assertEquals(240_000, f.impact().coreMs());
        assertEquals(0, f.impact().wallMs());
        assertEquals(0, f.impact().taskMs());
        assertTrue(f.impact().freesCoresOnly());
        assertTrue(f.impact().basis().contains("wall time unchanged"), f.impact().basis());
        // local[4]: the idle cores are the user's own machine, nobody else is waiting for them
        Finding local = single(Severity.LOW, run(heuristic,
                app().master("local[4]").durationMs(100_000).executor("driver", 0, 40_000).build()));
        assertEquals(0, local.impact().coreMs());
    }

    @Test
    void ninetyPercentIdleIsHigh() {
        single(Severity.HIGH, yarn(40));
    }

    @Test
    void busyCoresAreSilentAndLocalModeIsAtMostLow() {
        silent(yarn(300));
        // local[4]: the driver runs the tasks and reports 0 cores; the master tells 4. Own machine: capped at LOW.
        single(Severity.LOW, run(heuristic, app().master("local[4]").durationMs(100_000).executor("driver", 0, 40_000).build()));
        // a short run is judged only at extremes, and at most LOW
        silent(run(heuristic, idleExecutorApp(30_000, 4, 50_000).build()));
        single(Severity.LOW, run(heuristic, idleExecutorApp(30_000, 4, 1_000).build()));
        silent(run(heuristic, idleExecutorApp(8_000, 4, 1_000).build())); // floor
    }

    @Test
    void coresIdleWhileTheDriverWorksAreAKnockOnOfDriverTimeButNotWhileASessionWaits() {
        long[][] jobs = {{2, 12}, {40, 50}, {80, 90}};
        Finding batch = single(Severity.HIGH, run(heuristic, DriverTimeTest.jobsAt("yarn", jobs)));
        assertEquals(DriverTime.ID, batch.causedBy());
        // the same times in a shell: a person thinking, not the driver working; the fix is to give executors back
        Finding shell = single(Severity.HIGH, run(heuristic, DriverTimeTest.jobsAt("yarn", jobs,
                "spark.repl.class.uri", "spark://10.0.0.1:40000/classes")));
        assertNull(shell.causedBy(), "its own cause: DriverTime does not count waiting");
        // a program that only counted (2 KiB of results) and held its executors idle between jobs: its own cause,
        // with a saving of core time of its own, so it leads "Fix this first" where DriverTime has no saving
        Finding idle = single(Severity.HIGH, run(heuristic, DriverTimeTest.jobsAt("yarn", 2 * 1024, jobs)));
        assertNull(idle.causedBy(), "the driver had nothing to work on: not a knock-on of driver work");
        assertTrue(idle.impact().freesCoresOnly(), idle.impact().toString());
        assertTrue(idle.recommendation().contains("between jobs"), idle.recommendation());
        assertEquals(70_000L, shell.details().get("waitingMs"));
        assertTrue(shell.recommendation().contains("between commands"), shell.recommendation());
        assertFalse(shell.recommendation().contains("See DriverTime"), shell.recommendation());
        assertEquals("true", shell.adviceFor("spark.dynamicAllocation.enabled").recommendedValue());
    }

    @Test
    void aStreamingQueryWaitingBetweenTriggersIsNotCountedAsIdleCores() {
        Finding streaming = single(Severity.HIGH, run(heuristic, DriverTimeTest.streamingApp()));
        // 400 core-seconds held, 88 s × 4 cores of it between triggers: 48 left, 10 of them used
        assertEquals(0.01, streaming.details().get("idleCoreHours"), streaming.details().toString());
        assertEquals(0.79, streaming.details().get("idleRatio"));
        assertNull(streaming.causedBy());
    }

    @Test
    void onDatabricksTheAdviceIsTheClusterNotExecutorSettingsThePlatformSets() {
        // a job cluster of r5.8xlarge workers, 90 % of its cores idle
        Finding f = single(Severity.HIGH, run(heuristic, idleExecutorApp(100_000, 32, 320_000)
                .master("spark://10.0.0.1:7077").conf("spark.databricks.workerNodeTypeId", "r5.8xlarge").build()));
        assertTrue(f.advice().isEmpty(), f.advice().toString());
        assertTrue(f.recommendation().contains("a node type with fewer cores than r5.8xlarge"), f.recommendation());
        assertTrue(f.recommendation().contains("autoscaling"), f.recommendation());
        assertFalse(f.recommendation().contains("dynamic allocation"), f.recommendation());
    }
}
