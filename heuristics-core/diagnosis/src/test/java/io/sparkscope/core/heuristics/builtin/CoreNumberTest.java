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

class CoreNumberTest {
    private final CoreNumber heuristic = new CoreNumber();

    private static List<Finding> cores(int n) {
        return run(new CoreNumber(), app().master("yarn").executor("1", n, 0).executor("2", n, 0).build());
    }

    @Test
    void sixCoresAreLowEightAreHigh() {
        single(Severity.LOW, cores(6));
        single(Severity.HIGH, cores(8));
    }

    @Test
    void singleCoreIsLow() {
        Finding f = single(Severity.LOW, cores(1));
        assertEquals("CoreNumber:singleCore", f.id());
        assertTrue(f.message().contains("YARN default"), f.message());
    }

    @Test
    void fourCoresOrLocalModeAreSilent() {
        silent(cores(4));
        silent(run(heuristic, app().master("local[16]").build()));
        silent(run(heuristic, app().master("yarn").conf("spark.executor.cores", "4").build()));
    }
}
