package io.sparkscope.core.golden;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.report.TextReport;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real log of a cluster that lost two executors while the last stage ran: 50 finished shuffle-map tasks end a
 * second time, as Resubmitted. One kept record per task id (the store's key), and Spark's stage numbers, which
 * follow AppStatusListener's rules: every end event counts, the repeat's metrics do not.
 */
class ResubmittedTasksSharedLogTest {
    private static final String LOG = "other/spark-rapids-tools/tasks_executors_fail_compressed_eventlog.zstd";

    private static AppSnapshot read;

    private static AppSnapshot snapshot() throws Exception {
        if (read != null) {
            return read;
        }
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(logs != null, "SKIPPED: ../shared/eventlogs not found (set SPARKSCOPE_SHARED); "
                + "the real log with resubmitted tasks not checked");
        var source = EventLogReader.discover(logs.resolve(LOG)).get(0);
        read = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { }).snapshot();
        return read;
    }

    @Test
    void everyStageKeepsOneRecordPerTaskIdAndSparksCounts() throws Exception {
        AppSnapshot s = snapshot();
        for (StageSummary st : s.stages()) {
            Set<Long> ids = new HashSet<>();
            for (TaskRecord t : st.keptTasks()) {
                assertTrue(ids.add(t.taskId()), "task " + t.taskId() + " kept twice in stage " + st.key());
            }
            assertTrue(st.numCompletedIndices() <= st.numTasks(), st.key());
            assertTrue(st.endedTasks() <= st.taskEndEvents(), st.key());
        }
        StageSummary last = s.stages().stream().filter(st -> st.stageId() == 238).findFirst().orElseThrow();
        assertEquals(StageStatus.FAILED, last.status());
        assertEquals(200, last.numTasks());
        // what Spark's History Server shows for stage 238.0
        assertEquals(227, last.numCompleteTasks());
        assertEquals(53, last.numFailedTasks());
        assertEquals(0, last.numKilledTasks());
        assertEquals(200, last.numCompletedIndices());
        assertEquals(421, last.totals().get(TaskMetric.EXECUTOR_RUN_TIME), "Σ over first ends only");
        // and what those numbers hold
        assertEquals(50, last.numResubmittedTasks());
        assertEquals(3, last.numFailedAttempts());
        assertEquals(280, last.taskEndEvents());
        assertEquals(230, last.endedTasks());
        assertEquals(230, last.keptTasks().size());
        assertEquals(0, last.numDuplicateTaskEnds());
        assertEquals(0, last.numActiveTasks(), "Spark's own count goes to -50 here");
        assertEquals(8580, s.totalTasks(), "one per TaskStart of the log");
    }

    @Test
    void theReportNeverSaysMoreSucceededThanThereAre() throws Exception {
        AppSnapshot s = snapshot();
        List<Finding> findings = Diagnoser.defaults().diagnose(s);
        String report = TextReport.render(s, findings, 5, null);
        assertFalse(report.contains("227 of 200"), report);
        assertTrue(report.contains("200 of 200 partitions completed"), report);
        assertTrue(report.contains("50 finished ones resubmitted after their output was lost with an executor"),
                report);
        // 3 of 230 attempts really failed (1.3 %): the 50 Resubmitted ends are no task failures to alarm about
        assertFalse(findings.stream().anyMatch(f -> f.heuristic().equals("TaskFailure")), report);
    }
}
