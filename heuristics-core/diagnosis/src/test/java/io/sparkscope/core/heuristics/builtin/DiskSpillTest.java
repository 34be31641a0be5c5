package io.sparkscope.core.heuristics.builtin;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiskSpillTest {
    private final DiskSpill heuristic = new DiskSpill();

    private static List<Finding> spilling(long spillPerTask) {
        return run(new DiskSpill(), app().sqlJob(0, 0).stage(5)
                .tasks(10, i -> task().shuffleRead(100 * MiB).spill(i == 3 ? 2 * spillPerTask : spillPerTask,
                        spillPerTask / 4).executor(i == 3 ? "7" : "1"))
                .done().build());
    }

    @Test
    void spillingAFifthIsLow() {
        Finding f = single(Severity.LOW, spilling(20 * MiB));
        assertEquals("DiskSpill:5.0", f.id());
        assertEquals(220 * MiB, f.details().get("memoryBytesSpilled"));
        assertEquals(3L, f.details().get("largestSpillTaskId"));
        assertEquals(List.of("7"), f.executorIds());
        assertTrue(f.recommendation().contains("spark.sql.shuffle.partitions=400 (now 200, the default)"),
                f.recommendation());
    }

    @Test
    void spillingMostIsHigh() {
        single(Severity.HIGH, spilling(80 * MiB));
    }

    @Test
    void littleOrNoSpillIsSilent() {
        silent(spilling(4 * MiB));
        silent(spilling(0));
    }
}
