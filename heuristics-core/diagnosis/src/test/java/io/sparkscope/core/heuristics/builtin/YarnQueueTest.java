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

/** YarnQueue has no HIGH level. */
class YarnQueueTest {
    private final YarnQueue heuristic = new YarnQueue();

    @Test
    void defaultQueueIsLow() {
        single(Severity.LOW, run(heuristic, app().master("yarn").build()));
        single(Severity.LOW, run(heuristic, app().master("yarn").conf("spark.yarn.queue", "default").build()));
    }

    @Test
    void ownQueueOrOtherMasterIsSilent() {
        silent(run(heuristic, app().master("yarn").conf("spark.yarn.queue", "etl").build()));
        silent(run(heuristic, app().master("k8s://https://api:6443").build()));
    }
}
