package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A snapshot whose stage holds two records of one task id (a task that ended twice, e.g. Success and later
 * Resubmitted when its executor was lost): the writer stores the last record instead of failing the whole
 * application on the task table's primary key, on every path (JDBC batches, COPY into the tables, COPY through the
 * staging tables on a rewrite, row by row).
 */
class DuplicateTaskTest {
    static DataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    /** Stage 0 of the rich snapshot with task 3 ending again, as Resubmitted, after all the others. */
    static AppSnapshot withTaskEndingTwice(String appId, long eventCount) {
        AppSnapshot base = SnapshotBuilder.rich(appId, null, true);
        List<StageSummary> stages = new ArrayList<>(base.stages());
        StageSummary st = stages.get(0);
        List<TaskRecord> tasks = new ArrayList<>(st.keptTasks());
        TaskRecord first = tasks.get(3);
        tasks.add(resubmitted(first));
        stages.set(0, withTasks(st, tasks));
        return SnapshotBuilder.copy(base).stages(stages).eventCount(eventCount).build();
    }

    static TaskRecord resubmitted(TaskRecord t) {
        return t.toBuilder().finishTime(t.finishTime() + 7_000).status("FAILED").endReason("Resubmitted")
                .errorMessage(null).build();
    }

    static StageSummary withTasks(StageSummary st, List<TaskRecord> tasks) {
        return st.toBuilder().keptTasks(tasks).deriveTaskCounts().build();
    }

    /** What a reader should get: each task once, its last record, in the order of the last records. */
    static List<TaskRecord> lastRecordOfEachTask(List<TaskRecord> tasks) {
        List<TaskRecord> out = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            long id = tasks.get(i).taskId();
            if (tasks.subList(i + 1, tasks.size()).stream().noneMatch(t -> t.taskId() == id)) {
                out.add(tasks.get(i));
            }
        }
        return out;
    }

    private static void assertStoredOnce(String appId, AppSnapshot written) throws Exception {
        AppSnapshot read = SnapshotReader.read(ds, appId, null).orElseThrow();
        List<TaskRecord> kept = written.stages().get(0).keptTasks();
        assertEquals(9, kept.size(), "the snapshot carries task 3 twice");
        List<TaskRecord> expected = lastRecordOfEachTask(kept);
        assertEquals(8, expected.size());
        assertEquals(expected, read.stages().get(0).keptTasks());
        assertEquals("Resubmitted", read.stages().get(0).keptTasks().get(7).endReason(), "the last record won");
        for (int i = 1; i < written.stages().size(); i++) {
            assertEquals(written.stages().get(i), read.stages().get(i), "the other stages as written");
        }
        assertEquals(16, TestDb.count(ds, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                + " WHERE a.app_id = '" + appId + "'"), "8 + 4 + 4 task rows");
    }

    @Test
    void batchedWriteKeepsTheLastRecord() throws Exception {
        AppSnapshot s = withTaskEndingTwice("app-dup-batch", 500);
        assertTrue(new SnapshotWriter(1000, Integer.MAX_VALUE).write(ds, s, List.of()).written());
        assertStoredOnce("app-dup-batch", s);
    }

    @Test
    void copyIntoANewApplicationKeepsTheLastRecord() throws Exception {
        AppSnapshot s = withTaskEndingTwice("app-dup-copy", 500);
        assertTrue(new SnapshotWriter(1000, 0).write(ds, s, List.of()).written());
        assertStoredOnce("app-dup-copy", s);
    }

    @Test
    void rewriteThroughStagingKeepsTheLastRecord() throws Exception {
        SnapshotWriter copyAll = new SnapshotWriter(1000, 0);
        copyAll.write(ds, SnapshotBuilder.rich("app-dup-rewrite", null, true), List.of());
        AppSnapshot s = withTaskEndingTwice("app-dup-rewrite", 501);
        assertTrue(copyAll.write(ds, s, List.of()).written());
        assertStoredOnce("app-dup-rewrite", s);
        // Unchanged since: the stage's digest matches, its task rows are not shipped again, and stay as they are.
        assertTrue(copyAll.write(ds, s, List.of()).written());
        assertStoredOnce("app-dup-rewrite", s);
    }

    @Test
    void rowByRowWriteKeepsTheLastRecord() throws Exception {
        AppSnapshot s = withTaskEndingTwice("app-dup-rows", 500);
        RowByRowWriter.write(ds, s, List.of());
        assertStoredOnce("app-dup-rows", s);
    }

    @Test
    void aSnapshotWithoutDuplicatesKeepsItsListAsItIs() {
        StageSummary st = SnapshotBuilder.rich("app-dup-none", null, true).stages().get(0);
        AppSnapshot app = SnapshotBuilder.rich("app-dup-none", null, true);
        assertTrue(SnapshotRows.oneRecordPerTask(app, st) == st.keptTasks(), "no copy when nothing is duplicated");
    }
}
