package io.sparkscope.listener;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.TestDb;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two daily runs of one Airflow task, each naming its application after the day, as Airflow's OpenLineage provider
 * submits them: recorded live into PostgreSQL and read back from their event logs, both paths give the same job.
 */
class SchedulerContextLiveTest {
    static final String DAG_RUN = "01931885-2800-799d-8041-88a263ffa0d8";

    private static Map<String, String> airflow(String taskRun) {
        Map<String, String> m = new HashMap<>();
        m.put(Lineage.NAMESPACE, "default");
        m.put(Lineage.JOB, "orders_daily.load");
        m.put(Lineage.RUN_ID, taskRun);
        m.put(Lineage.ROOT_NAMESPACE, "default");
        m.put(Lineage.ROOT_JOB, "orders_daily");
        m.put(Lineage.ROOT_RUN_ID, DAG_RUN);
        return m;
    }

    @Test
    void runsOfOneTaskAreOneJobLiveAndFromTheirLogs(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        String monday = run("orders 2026-11-30", db, dir, airflow("01931885-2800-7be7-aa8d-aaa15c337267"));
        // the next day's run id is an unrendered template (a common slip): skipped, the run still imported
        String tuesday = run("orders 2026-12-01", db, dir,
                airflow("{{ macros.OpenLineageProviderPlugin.lineage_run_id(task_instance) }}"));

        for (String app : List.of(monday, tuesday)) {
            ListenerOutageTest.waitFor(app + " complete in the database", Duration.ofSeconds(20),
                    () -> TestDb.count(ds, "SELECT count(*) FROM application WHERE complete AND app_id = '" + app
                            + "'") == 1);
        }
        assertEquals(1, TestDb.count(ds, "SELECT count(DISTINCT job_key) FROM application"), "one job");
        assertEquals(2, TestDb.count(ds, "SELECT count(*) FROM application WHERE job_key ="
                + " 'orders_daily.load | openlineage default' AND airflow_dag_id = 'orders_daily'"
                + " AND airflow_task_id = 'load' AND lineage_root_run_id = '" + DAG_RUN + "'"));
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM application WHERE lineage_run_id IS NULL"),
                "the template is not stored as a run id");

        List<String> problems = new ArrayList<>();
        for (String app : List.of(monday, tuesday)) {
            EventLogSource log = EventLogReader.discover(dir).stream()
                    .filter(l -> l.path().getFileName().toString().contains(app)).findFirst().orElseThrow();
            AppSnapshot replayed = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS, problems::add).snapshot();
            assertEquals("orders_daily.load | openlineage default", JobKey.of(replayed).value(), "from " + app);
            Lineage l = Lineage.of(replayed.config().sparkProperties());
            assertEquals("load", l.taskId());
            if (app.equals(tuesday)) {
                assertNull(l.runId());
            }
        }
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("SparkListenerEnvironmentUpdate: " + Lineage.RUN_ID
                + " ignored: an unrendered template"), problems.get(0));
    }

    /** One application recorded live and written to an event log; returns its id. */
    private static String run(String name, String db, Path dir, Map<String, String> extra) {
        Map<String, String> conf = new HashMap<>(extra);
        conf.put("spark.sparkscope.jdbc.url", TestDb.url(db));
        conf.put("spark.sparkscope.spool.dir", dir.resolve("spool").toString());
        conf.put("spark.eventLog.enabled", "true");
        conf.put("spark.eventLog.dir", dir.toUri().toString());
        SparkSession spark = LocalSpark.start(name, conf);
        String appId = spark.sparkContext().applicationId();
        spark.range(0, 1_000, 1, 2).count();
        spark.stop();
        return appId;
    }
}
