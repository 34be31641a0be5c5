package io.sparkscope.server.web;

import io.sparkscope.server.web.http.Urls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sparkscope.server.web.StreamingFixture.DONE_APP;
import static io.sparkscope.server.web.StreamingFixture.LIVE_APP;
import static io.sparkscope.server.web.StreamingFixture.LIVE_QUERY;
import static io.sparkscope.server.web.StreamingFixture.QUERY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streaming pages in headless Chromium: the query page's charts draw the batches its table lists, and a RUNNING
 * application's pages take new numbers without a reload. Browser set-up and skipping (or failing in CI) as in
 * {@link WebBrowserTest}.
 */
@ExtendWith(Browser.class)
class StreamingBrowserTest {

    private static void open(String path) {
        Browser.open(StreamingFixture.base() + path);
    }

    private static JavascriptExecutor js() {
        return (JavascriptExecutor) WebBrowserTest.driver;
    }

    private static void chartsDrawn() {
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(20)).until(d -> Boolean.TRUE.equals(js()
                .executeScript("return typeof Chart !== 'undefined' && ['rate-chart', 'duration-chart', 'state-chart']"
                        + ".every(function (id) { return !!Chart.getChart(document.getElementById(id)); });")));
    }

    /** Per chart: its dataset labels, the points of its first dataset and how many of them are drawn in its area. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> chart(String id) {
        return (Map<String, Object>) js().executeScript(
                "var c = Chart.getChart(document.getElementById(arguments[0]));"
                        + "var meta = c.getDatasetMeta(0);"
                        + "return {labels: c.data.datasets.map(function (d) { return d.label; }),"
                        + " points: c.data.datasets[0].data.length,"
                        + " drawn: meta.data.filter(function (e) { return !e.skip && isFinite(e.x) && isFinite(e.y)"
                        + "   && e.x >= c.chartArea.left - 1 && e.x <= c.chartArea.right + 1"
                        + "   && e.y >= c.chartArea.top - 1 && e.y <= c.chartArea.bottom + 1; }).length};", id);
    }

    private static String card(String id) {
        return text("#" + id + " .card-value");
    }

    /**
     * The text of the element {@code css} selects, read in one script: a live page may swap the element between a
     * WebDriver lookup and a second call reading it.
     */
    private static String text(String css) {
        return (String) js().executeScript("var e = document.querySelector(arguments[0]);"
                + " return e ? e.textContent.trim() : null;", css);
    }

    @Test
    void theQueryPagesChartsDrawItsBatchesAndItsNumbersAreShown() throws Exception {
        open(Urls.query(DONE_APP, null, QUERY));
        chartsDrawn();
        Map<String, Object> rate = chart("rate-chart");
        assertEquals(List.of("Input rows/s", "Processed rows/s"), rate.get("labels"));
        assertEquals(45L, rate.get("points"), "one point per batch of both runs");
        // the first batch of each run has no input rate (Spark's NaN): 43 drawn
        assertEquals(43L, rate.get("drawn"));
        Map<String, Object> duration = chart("duration-chart");
        assertEquals(List.of("latestOffset", "getBatch", "queryPlanning", "addBatch", "walCommit", "commitOffsets",
                "other"), duration.get("labels"), "Spark's phases in the order a trigger runs them");
        assertEquals(45L, duration.get("drawn"));
        assertEquals("#3b6fd6", js().executeScript("return Chart.getChart(document.getElementById('duration-chart'))"
                + ".data.datasets.filter(function (d) { return d.label === 'addBatch'; })[0].backgroundColor;"),
                "a phase has its own colour whichever phases come before it");
        assertEquals("rgba(0,0,0,0)", js().executeScript("var c = Chart.getChart(document.getElementById('rate-chart'));"
                + " return c.data.datasets[1].segment.borderColor({chart: c, datasetIndex: 1, p0DataIndex: 29,"
                + " p1DataIndex: 30}) || 'drawn';"), "no line across the restart between batch 29 and 30");
        Map<String, Object> state = chart("state-chart");
        assertEquals(List.of("Rows in state", "State memory (MiB)"), state.get("labels"));
        assertEquals(45L, state.get("drawn"));
        assertEquals("45", card("card-batches"));
        assertEquals("4,500", card("card-input-rows"));
        assertEquals("900", card("card-state-rows"));
        assertEquals(45, WebBrowserTest.driver.findElements(By.cssSelector("#batch-table tbody tr")).size(),
                "the table lists the 45 batches");
        assertTrue(WebBrowserTest.driver.findElement(By.id("query-title")).getText().contains("<script>"),
                "the hostile name shows as text");
        WebBrowserTest.noAlert();
        WebBrowserTest.screenshot("streaming-query");
        js().executeScript("document.getElementById('rate-chart').scrollIntoView();");
        WebBrowserTest.screenshot("streaming-query-charts");
    }

    @Test
    void aRunningQueryPageAndItsAppPageTakeNewBatchesWithoutAReload() throws Exception {
        open(Urls.query(LIVE_APP, null, LIVE_QUERY) + "?refresh=1");
        chartsDrawn();
        assertEquals(String.valueOf(StreamingFixture.LIVE_BATCHES), card("card-batches"));
        assertEquals((long) StreamingFixture.LIVE_BATCHES, chart("rate-chart").get("points"));
        // a marker a reload would lose
        js().executeScript("window.sparkscopeNoReload = 42;");
        int now = StreamingFixture.advanceLive(7);
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(30))
                .until(d -> String.valueOf(now).equals(card("card-batches")));
        assertEquals(42L, js().executeScript("return window.sparkscopeNoReload;"), "updated in place, not reloaded");
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(10))
                .until(d -> ((Number) chart("rate-chart").get("points")).intValue() == now);
        assertEquals((long) now, chart("duration-chart").get("points"), "every chart took the new batches");
        assertTrue(text("#live-text").startsWith("Live"), text("#live-text"));
        WebBrowserTest.screenshot("streaming-query-live");

        open("/apps/" + LIVE_APP + "?refresh=1");
        js().executeScript("window.sparkscopeNoReload = 43;");
        String batchesCell = "#query-table tbody tr td:nth-child(4)";
        String before = text(batchesCell);
        int later = StreamingFixture.advanceLive(5);
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(30))
                .until(d -> String.valueOf(later).equals(text(batchesCell)));
        assertEquals(String.valueOf(later - 5), before);
        assertEquals(43L, js().executeScript("return window.sparkscopeNoReload;"));
        WebBrowserTest.noAlert();

        // the jobs tab: each batch ran a job, and new ones appear in place
        open("/apps/" + LIVE_APP + "/jobs?refresh=1");
        js().executeScript("window.sparkscopeNoReload = 44;");
        String rows = "return document.querySelectorAll('#job-table tbody tr').length;";
        assertEquals((long) later, js().executeScript(rows));
        int evenLater = StreamingFixture.advanceLive(3);
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(30))
                .until(d -> ((Number) js().executeScript(rows)).intValue() == evenLater);
        assertEquals(44L, js().executeScript("return window.sparkscopeNoReload;"), "updated in place, not reloaded");
        WebBrowserTest.noAlert();
    }
}
