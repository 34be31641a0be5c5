package io.sparkscope.store;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SqlJobEvents;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import io.sparkscope.store.query.JobsExecutorsQuery;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live listener's snapshots are partial (only what changed since its last write, within a window of recent
 * entities): the store keeps what they do not list, and the application row counts the whole run from their totals.
 * A full snapshot still replaces the stored application.
 */
class PartialSnapshotWriteTest {
    private static final long T0 = 1_764_400_000_000L;

    @Test
    void partialSnapshotsKeepWhatTheyDoNotListAndFullOnesReplace() throws Exception {
        DataSource ds = TestDb.migrated();
        IngestService ingest = IngestService.builder(ds).build();
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withWindow(5, 5, 5));
        r.onEvent(new SparkEvent.ApplicationStart("partial", "app-partial", null, T0, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(), Map.of()));
        int largestWrite = 0;
        for (int i = 0; i < 40; i++) {
            job(r, i);
            if (i % 2 == 1) {
                AppSnapshot changed = r.snapshots(false).changed();
                assertTrue(changed.partial());
                largestWrite = Math.max(largestWrite, changed.jobs().size());
                IngestResult result = ingest.ingest(changed, List.of());
                assertTrue(result.outcome() == IngestResult.Outcome.WRITTEN, result.outcome() + " " + result.reason());
                r.written(changed.eventCount());
            }
        }
        assertEquals(2, largestWrite, "each write carried the two jobs since the last one");
        AppSnapshot retained = r.snapshot();
        assertTrue(retained.jobs().size() < 40, "the recorder kept a window");

        AppSnapshot stored = SnapshotReader.read(ds, "app-partial", null).orElseThrow();
        assertEquals(40, stored.jobs().size(), "every job, also those no longer in the driver");
        assertEquals(40, stored.stages().size());
        assertEquals(40, stored.sqlExecutions().size());
        assertEquals(40 * 3, stored.totalTasks());
        assertFalse(stored.config().sparkProperties().isEmpty(), "the configuration, written once, stays");
        assertEquals(40, TestDb.count(ds, "select num_jobs from application where app_id = 'app-partial'"));
        assertEquals(120, TestDb.count(ds, "select num_tasks from application where app_id = 'app-partial'"));
        // A job written once when it ended, then gone from the driver, keeps its own task and stage counts.
        JobSummary first = stored.jobs().get(0);
        assertEquals(0, first.jobId());
        assertEquals(3, first.numCompletedTasks());
        assertEquals(1, first.numCompletedStages());
        // The web's jobs page reads the same rows: every job of the run, not only the retained window.
        List<JobSummary> page = new JobsExecutorsQuery(ds).jobs("app-partial", null).orElseThrow().jobs();
        assertEquals(40, page.size());
        assertTrue(page.stream().allMatch(j -> j.numCompletedTasks() == 3 && j.numActiveTasks() == 0), page.toString());

        // The retained snapshot is partial too (entities left it): writing it deletes nothing.
        assertTrue(retained.partial());
        ingest.ingest(retained, List.of());
        assertEquals(40, SnapshotReader.read(ds, "app-partial", null).orElseThrow().jobs().size());

        // A full snapshot (an import of the same application's log) replaces the stored application.
        Recorder whole = new Recorder(RecorderOptions.DEFAULTS);
        whole.onEvent(new SparkEvent.ApplicationStart("partial", "app-partial", null, T0, "alice"));
        for (int i = 0; i < 3; i++) {
            job(whole, i);
        }
        for (int i = 0; i < 1000; i++) {
            whole.onEvent(new SparkEvent.Unknown("Padding")); // more events than the live snapshots: not stale
        }
        AppSnapshot full = whole.snapshot();
        assertFalse(full.partial());
        assertEquals(IngestResult.Outcome.WRITTEN, ingest.ingest(full, List.of()).outcome());
        assertEquals(3, SnapshotReader.read(ds, "app-partial", null).orElseThrow().jobs().size());
    }

    /** One SQL job, one stage of 3 tasks. */
    private static void job(Recorder r, int i) {
        SqlJobEvents.oneStageJob(r, i, T0, false);
    }
}
