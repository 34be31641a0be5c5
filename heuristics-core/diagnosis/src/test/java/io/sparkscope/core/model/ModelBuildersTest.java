package io.sparkscope.core.model;

import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelBuildersTest {

    @Test
    void toBuilderBuildsAnEqualRecordOfEveryKind() {
        for (boolean complete : new boolean[] {true, false}) {
            AppSnapshot s = SnapshotBuilder.rich("app-builders", "1", complete);
            assertEquals(s, s.toBuilder().build());
            for (StageSummary st : s.stages()) {
                assertEquals(st, st.toBuilder().build(), st.key());
                st.keptTasks().forEach(t -> assertEquals(t, t.toBuilder().build()));
            }
            s.executors().forEach(e -> assertEquals(e, e.toBuilder().build()));
            s.jobs().forEach(j -> assertEquals(j, j.toBuilder().build()));
            s.sqlExecutions().forEach(q -> assertEquals(q, q.toBuilder().build()));
            assertEquals(s.totals(), s.totals().toBuilder().build());
        }
    }

    @Test
    void aStageBuiltWithoutCountsDerivesThemFromTheKeptTasks() {
        TaskRecord speculative = TaskRecord.builder().taskId(1).speculative(true).launchTime(100).finishTime(200)
                .status("SUCCESS").endReason("Success").build();
        TaskRecord impossible = TaskRecord.builder().taskId(2).index(1).launchTime(300).finishTime(200)
                .status("SUCCESS").endReason("Success").build();
        StageSummary st = StageSummary.builder().stageId(4).status(StageSummary.StageStatus.COMPLETE).numTasks(3)
                .numCompleteTasks(3).keptTasks(List.of(speculative, impossible)).build();
        assertEquals(3, st.endedTasks(), "distinct ended tasks: Spark's end events without Resubmitted ones");
        assertEquals(1, st.numSpeculativeTasks());
        assertEquals(1, st.numTasksWithUnknownTimes());
        assertEquals(StageSummary.TaskDetail.SLOWEST, st.taskDetail(), "fewer kept than ended");
        assertEquals(-1, st.submissionTime());
        assertEquals(StageTotals.zero(), st.totals());
        assertTrue(st.runningTasks().isEmpty() && st.parentIds().isEmpty() && st.endReasons().isEmpty());

        StageSummary counted = st.toBuilder().numDistinctEndedTasks(2).numSpeculativeTasks(0)
                .numTasksWithUnknownTimes(0).taskDetail(StageSummary.TaskDetail.ALL).build();
        assertEquals(0, counted.numSpeculativeTasks());
        assertEquals(st, counted.toBuilder().taskDetail(null).deriveTaskCounts().build(),
                "counts given back to the derivation");
        assertNotEquals(st, counted);
    }

    @Test
    void unsetValuesReadAsUnknown() {
        ExecutorSummary e = ExecutorSummary.builder().executorId("1").host("h").build();
        assertEquals(-1, e.removeTime());
        assertEquals(-1, e.maxMemory());
        assertEquals(-1, e.totalTasks());
        assertEquals(-1, e.maxOnHeapMemory());
        assertTrue(e.added());
        assertNull(e.hostPort());
        assertEquals(Map.of(), e.peakMetrics());

        JobSummary j = JobSummary.builder().jobId(3).build();
        assertEquals(JobSummary.NOT_RECORDED, j.numActiveTasks());
        assertEquals(JobSummary.NOT_RECORDED, j.numFailedStages());
        assertEquals(-1, j.sqlExecutionId());

        AppSnapshot a = AppSnapshot.builder().appId("app-1")
                .stages(List.of(StageSummary.builder().status(StageSummary.StageStatus.COMPLETE).build())).build();
        assertEquals(AppConfig.EMPTY, a.config());
        assertEquals(-1, a.endTime());
        assertEquals(1, a.totals().stages(), "totals computed from the lists");
        assertEquals(List.of(), a.streamingQueries());
    }
}
