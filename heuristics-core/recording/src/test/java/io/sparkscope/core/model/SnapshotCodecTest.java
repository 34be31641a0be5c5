package io.sparkscope.core.model;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.recorder.Recorder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SnapshotCodecTest {
    @Test
    void roundTripIsLossless() throws Exception {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.LogStart("4.0.4"));
        r.onEvent(new SparkEvent.ApplicationStart("näme \"quoted\" <b>", "app-1", "1", 1000, "bob"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]", "spark.x", "'; DROP TABLE x"),
                Map.of("Java Version", "17"), Map.of("user.dir", "/tmp"), Map.of()));
        r.onEvent(new SparkEvent.JobStart(0, 1000, List.of(0), List.of(), Map.of("spark.sql.execution.id", "0")));
        r.onEvent(new SparkEvent.SqlExecutionStart(0, "q", "plan", new SparkEvent.PlanNode("SortMergeJoin", "smj",
                List.of(), List.of(new SparkEvent.PlanMetric("rows", 5, "sum"))), 1000));
        r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(0, 0, "s", 2, List.of(), "d", 1000, -1, null, List.of())));
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS,
                new TaskInfo(1, 0, 0, 0, 1000, "driver", "h", "ANY", false, 0, 1100, false, false),
                TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 90).set(TaskMetric.SHUFFLE_WRITE_TIME, 7).build()));
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", new TaskEndReason("ExceptionFailure", "boom", "at x"),
                new TaskInfo(2, 1, 0, 1, 1000, "driver", "h", "ANY", false, 0, 1100, true, false), null));
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(0, 0, "s", 2, List.of(), "d", 1000, 1200, "failed",
                List.of(new StageInfo.Accumulable(5, "rows", "42")))));
        r.onEvent(new SparkEvent.JobEnd(0, 1300, false, "boom"));
        r.onEvent(new SparkEvent.ApplicationEnd(1400));
        AppSnapshot original = r.snapshot();
        AppSnapshot copy = SnapshotCodec.fromJson(SnapshotCodec.toJson(original));
        assertEquals(original, copy);
        assertEquals(42L, copy.sqlExecutions().get(0).metricValues().get(5L));
    }

    @Test
    void streamingQueriesRoundTripAndOldSnapshotsReadWithout() throws Exception {
        AppSnapshot original = io.sparkscope.core.recorder.StreamingRun.app()
                .query("q1", "clicks").triggerMs(500).batches(5, i -> io.sparkscope.core.recorder.StreamingRun.batch()
                        .rows(10 + i).watermark(i * 1000L).state(5 + i, 1000, 0, i)).done()
                .query("q2", null).fails("java.lang.RuntimeException: boom").batches(2, i -> io.sparkscope.core.recorder
                        .StreamingRun.batch().inputRate(Double.NaN)).done()
                .build();
        String json = SnapshotCodec.toJson(original);
        AppSnapshot copy = SnapshotCodec.fromJson(json);
        assertEquals(original, copy);
        assertEquals(2, copy.streamingQueries().size());
        assertEquals(-1, copy.streamingQueries().get(1).recentBatches().get(1).inputRowsPerSecond(), "NaN is unknown");
        // a spool file from before streaming queries were recorded has no such field
        com.fasterxml.jackson.databind.node.ObjectNode tree =
                (com.fasterxml.jackson.databind.node.ObjectNode) SnapshotCodec.mapper().readTree(json);
        tree.remove("streamingQueries");
        AppSnapshot old = SnapshotCodec.fromJson(tree.toString());
        assertEquals(List.of(), old.streamingQueries());
        assertEquals(original.stages(), old.stages());
    }
}
