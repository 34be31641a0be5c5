package io.sparkscope.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.testing.SampleFindings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotRoundTripTest {
    static DataSource ds;
    static final SnapshotWriter WRITER = new SnapshotWriter();
    static final String[] TABLES = {"application", "configuration", "executor", "job", "stage_attempt",
            "stage_statistics", "task", "sql_execution", "sql_plan_node", "sql_plan_edge", "sql_node_metric", "finding"};

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    @Test
    void writeThenReadGivesAnEqualSnapshot() throws Exception {
        AppSnapshot written = SnapshotBuilder.rich("app-roundtrip", null, true);
        assertTrue(WRITER.write(ds, written, SampleFindings.skewAndGc()).written());

        AppSnapshot read = SnapshotReader.read(ds, "app-roundtrip", null).orElseThrow();
        // Piecewise first, so a failure names the part that differs.
        assertEquals(written.config(), read.config());
        assertEquals(written.executors(), read.executors());
        assertEquals(written.jobs(), read.jobs());
        for (int i = 0; i < written.stages().size(); i++) {
            assertEquals(written.stages().get(i).keptTasks(), read.stages().get(i).keptTasks(), "tasks of stage " + i);
            assertEquals(written.stages().get(i), read.stages().get(i), "stage " + i);
        }
        assertEquals(written.sqlExecutions(), read.sqlExecutions());
        for (int i = 0; i < written.stages().size(); i++) {
            StageSummary w = written.stages().get(i);
            StageSummary r = read.stages().get(i);
            assertEquals(List.of(w.numDistinctEndedTasks(), w.numSpeculativeTasks(), w.numDuplicateTaskEnds(),
                    w.numTasksWithUnknownTimes()), List.of(r.numDistinctEndedTasks(), r.numSpeculativeTasks(),
                    r.numDuplicateTaskEnds(), r.numTasksWithUnknownTimes()), "the recorder's counts of stage " + i);
        }
        assertEquals(written, read);
        assertEquals(SnapshotBuilder.NASTY_CONFIG.get("spark.app.note"),
                read.config().get("spark.app.note").orElseThrow());
        assertTrue(SnapshotReader.read(ds, "no-such-app", null).isEmpty());
    }

    @Test
    void planGraphRowsHoldSparksNodesEdgesMetricsAndStages() throws Exception {
        WRITER.write(ds, SnapshotBuilder.rich("app-plan-rows", null, true), List.of());
        String app = " x JOIN application a USING (app_pk) WHERE a.app_id = 'app-plan-rows'";
        // AdaptiveSparkPlan(0) <- HashAggregate(1) <- Exchange(2) <- Scan(3), Spark's ids; the second execution has
        // no plan and no rows. Only the scan's and the exchange's metrics name stage 0; the stages are not carried
        // across the exchange, so the aggregate above it has none known
        assertEquals("0:AdaptiveSparkPlan:{},1:HashAggregate:{},2:Exchange:{0},3:Scan parquet:{0}",
                text("SELECT string_agg(node_id || ':' || x.name || ':' || stage_ids::text, ',' ORDER BY node_id)"
                        + " FROM sql_plan_node" + app));
        assertEquals("1->0,2->1,3->2", text("SELECT string_agg(from_id || '->' || to_id, ',' ORDER BY ord)"
                + " FROM sql_plan_edge" + app));
        // declared metrics, with an aggregate or without (102's has one, 999 is declared by no node)
        assertEquals("2:103:size:123456:70000,3:101:sum:3:2,3:102:size:4096:4096,-1:999:timing:5:5",
                text("SELECT string_agg(node_id || ':' || accumulator_id || ':' || metric_type || ':' || total || ':'"
                        + " || max_value, ',' ORDER BY node_id = -1, node_id, ord) FROM sql_node_metric" + app));
        // the stage → operators question in plain SQL
        assertEquals("Exchange,Scan parquet", text("SELECT string_agg(x.name, ',' ORDER BY node_id) FROM sql_plan_node"
                + app + " AND 0 = ANY(stage_ids) AND NOT is_cluster"));
    }

    @Test
    void aPartialSnapshotReplacesThePlanOfTheExecutionsItListsAndKeepsTheOthers() throws Exception {
        AppSnapshot full = SnapshotBuilder.rich("app-partial-plan", null, true);
        WRITER.write(ds, full, List.of());
        String app = " x JOIN application a USING (app_pk) WHERE a.app_id = 'app-partial-plan'";
        String nodes = "SELECT count(*) || ':' || string_agg(x.name, ',' ORDER BY node_id) FROM sql_plan_node" + app;
        assertEquals("4:AdaptiveSparkPlan,HashAggregate,Exchange,Scan parquet", text(nodes));

        // a partial write that lists no SQL execution leaves every stored plan row as it was
        assertTrue(WRITER.write(ds, partial(full, List.of(), full.eventCount() + 1), List.of()).written());
        assertEquals("4:AdaptiveSparkPlan,HashAggregate,Exchange,Scan parquet", text(nodes));
        assertEquals("3", text("SELECT count(*) FROM sql_plan_edge" + app));

        // one that lists the execution after an adaptive re-plan carries its whole new plan: the old rows go
        SqlExecutionSummary q = full.sqlExecutions().get(0);
        PlanNode scan = new PlanNode("Scan parquet", "Scan parquet t", List.of(),
                List.of(new PlanMetric("number of output rows", 101, "sum")));
        SqlExecutionSummary replanned = q.toBuilder().plan(scan).build();
        assertTrue(WRITER.write(ds, partial(full, List.of(replanned), full.eventCount() + 2), List.of()).written());
        assertEquals("1:Scan parquet", text(nodes));
        assertEquals("0", text("SELECT count(*) FROM sql_plan_edge" + app));
        assertEquals(full.sqlExecutions().size() + "", text("SELECT count(*) FROM sql_execution" + app),
                "the executions the partial write did not list stay");
    }

    private static AppSnapshot partial(AppSnapshot s, List<SqlExecutionSummary> sql, long eventCount) {
        // only these executions listed: the totals still those of the whole run
        return s.toBuilder().jobs(List.of()).stages(List.of()).sqlExecutions(sql).eventCount(eventCount).partial(true)
                .build();
    }

    @Test
    void runningSnapshotRoundTripsToo() throws Exception {
        AppSnapshot running = SnapshotBuilder.rich("app-running-rt", "1", false);
        WRITER.write(ds, running, List.of());
        assertEquals(running, SnapshotReader.read(ds, "app-running-rt", "1").orElseThrow());
        // attempt "1" and no attempt are different applications
        assertTrue(SnapshotReader.read(ds, "app-running-rt", null).isEmpty());
    }

    @Test
    void findingsRoundTripWithDetailsEqualAsJson() throws Exception {
        WRITER.write(ds, SnapshotBuilder.rich("app-findings", null, true), SampleFindings.skewAndGc());
        List<Finding> read = new SnapshotReader(ds).findings("app-findings", null);
        List<Finding> expected = SampleFindings.skewAndGc();
        assertEquals(expected.size(), read.size());
        ObjectMapper json = new ObjectMapper();
        for (int i = 0; i < expected.size(); i++) {
            Finding e = expected.get(i);
            Finding r = read.get(i);
            assertEquals(withoutDetails(e), withoutDetails(r));
            // Equal as JSON: jsonb orders keys its own way, and a small long comes back as an Integer.
            assertEquals(json.readTree(json.writeValueAsString(e.details())),
                    json.readTree(json.writeValueAsString(r.details())));
        }
        assertEquals(Map.of(), read.get(1).details(), "no details stored, none read");
        // what the diagnosis adds survives too: estimated saving, cause, setting advice
        assertEquals(expected.get(0).impact(), read.get(0).impact());
        assertEquals("skew:1.1", read.get(1).causedBy());
        assertEquals(expected.get(0).advice(), read.get(0).advice());
        assertEquals(List.of(), read.get(1).advice());
        assertEquals("HIGH", TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-findings'"
                + " AND worst_severity = 'HIGH' AND num_findings = 2") == 1 ? "HIGH" : "?");
    }

    @Test
    void theIdleCoreTimeAFixWouldFreeRoundTrips() throws Exception {
        Finding idle = Finding.builder("IdleCores", Severity.LOW).title("70 % of executor cores were idle")
                .impact(Impact.coreTime(240_000, "frees 0.07 idle core-hours; wall time unchanged")).build();
        WRITER.write(ds, SnapshotBuilder.rich("app-core-time", null, true), List.of(idle));
        Finding read = new SnapshotReader(ds).findings("app-core-time", null).get(0);
        assertEquals(240_000, read.impact().coreMs());
        assertEquals(idle.impact(), read.impact());
    }

    private static Finding withoutDetails(Finding f) {
        return new Finding(f.id(), f.heuristic(), f.severity(), f.title(), f.message(), f.recommendation(),
                f.stageIds(), f.executorIds(), f.configKeys(), null, f.impact(), f.causedBy(), f.advice());
    }

    @Test
    void writingTheSameSnapshotTwiceChangesNothing() throws Exception {
        AppSnapshot s = SnapshotBuilder.rich("app-twice", null, true);
        WRITER.write(ds, s, SampleFindings.skewAndGc());
        Map<String, Long> counts = counts("app-twice");
        String versions = rowVersions("app-twice");

        assertTrue(WRITER.write(ds, s, SampleFindings.skewAndGc()).written());
        assertEquals(counts, counts("app-twice"));
        // Not even a new row version: unchanged rows are skipped by the upsert's IS DISTINCT FROM.
        assertEquals(versions, rowVersions("app-twice"));
        assertEquals(s, SnapshotReader.read(ds, "app-twice", null).orElseThrow());
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE app_id = 'app-twice'"));
    }

    @Test
    void laterSnapshotOfARunningAppUpdatesRowsAndRemovesWhatIsGone() throws Exception {
        AppSnapshot running = SnapshotBuilder.rich("app-progress", null, false);
        WRITER.write(ds, running, List.of(SampleFindings.skewAndGc().get(0)));
        assertEquals("RUNNING", text("SELECT status FROM application WHERE app_id = 'app-progress'"));
        assertEquals("ACTIVE", text("SELECT s.status FROM stage_attempt s JOIN application a USING (app_pk)"
                + " WHERE a.app_id = 'app-progress' AND s.stage_id = 1 AND s.attempt_id = 1"));

        // The complete snapshot: stage 1.1 completed, its kept tasks replaced by slower ones (new task ids),
        // the skew finding is gone and a GC finding appeared.
        AppSnapshot complete = SnapshotBuilder.rich("app-progress", null, true);
        List<StageSummary> stages = new ArrayList<>(complete.stages());
        StageSummary last = stages.get(2);
        List<TaskRecord> slower = new ArrayList<>();
        for (TaskRecord t : last.keptTasks()) {
            slower.add(TaskRecord.builder().taskId(t.taskId() + 50).index(t.index()).attempt(t.attempt())
                    .partitionId(t.partitionId()).executorId(t.executorId()).host(t.host()).locality(t.locality())
                    .speculative(t.speculative()).launchTime(t.launchTime()).finishTime(t.finishTime() + 10_000)
                    .gettingResultTime(t.gettingResultTime()).status(t.status()).endReason(t.endReason())
                    .errorMessage(t.errorMessage()).metrics(t.metrics()).build());
        }
        stages.set(2, last.toBuilder().keptTasks(slower).taskDetail(null).taskTimes(null).deriveTaskCounts().build());
        complete = with(complete, stages);
        WRITER.write(ds, complete, List.of(SampleFindings.skewAndGc().get(1)));

        assertEquals(complete, SnapshotReader.read(ds, "app-progress", null).orElseThrow());
        assertEquals("COMPLETE", text("SELECT status FROM application WHERE app_id = 'app-progress'"));
        assertEquals(16, TestDb.count(ds, "SELECT count(*) FROM task t JOIN application a USING (app_pk)"
                + " WHERE a.app_id = 'app-progress'"), "8 + 4 + 4 kept tasks, the replaced ones deleted");
        assertEquals(List.of("gc:app"), new SnapshotReader(ds).findings("app-progress", null).stream()
                .map(Finding::id).toList());
        assertEquals("LOW", text("SELECT worst_severity FROM application WHERE app_id = 'app-progress'"));

        // Findings no longer produced at all: none left, application green.
        WRITER.write(ds, complete, List.of());
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM finding f JOIN application a USING (app_pk)"
                + " WHERE a.app_id = 'app-progress'"));
        assertEquals(null, text("SELECT worst_severity FROM application WHERE app_id = 'app-progress'"));
    }

    @Test
    void aStaleSnapshotDoesNotRollBackANewerOne() throws Exception {
        AppSnapshot complete = SnapshotBuilder.rich("app-stale", null, true);
        AppSnapshot running = SnapshotBuilder.rich("app-stale", null, false);
        WRITER.write(ds, complete, List.of());
        WriteResult late = WRITER.write(ds, running, List.of());
        assertFalse(late.written());
        assertEquals(WriteResult.Outcome.SKIPPED_STALE, late.outcome());
        assertEquals(complete, SnapshotReader.read(ds, "app-stale", null).orElseThrow());

        // ... unless the caller insists.
        assertTrue(WRITER.overwrite(ds, running, List.of()).written());
        assertEquals(running, SnapshotReader.read(ds, "app-stale", null).orElseThrow());
    }

    @Test
    void rowByRowWriterProducesTheSameRows() throws Exception {
        AppSnapshot s = SnapshotBuilder.rich("app-rowbyrow", null, true);
        RowByRowWriter.write(ds, s, SampleFindings.skewAndGc());
        assertEquals(s, SnapshotReader.read(ds, "app-rowbyrow", null).orElseThrow());
        WRITER.write(ds, SnapshotBuilder.rich("app-batched", null, true), SampleFindings.skewAndGc());
        Map<String, Long> a = counts("app-rowbyrow");
        Map<String, Long> b = counts("app-batched");
        assertEquals(b, a);
        assertNotEquals(0L, a.get("task"));
    }

    @Test
    void writesOnAGivenConnectionAndRestoresAutoCommit() throws Exception {
        try (var c = ds.getConnection()) {
            assertTrue(c.getAutoCommit());
            WRITER.write(c, SnapshotBuilder.rich("app-conn", null, true), List.of());
            assertTrue(c.getAutoCommit());
        }
        assertTrue(SnapshotReader.read(ds, "app-conn", null).isPresent());
    }

    static AppSnapshot with(AppSnapshot s, List<StageSummary> stages) {
        return SnapshotBuilder.copy(s).stages(stages).build();
    }

    static Map<String, Long> counts(String appId) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String t : TABLES) {
            out.put(t, TestDb.count(ds, "SELECT count(*) FROM " + t + " x JOIN application a USING (app_pk)"
                    + " WHERE a.app_id = '" + appId + "'"));
        }
        return out;
    }

    /** xmin of every row: changes whenever PostgreSQL writes a new version of the row. */
    static String rowVersions(String appId) {
        StringBuilder sb = new StringBuilder();
        for (String t : TABLES) {
            sb.append(t).append(':').append(text("SELECT string_agg(x.xmin::text, ',' ORDER BY x.xmin::text) FROM "
                    + t + " x JOIN application a USING (app_pk) WHERE a.app_id = '" + appId + "'"))
                    .append(' ');
        }
        return sb.toString();
    }

    static String text(String sql) {
        try (var c = ds.getConnection(); var st = c.createStatement(); var rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
