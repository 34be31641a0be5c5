package io.sparkscope.store.query;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Tasks started and never ended are listed as Spark lists them, RUNNING, from the recorder through the database to
 * the task list, and read back apart from the stage's ended tasks; once they end, their running rows go.
 */
class RunningTasksListedTest {
    static DataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    private static TaskInfo task(long id, int index, long launch, long finish) {
        return new TaskInfo(id, index, 0, index, launch, "1", "h1", "PROCESS_LOCAL", false, 0, finish, false, false);
    }

    private static TaskMetrics metrics(long runTime) {
        return TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, runTime).build();
    }

    private static List<TaskRecord> list(String app, Set<String> statuses) throws Exception {
        TaskListQuery.Result r = new TaskListQuery(ds).load(app, null,
                new TaskListQuery.Request(0, 0, 0, 100, TaskListQuery.Sort.ID, false, statuses, null));
        assertEquals(TaskListQuery.Outcome.FOUND, r.outcome());
        return r.page().tasks();
    }

    @Test
    void tasksStillRunningAreListedRunningUntilTheyEnd() throws Exception {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart("app", "app-running", null, 900, "alice"));
        r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(0, 0, "s", 3, List.of(), "d", 1000, -1, null,
                List.of())));
        for (int i = 0; i < 3; i++) {
            r.onEvent(new SparkEvent.TaskStart(0, 0, task(10 + i, i, 1000 + i, 0)));
        }
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS, task(10, 0, 1000, 1100),
                metrics(90)));
        AppSnapshot snap = r.snapshot();
        StageSummary stage = snap.stages().get(0);
        assertEquals(List.of(10L), stage.keptTasks().stream().map(TaskRecord::taskId).toList());
        assertEquals(List.of(11L, 12L), stage.runningTasks().stream().map(TaskRecord::taskId).toList());
        // a live recorder's periodic snapshot leaves a running stage's task rows out, running ones too
        assertEquals(List.of(), r.snapshot(false).stages().get(0).runningTasks());

        new SnapshotWriter().write(ds, snap, List.of());
        List<TaskRecord> listed = list("app-running", Set.of());
        assertEquals(List.of(10L, 11L, 12L), listed.stream().map(TaskRecord::taskId).toList());
        assertEquals(List.of("SUCCESS", "RUNNING", "RUNNING"), listed.stream().map(TaskRecord::status).toList());
        assertNull(listed.get(1).metrics());
        assertEquals(List.of(11L, 12L), list("app-running", Set.of("RUNNING")).stream().map(TaskRecord::taskId)
                .toList());
        StageSummary read = SnapshotReader.read(ds, "app-running", null).orElseThrow().stages().get(0);
        assertEquals(List.of(10L), read.keptTasks().stream().map(TaskRecord::taskId).toList());
        assertEquals(List.of(11L, 12L), read.runningTasks().stream().map(TaskRecord::taskId).toList());

        // task 11 ends: its row is the ended task now, and task 12 is still listed running
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS, task(11, 1, 1001, 1200),
                metrics(150)));
        new SnapshotWriter().write(ds, r.snapshot(), List.of());
        listed = list("app-running", Set.of());
        assertEquals(List.of("SUCCESS", "SUCCESS", "RUNNING"), listed.stream().map(TaskRecord::status).toList());
    }

    @Test
    void runningTasksAreKeptUpToThePerStageCap() {
        Recorder r = new Recorder(io.sparkscope.core.recorder.RecorderOptions.DEFAULTS.withTasksPerStage(2));
        r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(0, 0, "s", 5, List.of(), "d", 1000, -1, null,
                List.of())));
        for (int i = 0; i < 5; i++) {
            r.onEvent(new SparkEvent.TaskStart(0, 0, task(10 + i, i, 1000 + i, 0)));
        }
        StageSummary stage = r.snapshot().stages().get(0);
        assertEquals(5, stage.numActiveTasks());
        assertEquals(2, stage.runningTasks().size());
    }
}
