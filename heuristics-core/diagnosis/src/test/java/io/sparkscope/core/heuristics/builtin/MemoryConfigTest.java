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
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.GiB;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryConfigTest {
    private final MemoryConfig heuristic = new MemoryConfig();

    private static List<Finding> yarn(String executorMemory) {
        return run(new MemoryConfig(), app().master("yarn").conf("spark.executor.memory", executorMemory).build());
    }

    @Test
    void twentyGigExecutorsAreLowFortyAreHigh() {
        assertEquals("MemoryConfig:executorMemoryLarge", single(Severity.LOW, yarn("20g")).id());
        single(Severity.HIGH, yarn("40960")); // a bare number is MiB, as Spark reads it
    }

    @Test
    void smallExecutorsLargeOverheadAndLargeDriverAreLow() {
        Finding small = single(Severity.LOW, yarn("1g"));
        assertEquals("MemoryConfig:executorMemorySmall", small.id());
        assertEquals(0.27, small.details().get("overheadShare"));
        assertEquals("MemoryConfig:overheadLarge", single(Severity.LOW, run(heuristic, app().master("yarn")
                .conf("spark.executor.memory", "8g").conf("spark.executor.memoryOverhead", "4g").build())).id());
        assertEquals("MemoryConfig:driverMemoryLarge", single(Severity.LOW, run(heuristic, app().master("yarn")
                .conf("spark.executor.memory", "8g").conf("spark.driver.memory", "20gb").build())).id());
    }

    @Test
    void memoryPerCoreComparedWithTheClusterWhenConfigured() {
        Finding f = single(Severity.LOW, run(heuristic, app().master("yarn").conf("spark.executor.memory", "8g")
                .conf("spark.executor.cores", "1").build(), Map.of("MemoryConfig.clusterMemoryPerCoreBytes", "2g")));
        assertEquals("MemoryConfig:memoryPerCore", f.id());
    }

    @Test
    void sensibleMemoryIsSilentAndLocalModeIgnoresExecutorSizes() {
        silent(yarn("8g"));
        silent(run(heuristic, app().master("local[8]").conf("spark.driver.memory", "4g").build()));
        Finding f = single(Severity.LOW, run(heuristic, app().master("local[*]").conf("spark.executor.memory", "64g").build()));
        assertEquals("MemoryConfig:ignoredInLocalMode", f.id());
    }
}
