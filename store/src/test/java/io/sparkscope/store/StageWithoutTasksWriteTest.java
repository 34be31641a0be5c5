package io.sparkscope.store;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stage attempt a live listener wrote while it ran (its statistics, no task rows) gets all its task rows in the
 * write after it completes: they go straight into the table, since none of them can be stored, and the database then
 * holds exactly what one whole write of the same events holds.
 */
class StageWithoutTasksWriteTest {
    private static final long T0 = 1_764_800_000_000L;
    private static final int TASKS = 600; // past the COPY threshold

    @Test
    void taskRowsOfAStageStoredWithoutTasksAreFreshTheirStatisticsAreNot() {
        long withoutTasks = SnapshotRows.stageKey(1, 0);
        long withTasks = SnapshotRows.stageKey(2, 0);
        Map<Table<?>, List<Object[]>> rows = new LinkedHashMap<>();
        rows.put(Tables.STAGE_STATISTICS, new ArrayList<>(List.of(new Object[] {1, 0, "m"}, new Object[] {2, 0, "m"})));
        rows.put(Tables.TASK, new ArrayList<>(List.of(new Object[] {1, 0, 10L}, new Object[] {2, 0, 20L},
                new Object[] {3, 0, 30L})));
        Map<Long, Long> stored = new HashMap<>();
        stored.put(withoutTasks, UnchangedRows.NO_TASKS_DIGEST);
        stored.put(withTasks, 12345L);

        Map<Table<?>, List<Object[]>> fresh = UnchangedRows.rowsOfNewStages(rows, stored);

        // stage 1: stored without tasks, so its task row cannot match a stored one; stage 3: not stored at all
        assertEquals(List.of(10L, 30L), fresh.get(Tables.TASK).stream().map(r -> r[2]).toList());
        assertEquals(List.of(20L), rows.get(Tables.TASK).stream().map(r -> r[2]).toList());
        // both stages' statistics rows are stored (written at every flush while the stage ran): compared, not fresh
        assertNull(fresh.get(Tables.STAGE_STATISTICS));
        assertEquals(2, rows.get(Tables.STAGE_STATISTICS).size());
        assertEquals(java.util.Set.of(withoutTasks), UnchangedRows.stagesWithoutStoredTasks(stored));
    }

    @Test
    void aStageWrittenWhileRunningThenCompletedStoresTheSameRowsAsOneWholeWrite() throws Exception {
        DataSource ds = TestDb.migrated();
        IngestService ingest = IngestService.builder(ds).build();
        Recorder live = new Recorder(RecorderOptions.DEFAULTS);
        start(live, "app-stage-no-tasks");
        submit(live);
        for (int k = 0; k < TASKS - 2; k++) {
            taskEnd(live, k);
        }
        write(ingest, live);
        String digest = "select s.tasks_digest from stage_attempt s join application a using (app_pk)"
                + " where a.app_id = 'app-stage-no-tasks'";
        assertEquals(UnchangedRows.NO_TASKS_DIGEST, TestDb.count(ds, digest), "running stage stored without tasks");
        assertEquals(0, TestDb.count(ds, "select count(*) from task join application a using (app_pk)"
                + " where a.app_id = 'app-stage-no-tasks'"));
        for (int k = TASKS - 2; k < TASKS; k++) {
            taskEnd(live, k);
        }
        complete(live);
        write(ingest, live);

        Recorder whole = new Recorder(RecorderOptions.DEFAULTS);
        start(whole, "app-stage-no-tasks-whole");
        submit(whole);
        for (int k = 0; k < TASKS; k++) {
            taskEnd(whole, k);
        }
        complete(whole);
        assertEquals(IngestResult.Outcome.WRITTEN, ingest.ingest(whole.snapshot(), List.of()).outcome());

        assertEquals(TASKS, TestDb.count(ds, "select count(*) from task join application a using (app_pk)"
                + " where a.app_id = 'app-stage-no-tasks'"));
        for (String table : List.of("stage_statistics", "task", "stage_attempt")) {
            String cols = switch (table) {
                case "task" -> "x.stage_id, x.stage_attempt_id, x.task_id, x.ord, x.duration_ms, x.metrics::text,"
                        + " x.executor_run_time_ms";
                case "stage_statistics" -> "x.stage_id, x.stage_attempt_id, x.metric, x.vals";
                default -> "x.stage_id, x.attempt_id, x.status, x.num_complete_tasks, x.kept_tasks, x.tasks_digest";
            };
            String q = "select " + cols + " from " + table + " x join application a using (app_pk) where a.app_id = ";
            long differ = TestDb.count(ds, "select count(*) from ((" + q + "'app-stage-no-tasks' except " + q
                    + "'app-stage-no-tasks-whole') union all (" + q + "'app-stage-no-tasks-whole' except " + q
                    + "'app-stage-no-tasks')) d");
            assertEquals(0, differ, table + " rows differ between the live writes and the whole write");
        }
        assertTrue(TestDb.count(ds, digest) != UnchangedRows.NO_TASKS_DIGEST, "completed stage's digest stored");
    }

    private static void start(Recorder r, String app) {
        r.onEvent(new SparkEvent.ApplicationStart("stage-no-tasks", app, null, T0, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(), Map.of()));
    }

    private static void submit(Recorder r) {
        long t = T0 + 1000;
        StageInfo pending = new StageInfo(0, 0, "collect", TASKS, List.of(), "", -1, -1, null, List.of());
        r.onEvent(new SparkEvent.JobStart(0, t, List.of(0), List.of(pending), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(0, 0, "collect", TASKS, List.of(), "", t, -1, null,
                List.of())));
    }

    private static void taskEnd(Recorder r, int k) {
        long t = T0 + 1000 + k;
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 10 + k % 37)
                .set(TaskMetric.RESULT_SIZE, 1000 + k).build();
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS, new TaskInfo(k, k, 0, k,
                t + 1, "driver", "localhost", "PROCESS_LOCAL", false, 0, t + 20 + k % 13, false, false), m));
    }

    private static void complete(Recorder r) {
        long t = T0 + 1000 + TASKS + 100;
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(0, 0, "collect", TASKS, List.of(), "", T0 + 1000, t,
                null, List.of())));
        r.onEvent(new SparkEvent.JobEnd(0, t + 1, true, null));
    }

    private static void write(IngestService ingest, Recorder r) {
        AppSnapshot changed = r.snapshots(false).changed();
        IngestResult result = ingest.ingest(changed, List.of());
        assertEquals(IngestResult.Outcome.WRITTEN, result.outcome(), String.valueOf(result.reason()));
        r.written(changed.eventCount());
    }
}
