package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.StreamingRun;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.recorder.StreamingRun.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamingShufflePartitionsTest {
    private final StreamingShufflePartitions heuristic = new StreamingShufflePartitions();

    private static AppSnapshot app(int partitions, long rows, String configured) {
        StreamingRun r = StreamingRun.app().conf("spark.master", "local[4]");
        if (configured != null) {
            r.conf("spark.sql.shuffle.partitions", configured);
        }
        return r.query("q1", "counts").batches(12, i -> batch().rows(rows).shufflePartitions(partitions)
                .state(100, 1000, 0, 0)).done().build();
    }

    @Test
    void smallBatchesOnTheDefaultPartitionsAreHighWithTheCheckpointCaveat() {
        Finding f = single(Severity.HIGH, run(heuristic, app(200, 1250, null)));
        assertTrue(f.message().contains("200 shuffle partitions for a mean of 1,250 input rows per batch (6 rows a"
                + " partition) on 4 task slots"), f.message());
        assertEquals("4", f.adviceFor("spark.sql.shuffle.partitions").recommendedValue());
        assertTrue(f.recommendation().contains("spark.sql.shuffle.partitions=4 (now 200, the default)"),
                f.recommendation());
        assertTrue(f.recommendation().contains("keeps the partition count of its checkpoint's first run"),
                f.recommendation());
        assertTrue(f.recommendation().contains("new checkpoint location"), f.recommendation());
    }

    @Test
    void aValueAlreadySetButHeldByTheCheckpointIsExplainedNotAdvised() {
        Finding f = single(Severity.HIGH, run(heuristic, app(200, 1250, "4")));
        assertNull(f.adviceFor("spark.sql.shuffle.partitions"));
        assertTrue(f.recommendation().contains("though spark.sql.shuffle.partitions is already 4, still runs 200"),
                f.recommendation());
    }

    @Test
    void moderateExcessIsLowAndBatchesThatNeedThePartitionsAreSilent() {
        single(Severity.LOW, run(heuristic, app(32, 1000, null)));
        silent(run(heuristic, app(200, 20_000_000, null)));
        // a stateless query does not report partitions
        silent(run(heuristic, StreamingRun.app().query("q1", "stateless").batches(12, i -> batch().rows(10)).done()
                .build()));
    }

    @Test
    void aQueryRestartedFromItsCheckpointIsJudgedOnceOnItsLatestRun() {
        AppSnapshot s = StreamingRun.app()
                .query("q1", "counts").runId("run-1").batches(12, i -> batch().rows(50).shufflePartitions(200)
                        .state(100, 1000, 0, 0)).done()
                .query("q1", "counts").runId("run-2").batches(12, i -> batch().rows(50).shufflePartitions(200)
                        .state(100, 1000, 0, 0)).done()
                .build();
        Finding f = single(Severity.HIGH, run(heuristic, s));
        assertEquals("run-2", f.details().get("runId"), "the latest run");
        assertTrue(f.message().contains("(less than one row a partition)"), f.message());
    }
}
