package io.sparkscope.server.web;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.SchedulerLinks;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;

import static io.sparkscope.store.SchedulerContextStoreTest.DAG_RUN;
import static io.sparkscope.store.SchedulerContextStoreTest.MON;
import static io.sparkscope.store.SchedulerContextStoreTest.TUE;
import static io.sparkscope.store.SchedulerContextStoreTest.airflowRun;
import static io.sparkscope.store.SchedulerContextStoreTest.writeTaskRuns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduler's job and run on the application and history pages, with their links (the Airflow DAG's page only
 * with {@code serve --airflow-url}), and the search page's and {@code /api/v1/apps}'s filters by them.
 */
class SchedulerWebTest {
    static final String KEY = "orders_daily.load | openlineage default";
    static final String HOSTILE_DAG = "<script>alert(1)</script>";
    private static OwnServer server;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        DataSource ds = TestDb.migrated();
        writeTaskRuns(ds, airflowRun("app-hostile", "x", HOSTILE_DAG, "t\" onmouseover=\"alert(2)",
                "01931885-2800-7be7-aa8d-ddd15c337267", SnapshotBuilder.RICH_START));
        server = OwnServer.over(ds);
        server.server().schedulerLinks(new SchedulerLinks("https://airflow.example.com/"));
        base = server.base();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String page(String path) {
        var r = WebFixture.getAt(base, path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return r.body();
    }

    @Test
    void theApplicationPageLinksItsDagTaskRunsHistoryAndAirflow() {
        String html = page("/apps/app-tue");
        assertTrue(html.contains("id=\"scheduler\""), html);
        assertTrue(html.contains("href=\"/apps?dag=orders_daily\""), "the DAG's runs");
        assertTrue(html.contains("href=\"/apps?dag=orders_daily&amp;task=load\""), "the task's runs");
        assertTrue(html.contains("href=\"/apps?parentRun=" + TUE + "\""), "the task run");
        assertTrue(html.contains("href=\"/apps?parentRun=" + DAG_RUN + "\""), "the DAG run");
        assertTrue(html.contains("id=\"scheduler-history\" href=\"" + Urls.historyOfJob(KEY) + "\""), "the history");
        assertTrue(html.contains("href=\"https://airflow.example.com/dags/orders_daily\""), "the DAG in Airflow");
        assertTrue(html.contains("(OpenLineage default / orders_daily.load)"), html);
        assertTrue(html.contains("id=\"scheduler\">Started by Airflow DAG <a id=\"scheduler-dag\""), "spaced words");
        assertFalse(page("/apps/app-plain").contains("id=\"scheduler\""), "no scheduler, no line");
    }

    @Test
    void theHistoryPageHoldsBothDaysAndNamesTheScheduledJob() {
        String html = page(Urls.historyOfJob(KEY));
        assertTrue(html.contains("app-mon") && html.contains("app-tue"), "both days' runs, whatever their names");
        assertTrue(html.contains("the scheduler&#39;s OpenLineage job orders_daily.load in namespace default")
                || html.contains("the scheduler's OpenLineage job orders_daily.load in namespace default"), html);
        assertTrue(html.contains("id=\"scheduler\""));
        assertTrue(html.contains("href=\"/apps?parentRun=" + TUE + "\""), "the newest run's ids");
        assertTrue(html.contains("href=\"https://airflow.example.com/dags/orders_daily\""));
        assertFalse(html.contains("id=\"scheduler-history\""), "no link to the page itself");
    }

    @Test
    void hostileIdsAreEscapedInTextLinksAndAttributes() {
        String html = page("/apps/app-hostile");
        assertFalse(html.contains(HOSTILE_DAG), "raw markup from a setting");
        assertFalse(html.contains("\" onmouseover=\"alert(2)"), "an attribute broken out of");
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html);
        assertTrue(html.contains("href=\"https://airflow.example.com/dags/%3Cscript%3Ealert%281%29%3C%2Fscript%3E\""),
                "the id is encoded in the link");
    }

    @Test
    void theSearchFiltersByDagTaskJobAndRun() {
        String html = page("/apps?dag=orders_daily&task=load");
        assertTrue(html.contains("app-mon") && html.contains("app-tue"), html);
        assertFalse(html.contains("app-hostile") || html.contains("app-plain"), "other applications");
        assertTrue(html.contains("id=\"f-dag\" value=\"orders_daily\""), "the form keeps the filter");
        assertTrue(html.contains("id=\"f-task\" value=\"load\""));

        String api = page("/api/v1/apps?parentRun=" + DAG_RUN.toUpperCase());
        assertTrue(api.contains("\"app-mon\"") && api.contains("\"app-tue\"") && api.contains("\"app-hostile\""), api);
        assertFalse(api.contains("\"app-plain\""), api);
        String byJob = page("/api/v1/apps?parentJob=orders_daily.load");
        assertTrue(byJob.contains("\"app-mon\"") && !byJob.contains("\"app-hostile\""), byJob);
        String byRun = page("/api/v1/apps?parentRun=" + MON);
        assertTrue(byRun.contains("\"app-mon\"") && !byRun.contains("\"app-tue\""), byRun);

        String detail = page("/api/v1/apps/app-tue");
        assertTrue(detail.contains("\"scheduler\":{\"dagId\":\"orders_daily\",\"taskId\":\"load\","
                + "\"namespace\":\"default\",\"job\":\"orders_daily.load\",\"runId\":\"" + TUE + "\""), detail);
        assertFalse(page("/api/v1/apps/app-plain").contains("\"scheduler\""), "absent without a scheduler");

        var bad = WebFixture.getAt(base, "/api/v1/apps?parentRun=not-a-run");
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("parentRun"), bad.body());
    }
}
