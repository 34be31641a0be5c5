package io.sparkscope.store;

import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.SchedulerQuery;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The scheduler's job and run kept on the application row (V25), filtered on, and read back for the pages. */
public class SchedulerContextStoreTest {
    private static final long NOW = System.currentTimeMillis();
    public static final String MON = "01931885-2800-7be7-aa8d-aaa15c337267";
    public static final String TUE = "01931885-2800-7be7-aa8d-bbb15c337267";
    public static final String DAG_RUN = "01931885-2800-799d-8041-88a263ffa0d8";

    /** A run of an Airflow task, named differently each day as many DAGs do. */
    public static AppSnapshot airflowRun(String appId, String name, String dag, String task, String taskRun, long start) {
        AppSnapshot base = SnapshotBuilder.rich(appId, null, true);
        Map<String, String> spark = new HashMap<>(base.config().sparkProperties());
        spark.put(Lineage.NAMESPACE, "default");
        spark.put(Lineage.JOB, dag + "." + task);
        spark.put(Lineage.RUN_ID, taskRun);
        spark.put(Lineage.ROOT_NAMESPACE, "default");
        spark.put(Lineage.ROOT_JOB, dag);
        spark.put(Lineage.ROOT_RUN_ID, DAG_RUN);
        return SnapshotBuilder.copy(base).appName(name).startTime(start).config(new AppConfig(spark,
                base.config().jvmInformation(), base.config().systemProperties(),
                base.config().hadoopProperties())).build();
    }

    private static List<String> ids(DataSource ds, AppFilter.Scheduler s) throws Exception {
        return new AppSearchQuery(ds).search(AppFilter.all(NOW).withScheduler(s)).rows().stream()
                .map(AppListRow::appId).sorted().toList();
    }

    /**
     * Stores two days of Airflow task orders_daily.load (app-mon, app-tue, each named after its day), an application
     * no scheduler started (app-plain), and {@code other}, another task's run of the same DAG run.
     */
    public static void writeTaskRuns(DataSource ds, AppSnapshot other) throws Exception {
        SnapshotWriter w = new SnapshotWriter();
        long t = SnapshotBuilder.RICH_START;
        w.write(ds, airflowRun("app-mon", "orders 2026-11-30", "orders_daily", "load", MON, t), List.of());
        w.write(ds, airflowRun("app-tue", "orders 2026-12-01", "orders_daily", "load", TUE, t + 86_400_000L),
                List.of());
        w.write(ds, other, List.of());
        w.write(ds, SnapshotBuilder.rich("app-plain", null, true), List.of());
    }

    @Test
    void runsOfOneTaskAreOneJobAndTheSearchFiltersByDagTaskJobAndRun() throws Exception {
        DataSource ds = TestDb.migrated();
        writeTaskRuns(ds, airflowRun("app-other", "report", "reports", "render", MON.replace("aaa", "ccc"),
                SnapshotBuilder.RICH_START));

        assertEquals(2, TestDb.count(ds, "SELECT count(DISTINCT job_key) FROM application"
                + " WHERE airflow_dag_id IS NOT NULL"), "the two days of one task share a job key");
        assertEquals(List.of("app-mon", "app-tue"), ids(ds, AppFilter.Scheduler.of("orders_daily", null, null, null)));
        assertEquals(List.of("app-mon", "app-tue"), ids(ds, AppFilter.Scheduler.of("orders_daily", "load", null, null)));
        assertEquals(List.of(), ids(ds, AppFilter.Scheduler.of("orders_daily", "render", null, null)));
        assertEquals(List.of("app-other"), ids(ds, AppFilter.Scheduler.of(null, null, "reports.render", null)));
        assertEquals(List.of("app-tue"), ids(ds, AppFilter.Scheduler.of(null, null, null, TUE.toUpperCase())),
                "a task run, in any case");
        assertEquals(List.of("app-mon", "app-other", "app-tue"),
                ids(ds, AppFilter.Scheduler.of(null, null, null, DAG_RUN)), "the DAG run finds all its tasks' runs");
        assertEquals(4, new AppSearchQuery(ds).search(AppFilter.all(NOW)).rows().size(), "no filter, all");
        assertNull(AppFilter.Scheduler.of(" ", "", null, null), "blank parts are no filter");

        long tue = TestDb.count(ds, "SELECT app_pk FROM application WHERE app_id = 'app-tue'");
        Lineage l = new SchedulerQuery(ds).ofApp(tue);
        assertEquals("orders_daily", l.dagId());
        assertEquals("load", l.taskId());
        assertEquals(TUE, l.runId());
        assertEquals("default", l.namespace());
        String key = jobKey(ds, "app-tue");
        assertEquals(TUE, new SchedulerQuery(ds).ofJob(key).runId(), "the job's newest run");
        long plain = TestDb.count(ds, "SELECT app_pk FROM application WHERE app_id = 'app-plain'");
        assertSame(Lineage.NONE, new SchedulerQuery(ds).ofApp(plain));
        assertSame(Lineage.NONE, new SchedulerQuery(ds).ofJob(jobKey(ds, "app-plain")));
    }

    @Test
    void aLiveWriteOfWhatChangedKeepsTheContext() throws Exception {
        DataSource ds = TestDb.migrated();
        AppSnapshot full = airflowRun("app-live", "orders", "orders_daily", "load", MON, SnapshotBuilder.RICH_START);
        new SnapshotWriter().write(ds, full, List.of());
        // a later live snapshot carries only the job-identity settings, as the assembler sends them
        AppSnapshot later = SnapshotBuilder.copy(full).config(full.config().jobIdentity()).build();
        new SnapshotWriter().write(ds, later, List.of());
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE airflow_task_id = 'load'"
                + " AND lineage_run_id = '" + MON + "'"));
    }

    private static String jobKey(DataSource ds, String appId) throws Exception {
        try (var c = ds.getConnection(); var ps = c.prepareStatement("SELECT job_key FROM application WHERE app_id = ?")) {
            ps.setString(1, appId);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
