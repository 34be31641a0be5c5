package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static io.sparkscope.server.web.ExecutionFixture.APP;
import static io.sparkscope.server.web.ExecutionFixture.EVIL;
import static io.sparkscope.server.web.ExecutionFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The jobs and executors tabs, the paged task table and their Spark-shaped JSON over real PostgreSQL. */
class ExecutionWebTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;";

    @Test
    void jobsTabShowsStatusStagesTasksAndTheFailureEscaped() {
        var r = get("/apps/" + APP + "/jobs");
        assertEquals(200, r.status(), r.body());
        String b = r.body();
        assertTrue(b.contains("id=\"app-tabs\"") && b.contains("id=\"tab-jobs\"") && b.contains("aria-current=\"page\""));
        assertTrue(b.contains("data-job=\"0\"") && b.contains("data-job=\"1\""));
        assertTrue(b.contains("st-failed") && b.contains("st-succeeded"));
        assertTrue(b.contains("nightly " + ESCAPED), "the description, escaped");
        assertTrue(b.contains("Job aborted due to stage failure: " + ESCAPED + "\nline two\nline three</pre>"),
                "the first three lines of the failure reason");
        assertTrue(b.contains("line four, only in the whole text"), "the rest behind 'whole text'");
        assertFalse(b.contains(EVIL));
    }

    @Test
    void executorsTabShowsHostsTasksAndWhyOneWasRemoved() {
        String b = get("/apps/" + APP + "/executors").body();
        assertTrue(b.contains("data-executor=\"1\"") && b.contains("data-executor=\"2\"") && b.contains("data-executor=\"driver\""));
        assertTrue(b.contains("driver-host:40000"), "the block manager's host:port");
        assertTrue(b.contains("Container killed: " + ESCAPED));
        assertTrue(b.contains("id=\"no-peaks\""), "says that no peak memory was recorded");
        assertFalse(b.contains(EVIL));
    }

    @Test
    void taskTablePagesSortsAndFiltersOnTheServer() {
        String first = get("/apps/" + APP + "/stages/0/0/tasks").body();
        assertEquals(100, count(first, "class=\"task-row"), "one page of 100");
        assertTrue(first.contains("Tasks 1–100 of 253".replace("–", "&#8211;")), first.substring(0, 200));
        assertTrue(first.contains("id=\"page-next\"") && !first.contains("id=\"page-prev\""));
        String last = get("/apps/" + APP + "/stages/0/0/tasks?offset=200").body();
        assertEquals(53, count(last, "class=\"task-row"));
        assertTrue(last.contains("id=\"page-prev\"") && !last.contains("id=\"page-next\""));

        String failed = get("/apps/" + APP + "/stages/0/0/tasks?status=failed").body();
        assertEquals(3, count(failed, "class=\"task-row task-failed"), "the three failed attempts");
        assertTrue(failed.contains("java.lang.IllegalStateException: " + ESCAPED + "\n\tat Job.run(Job.java:7)"),
                "the failed attempt's whole error text");
        assertFalse(failed.contains(EVIL));

        String byExecutor = get("/apps/" + APP + "/stages/0/0/tasks?executor=2&length=500").body();
        assertEquals(128, count(byExecutor, "class=\"task-row"), "executor 2: 125 tasks and 3 retries");

        String slowest = get("/apps/" + APP + "/stages/0/0/tasks?sort=run_time&order=desc&length=1").body();
        assertTrue(slowest.contains("<td class=\"num\">449 ms</td>"), "the longest run time first");
        assertTrue(slowest.contains("th class=\"num sortable on\""));

        assertEquals(400, get("/apps/" + APP + "/stages/0/0/tasks?status=lost").status());
        assertEquals(400, get("/apps/" + APP + "/stages/0/0/tasks?sort=colour").status());
        assertEquals(400, get("/apps/" + APP + "/stages/0/0/tasks?length=0").status());
        assertEquals(404, get("/apps/" + APP + "/stages/7/0/tasks").status());
        assertEquals(404, get("/apps/no-such-app/jobs").status());
    }

    @Test
    void stageTableCutsLongNamesAndLinksTheTaskTable() {
        String b = get("/apps/" + APP).body();
        assertTrue(b.contains("title=\"" + ExecutionFixture.LONG_NAME.replace("$", "$") + "\""), "full name on hover");
        assertTrue(b.contains(ExecutionFixture.LONG_NAME.substring(0, 59) + "&#8230;</span>"), "cut to 60 characters");
        assertTrue(b.contains("href=\"/apps/" + APP + "/stages/0/0/tasks\""));
        assertTrue(b.contains("data-metric=\"shuffleWriteMetrics.writeBytes\"")
                && b.contains("data-metric=\"peakExecutionMemory\"")
                && b.contains("data-metric=\"shuffleReadMetrics.fetchWaitTime\""), "every taskSummary metric");
        assertTrue(b.contains("class=\"num input\"") && b.contains("class=\"num output\""));
    }

    @Test
    void jsonInSparksShape() throws Exception {
        JsonNode jobs = JSON.readTree(get("/api/v1/apps/" + APP + "/jobs").body());
        assertEquals(1, jobs.get(0).get("jobId").asInt(), "newest first, as Spark");
        assertEquals("FAILED", jobs.get(0).get("status").asText());
        assertEquals(TASKS_OK, jobs.get(1).get("numCompletedIndices").asInt());
        assertEquals(3, jobs.get(1).get("numFailedTasks").asInt());
        assertTrue(jobs.get(1).get("submissionTime").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}GMT"));
        assertEquals(1, JSON.readTree(get("/api/v1/apps/" + APP + "/jobs?status=failed").body()).size());
        assertEquals(0, JSON.readTree(get("/api/v1/apps/" + APP + "/jobs/0").body()).get("jobId").asInt());
        assertEquals(404, get("/api/v1/apps/" + APP + "/jobs/9").status());

        JsonNode active = JSON.readTree(get("/api/v1/apps/" + APP + "/executors").body());
        JsonNode all = JSON.readTree(get("/api/v1/apps/" + APP + "/allexecutors").body());
        assertEquals(2, active.size(), "executor 2 was removed");
        assertEquals(3, all.size());
        JsonNode removed = all.get(1);
        assertEquals("2", removed.get("id").asText());
        assertFalse(removed.get("isActive").asBoolean());
        assertTrue(removed.get("removeReason").asText().contains(EVIL), "JSON carries the text as it is");

        JsonNode page = JSON.readTree(get("/api/v1/apps/" + APP + "/stages/0/0/taskList?offset=1&length=2&sortBy=-runtime").body());
        assertEquals(2, page.size());
        assertTrue(page.get(0).get("taskMetrics").get("executorRunTime").asLong()
                >= page.get(1).get("taskMetrics").get("executorRunTime").asLong());
        JsonNode failed = JSON.readTree(get("/api/v1/apps/" + APP + "/stages/0/0/taskList?status=FAILED").body());
        assertEquals(3, failed.size());
        assertTrue(failed.get(0).get("errorMessage").asText().startsWith("java.lang.IllegalStateException"));
        assertEquals(400, get("/api/v1/apps/" + APP + "/stages/0/0/taskList?sortBy=sideways").status());
    }

    static final int TASKS_OK = ExecutionFixture.TASKS;

    static int count(String html, String needle) {
        int n = 0;
        for (int i = html.indexOf(needle); i >= 0; i = html.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
