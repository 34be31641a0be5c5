package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ways a Spark engineer moves through an application in headless Chromium, clicking real links: from every
 * finding of the fixtures to each piece of evidence it names (its stage, its failed tasks, its executor, its plan
 * operator, its failed job) in at most two clicks, and between jobs, stages, SQL executions, operators, tasks and
 * executors. Browser set-up and skipping (or failing in CI) as in {@link WebBrowserTest}.
 */
@ExtendWith(Browser.class)
class LinksBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static WebDriver driver() {
        return WebBrowserTest.driver;
    }

    private static JavascriptExecutor js() {
        return (JavascriptExecutor) driver();
    }

    /** One application page with findings: the fixture's server and the page's path. */
    private record App(String base, String path) {
    }

    private static List<App> apps() {
        return List.of(new App(DiagnosisFixture.base(), "/apps/app-diag"),
                new App(ExecutionFixture.base(), "/apps/" + ExecutionFixture.APP),
                new App(SqlFixture.base(), SqlBrowserTest.app()));
    }

    /** A piece of evidence a finding names: which link in its block leads to it. */
    private enum Evidence {
        STAGE(":scope > p.where a.stage-link"),
        FAILED_TASKS(":scope > .error-groups a.failed-tasks-link"),
        EXECUTOR(":scope > p.where a.executor-link, :scope > .error-groups a.executor-link"),
        OPERATOR(":scope > p.where a.operator-link"),
        JOB(":scope > .error-groups a.job-link");

        final String css;

        Evidence(String css) {
            this.css = css;
        }
    }

    @Test
    void everyFindingReachesTheEvidenceItNamesInAtMostTwoClicks() throws Exception {
        Set<String> heuristics = new TreeSet<>();
        Set<Evidence> followed = new TreeSet<>();
        for (App app : apps()) {
            JsonNode findings = JSON.readTree(WebFixture.getAt(app.base(), "/api/v1" + app.path() + "/findings")
                    .body());
            for (JsonNode f : findings) {
                String id = f.get("id").asText();
                for (Evidence e : named(f)) {
                    follow(app, id, e);
                    heuristics.add(f.get("heuristic").asText());
                    followed.add(e);
                }
            }
        }
        assertEquals(Set.of(Evidence.values()), followed, "every kind of evidence was followed");
        assertTrue(heuristics.containsAll(List.of("TaskFailure", "StageFailure", "JobFailure")), heuristics.toString());
        assertTrue(heuristics.size() >= 5, "findings of the failure and SQL heuristics: " + heuristics);
    }

    /** The kinds of evidence a finding names, as the API gives it. */
    private static List<Evidence> named(JsonNode f) {
        List<Evidence> out = new ArrayList<>();
        if (!f.get("stageIds").isEmpty() && f.get("stageIds").get(0).asText().matches("\\d+(\\.\\d+)?")) {
            out.add(Evidence.STAGE);
        }
        JsonNode details = f.get("details");
        boolean taskErrorsOnStages = false;
        boolean executors = !f.get("executorIds").isEmpty();
        for (JsonNode g : details.path("errorGroups")) {
            taskErrorsOnStages |= !g.path("stages").isEmpty();
            executors |= !g.path("executors").isEmpty();
        }
        if (taskErrorsOnStages) {
            out.add(Evidence.FAILED_TASKS);
        }
        if (executors) {
            out.add(Evidence.EXECUTOR);
        }
        if (!details.path("planNodes").isEmpty()) {
            out.add(Evidence.OPERATOR);
        }
        for (JsonNode r : details.path("reasons")) {
            if (!r.path("jobIds").isEmpty()) {
                out.add(Evidence.JOB);
                break;
            }
        }
        return out;
    }

    /**
     * Opens the application page, then clicks: the collapsed cause the finding sits under (when it is a knock-on),
     * then the evidence's first link in the finding's own block; checks the page it lands on shows that evidence.
     */
    private static void follow(App app, String findingId, Evidence e) throws Exception {
        Browser.open(app.base() + app.path());
        WebElement finding = driver().findElement(By.cssSelector("div.finding[data-finding='" + findingId + "']"));
        List<WebElement> links = finding.findElements(By.cssSelector(e.css));
        String what = findingId + " → " + e;
        assertFalse(links.isEmpty(), what + ": no link in the finding");
        WebElement link = links.get(0);
        int clicks = 0;
        if (!link.isDisplayed()) {
            // the outermost closed list of knock-ons holding it: opening it shows the whole chain under it
            WebElement closed = (WebElement) js().executeScript("var d = null, e = arguments[0];"
                    + " while ((e = e.parentElement)) { if (e.tagName === 'DETAILS' && !e.open) d = e; } return d;", link);
            assertTrue(closed != null, what + ": hidden, but not under a closed list");
            closed.findElement(By.cssSelector(":scope > summary")).click();
            clicks++;
        }
        assertTrue(link.isDisplayed(), what + ": shows once its cause is opened");
        // read before the click: the link is gone with the page
        String href = link.getAttribute("href");
        String stage = link.getAttribute("data-stage");
        String executor = link.getAttribute("data-executor");
        String job = "job-" + link.getAttribute("data-job");
        js().executeScript("arguments[0].scrollIntoView({block: 'center'})", link);
        link.click();
        clicks++;
        assertTrue(clicks <= 2, what + ": " + clicks + " clicks");
        new WebDriverWait(driver(), Duration.ofSeconds(20)).until(d -> !d.getCurrentUrl().equals(app.base() + app.path())
                && !d.findElements(By.tagName("footer")).isEmpty());
        String url = driver().getCurrentUrl();
        switch (e) {
            case STAGE -> landedOnStage(stage, url, what);
            case FAILED_TASKS -> landedOnFailedTasks(href, url, what);
            case EXECUTOR -> landedOnExecutor(executor, what);
            case OPERATOR -> {
                String node = url.substring(url.indexOf("#node-") + 1);
                assertTrue(url.contains("/sql/") && url.contains("#node-"), what + ": " + url);
                assertTrue(driver().findElement(By.id(node)).isDisplayed(), what + ": the operator's row shows");
            }
            case JOB -> {
                assertTrue(url.endsWith("/jobs#" + job), what + ": " + url);
                assertTrue(driver().findElement(By.id(job)).isDisplayed(), what + ": the job's row shows");
            }
        }
    }

    /**
     * The stage's own page (its heading names the stage) or, where the server has none, its row on the application
     * page.
     */
    private static void landedOnStage(String key, String url, String what) {
        String stageId = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
        if (url.endsWith("#stage-" + key)) {
            WebElement row = driver().findElement(By.id("stage-" + key));
            assertTrue(row.isDisplayed(), what + ": the stage's row shows");
            return;
        }
        assertTrue(url.contains("/stages/" + stageId + "/"), what + ": " + url);
        String headings = driver().findElements(By.cssSelector("h1, h2")).stream().map(WebElement::getText)
                .reduce("", (a, b) -> a + " | " + b);
        assertTrue(headings.matches("(?s).*Stage " + Pattern.quote(stageId) + "\\b.*"),
                what + ": the stage page names the stage: " + headings);
    }

    private static void landedOnFailedTasks(String href, String url, String what) {
        assertTrue(url.contains("/tasks?status=failed"), what + ": " + url);
        assertEquals("failed", new Select(driver().findElement(By.id("f-status"))).getFirstSelectedOption()
                .getAttribute("value"), what + ": the status filter says so");
        List<WebElement> rows = driver().findElements(By.cssSelector("#task-table tbody tr.task-row"));
        assertFalse(rows.isEmpty(), what + ": failed tasks listed");
        for (WebElement r : rows) {
            assertTrue(r.getAttribute("class").contains("task-failed"), what + ": only failed tasks");
        }
        if (href.contains("executor=")) {
            String executor = href.substring(href.indexOf("executor=") + "executor=".length());
            for (WebElement r : rows) {
                assertEquals(executor, r.findElement(By.cssSelector("a.executor-link")).getText(),
                        what + ": only the executor's");
            }
        }
    }

    private static void landedOnExecutor(String executorId, String what) {
        WebElement heading = driver().findElement(By.id("executor"));
        assertEquals(executorId, heading.getAttribute("data-executor"), what);
    }

    @Test
    void jobsStagesSqlOperatorsTasksAndExecutorsLinkToEachOther() throws Exception {
        String sqlBase = SqlFixture.base();
        String sqlApp = SqlBrowserTest.app();
        // jobs tab: a job's SQL execution, then from the query its job back
        Browser.open(sqlBase + sqlApp + "/jobs");
        WebElement job = driver().findElement(By.cssSelector("#job-table tr.job-row:has(a.job-sql)"));
        String jobId = job.getAttribute("data-job");
        List<Integer> ids = new ArrayList<>();
        for (WebElement s : job.findElements(By.cssSelector(".stage-ids .stage-ref"))) {
            ids.add(Integer.parseInt(s.getText()));
        }
        assertEquals(ids.stream().sorted().toList(), ids, "stage ids in order");
        job.findElement(By.cssSelector("a.job-sql")).click();
        waitFor("/sql/");
        assertTrue(driver().findElement(By.id("sql-execution")).isDisplayed());
        WebBrowserTest.screenshot("links-job-to-sql");
        driver().findElement(By.cssSelector(".facts a.job-ref[href$='#job-" + jobId + "']")).click();
        waitFor("/jobs#job-" + jobId);
        assertTrue(driver().findElement(By.id("job-" + jobId)).isDisplayed(), "back on the job's row");
        // a job's stage to the stage
        WebElement stage = driver().findElement(By.cssSelector("#job-" + jobId + " a.stage-ref"));
        String stageId = stage.getText();
        stage.click();
        waitFor("stage");
        landedOnStage(stageId + "." + attemptOf(driver().getCurrentUrl(), stageId), driver().getCurrentUrl(),
                "job " + jobId + " → stage " + stageId);
        // a query's operator to the stages that ran it
        Browser.open(sqlBase + sqlApp + "/sql");
        driver().findElement(By.cssSelector("#sql-table tr.sql-row td a")).click();
        waitFor("/sql/");
        WebElement op = driver().findElement(By.cssSelector("#operator-table tr.operator-row a.stage-ref"));
        op.click();
        waitFor("stage");

        // executors tab → an executor → its tasks in one stage, only its own
        String exec = ExecutionFixture.base() + "/apps/" + ExecutionFixture.APP;
        Browser.open(exec + "/executors");
        driver().findElement(By.cssSelector("#executor-table tr[data-executor='2'] a.executor-link")).click();
        waitFor("/executors/2");
        assertEquals("2", driver().findElement(By.id("executor")).getAttribute("data-executor"));
        WebBrowserTest.screenshot("links-executor");
        driver().findElement(By.cssSelector("#executor-stage-table tr[data-stage='0.0'] a.tasks-link")).click();
        waitFor("/tasks?executor=2");
        List<WebElement> rows = driver().findElements(By.cssSelector("#task-table tbody tr.task-row"));
        assertFalse(rows.isEmpty());
        for (WebElement r : rows) {
            assertEquals("2", r.findElement(By.cssSelector("a.executor-link")).getText(), "only executor 2's tasks");
        }
        // a task's executor back to the executor
        rows.get(0).findElement(By.cssSelector("a.executor-link")).click();
        waitFor("/executors/2");
        // its failed tasks in that stage
        driver().findElement(By.cssSelector("#executor-stage-table tr[data-stage='0.0'] a.failed-tasks-link")).click();
        waitFor("status=failed");
        landedOnFailedTasks(driver().getCurrentUrl(), driver().getCurrentUrl(), "executor 2 → failed tasks");
        // the stage table's failed count to the failed tasks
        Browser.open(exec);
        driver().findElement(By.cssSelector("#stage-0\\.0 a.failed-tasks-link")).click();
        waitFor("status=failed");
        landedOnFailedTasks(driver().getCurrentUrl(), driver().getCurrentUrl(), "stage row → failed tasks");
        WebBrowserTest.screenshot("links-failed-tasks");
    }

    /** The attempt in a stage page's URL (…/stages/3/1), or of the row anchor (#stage-3.1). */
    private static String attemptOf(String url, String stageId) {
        int row = url.indexOf("#stage-" + stageId + ".");
        if (row >= 0) {
            return url.substring(row + ("#stage-" + stageId + ".").length());
        }
        String rest = url.substring(url.indexOf("/stages/" + stageId + "/") + ("/stages/" + stageId + "/").length());
        return rest.split("[/?#]")[0];
    }

    private static void waitFor(String inUrl) {
        new WebDriverWait(driver(), Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains(inUrl)
                && !d.findElements(By.tagName("footer")).isEmpty());
    }
}
