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
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statistics and task rows of stage attempts not yet stored go straight into their tables (COPY when many), those of
 * stored ones through the upsert: a run written in partial snapshots (some stages first written while running) holds
 * exactly the rows one whole write of the same events holds.
 */
class NewStageRowsWriteTest {
    private static final long T0 = 1_764_700_000_000L;

    @Test
    void partialWritesOfNewAndRunningStagesStoreTheSameRowsAsOneWholeWrite() throws Exception {
        DataSource ds = TestDb.migrated();
        IngestService ingest = IngestService.builder(ds).build();
        Recorder live = recorder("app-new-stages");
        for (int i = 0; i < 40; i++) {
            job(live, i, i % 10 != 9);
            if (i % 10 == 9) {
                // the last stage of each ten is written while running, and completed in the next write
                write(ingest, live);
                complete(live, i);
            }
        }
        write(ingest, live);

        Recorder whole = new Recorder(RecorderOptions.DEFAULTS);
        start(whole, "app-new-stages-whole");
        for (int i = 0; i < 40; i++) {
            job(whole, i, true);
        }
        assertEquals(IngestResult.Outcome.WRITTEN, ingest.ingest(whole.snapshot(), List.of()).outcome());

        long stats = TestDb.count(ds, "select count(*) from stage_statistics s join application a"
                + " using (app_pk) where a.app_id = 'app-new-stages'");
        assertEquals(TestDb.count(ds, "select count(*) from stage_statistics s join application a"
                + " using (app_pk) where a.app_id = 'app-new-stages-whole'"), stats);
        // ten new stages per write: past the COPY threshold, so the direct COPY was taken
        assertTrue(stats / 40 * 9 >= SnapshotWriter.DEFAULT_COPY_THRESHOLD, stats + " statistics rows");
        for (String table : List.of("stage_statistics", "task")) {
            String cols = table.equals("task") ? "stage_id, stage_attempt_id, task_id, executor_run_time_ms"
                    : "stage_id, stage_attempt_id, metric, vals";
            String q = "select " + cols + " from " + table + " join application a using (app_pk) where a.app_id = ";
            long differ = TestDb.count(ds, "select count(*) from ((" + q + "'app-new-stages' except " + q
                    + "'app-new-stages-whole') union all (" + q + "'app-new-stages-whole' except " + q
                    + "'app-new-stages')) d");
            assertEquals(0, differ, table + " rows differ between the partial writes and the whole write");
        }
        assertEquals(120, TestDb.count(ds, "select count(*) from task t join application a using (app_pk)"
                + " where a.app_id = 'app-new-stages'"));
    }

    private static Recorder recorder(String app) {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withWindow(15, 15, 15));
        start(r, app);
        return r;
    }

    private static void start(Recorder r, String app) {
        r.onEvent(new SparkEvent.ApplicationStart("new-stages", app, null, T0, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(), Map.of()));
    }

    private static void write(IngestService ingest, Recorder r) {
        AppSnapshot changed = r.snapshots(false).changed();
        assertTrue(changed.partial());
        IngestResult result = ingest.ingest(changed, List.of());
        assertEquals(IngestResult.Outcome.WRITTEN, result.outcome(), String.valueOf(result.reason()));
        r.written(changed.eventCount());
    }

    /** One job, one stage of 3 tasks; {@code end} false leaves its last task, the stage and the job running. */
    private static void job(Recorder r, int i, boolean end) {
        long t = T0 + 1000 + i * 100L;
        StageInfo pending = new StageInfo(i, 0, "collect", 3, List.of(), "", -1, -1, null, List.of());
        r.onEvent(new SparkEvent.JobStart(i, t, List.of(i), List.of(pending), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(i, 0, "collect", 3, List.of(), "", t, -1, null,
                List.of())));
        for (int k = 0; k < (end ? 3 : 2); k++) {
            taskEnd(r, i, k);
        }
        if (end) {
            stageAndJobEnd(r, i);
        }
    }

    private static void complete(Recorder r, int i) {
        taskEnd(r, i, 2);
        stageAndJobEnd(r, i);
    }

    private static void taskEnd(Recorder r, int i, int k) {
        long t = T0 + 1000 + i * 100L;
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 10 + k + i).build();
        r.onEvent(new SparkEvent.TaskEnd(i, 0, "ResultTask", TaskEndReason.SUCCESS, new TaskInfo(i * 3L + k, k, 0, k,
                t + 1, "driver", "localhost", "PROCESS_LOCAL", false, 0, t + 20, false, false), m));
    }

    private static void stageAndJobEnd(Recorder r, int i) {
        long t = T0 + 1000 + i * 100L;
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(i, 0, "collect", 3, List.of(), "", t, t + 30, null,
                List.of())));
        r.onEvent(new SparkEvent.JobEnd(i, t + 31, true, null));
    }
}
