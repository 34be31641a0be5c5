package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** V4: the sampled flag and task-time sums round-trip; unchanged stages' task rows are not shipped again. */
class TaskDetailStoreTest {
    static DataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    @Test
    void sampledFlagAndTaskTimesRoundTrip() throws Exception {
        AppSnapshot written = SnapshotBuilder.rich("app-detail", null, true);
        new SnapshotWriter().write(ds, written, List.of());
        AppSnapshot read = SnapshotReader.read(ds, "app-detail", null).orElseThrow();
        assertEquals(written, read);
        StageSummary sampled = read.stages().get(0);
        assertEquals(TaskDetail.SAMPLED, sampled.taskDetail());
        assertEquals(8, sampled.keptTasks().size());
        assertEquals(400, sampled.endedTasks(), "seen vs kept");
        assertEquals(written.stages().get(0).taskTimes(), sampled.taskTimes());
        assertNotNull(sampled.taskTimes());
        assertEquals("SAMPLED", text("SELECT s.task_detail FROM stage_attempt s"
                + " JOIN application a USING (app_pk) WHERE a.app_id = 'app-detail' AND s.stage_id = 0"));
        assertEquals(TaskDetail.ALL, read.stages().get(1).taskDetail());
        assertNull(read.stages().get(2).taskTimes(), "unknown sums stay unknown");
    }

    @Test
    void aRowWrittenBeforeV4ReadsAsTheSlowestWhenTasksAreMissing() throws Exception {
        new SnapshotWriter().write(ds, SnapshotBuilder.rich("app-legacy", null, true), List.of());
        try (var c = ds.getConnection(); var st = c.createStatement()) {
            st.executeUpdate("UPDATE stage_attempt s SET task_detail = NULL, task_duration_ms = NULL FROM application a"
                    + " WHERE a.app_pk = s.app_pk AND a.app_id = 'app-legacy'");
        }
        AppSnapshot read = SnapshotReader.read(ds, "app-legacy", null).orElseThrow();
        assertEquals(TaskDetail.SLOWEST, read.stages().get(0).taskDetail(), "8 of 400 kept: the old rule");
        assertEquals(TaskDetail.ALL, read.stages().get(1).taskDetail(), "every ended task kept");
        assertNull(read.stages().get(0).taskTimes());
    }

    @Test
    void unchangedStagesShipNoTaskRowsChangedOnesAreRewritten() throws Exception {
        for (int threshold : new int[]{0, Integer.MAX_VALUE}) { // COPY path and batched path
            String app = "big-skip-" + (threshold == 0 ? "copy" : "batch");
            AppSnapshot first = big(app, 0);
            SnapshotWriter writer = new SnapshotWriter(1000, threshold);
            writer.write(ds, first, List.of());
            // Make stage 0's stored rows differ from the snapshot behind the writer's back: only a writer that did
            // not ship stage 0 again leaves the change in place.
            tamper(app, 0);
            // Stage 3's tasks change (a slower task replaces one): its rows are rewritten, the others untouched.
            AppSnapshot second = big(app, 1);
            writer.write(ds, second, List.of());
            assertEquals("tampered", host(app, 0), "stage 0 was not shipped again");
            AppSnapshot read = SnapshotReader.read(ds, app, null).orElseThrow();
            assertEquals(second.stages().get(3).keptTasks(), read.stages().get(3).keptTasks());
            assertEquals(500, TestDb.count(ds, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = '" + app + "' AND t.stage_id = 3"), "the displaced task's row is deleted");
            // Unknown digest (e.g. a row from before V4): the next write ships the stage and repairs it.
            try (var c = ds.getConnection(); var st = c.createStatement()) {
                st.executeUpdate("UPDATE stage_attempt s SET tasks_digest = NULL FROM application a"
                        + " WHERE a.app_pk = s.app_pk AND a.app_id = '" + app + "' AND s.stage_id = 0");
            }
            writer.write(ds, second, List.of());
            assertNotEquals("tampered", host(app, 0));
            assertEquals(second, SnapshotReader.read(ds, app, null).orElseThrow());
            // A stage gone from the snapshot takes its (unshipped) task rows with it; the others stay.
            List<StageSummary> fewer = new ArrayList<>(second.stages());
            fewer.remove(2);
            AppSnapshot third = SnapshotRoundTripTest.with(second, fewer);
            writer.write(ds, third, List.of());
            assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = '" + app + "' AND t.stage_id = 2"));
            assertEquals(1500, TestDb.count(ds, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = '" + app + "'"));
            assertEquals(third, SnapshotReader.read(ds, app, null).orElseThrow());
        }
    }

    @Test
    void withoutTheSkipEveryStageIsShipped() throws Exception {
        String app = "big-noskip";
        SnapshotWriter writer = new SnapshotWriter(1000, 0, false);
        writer.write(ds, big(app, 0), List.of());
        tamper(app, 0);
        writer.write(ds, big(app, 1), List.of());
        assertNotEquals("tampered", host(app, 0));
    }

    /** 4 stages × 500 tasks; {@code variant} 1 replaces the fastest task of stage 3 by a slower new one. */
    private static AppSnapshot big(String app, int variant) {
        AppSnapshot s = SnapshotBuilder.big(app, 4, 2000);
        if (variant == 0) {
            return s;
        }
        List<StageSummary> stages = new ArrayList<>(s.stages());
        StageSummary st = stages.get(3);
        List<TaskRecord> tasks = new ArrayList<>(st.keptTasks());
        TaskRecord t = tasks.remove(tasks.size() - 1);
        tasks.add(0, TaskRecord.builder().taskId(t.taskId() + 1_000_000).index(t.index()).attempt(t.attempt() + 1)
                .partitionId(t.partitionId()).executorId(t.executorId()).host(t.host()).locality(t.locality())
                .speculative(t.speculative()).launchTime(t.launchTime()).finishTime(t.launchTime() + 99_999)
                .status(t.status()).endReason(t.endReason()).metrics(t.metrics()).build());
        stages.set(3, st.toBuilder().keptTasks(tasks).deriveTaskCounts().build());
        return SnapshotRoundTripTest.with(s, stages);
    }

    static String text(String sql) {
        try (var c = ds.getConnection(); var st = c.createStatement(); var rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void tamper(String app, int stageId) throws Exception {
        try (var c = ds.getConnection(); var st = c.createStatement()) {
            st.executeUpdate("UPDATE task t SET host = 'tampered' FROM application a WHERE a.app_pk = t.app_pk"
                    + " AND a.app_id = '" + app + "' AND t.stage_id = " + stageId + " AND t.ord = 0");
        }
    }

    private static String host(String app, int stageId) {
        return text("SELECT t.host FROM task t JOIN application a USING (app_pk)"
                + " WHERE a.app_id = '" + app + "' AND t.stage_id = " + stageId + " AND t.ord = 0");
    }
}
