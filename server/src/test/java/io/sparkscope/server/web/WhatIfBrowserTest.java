package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The what-if page in headless Chromium: the chart draws the API's points, the table shows the same ones. Browser
 * set-up and skipping (or failing in CI) as in {@link WebBrowserTest}.
 */
@ExtendWith(Browser.class)
class WhatIfBrowserTest {

    private static void open(String path) {
        Browser.open(WhatIfFixture.base() + path);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> chart() {
        JavascriptExecutor js = (JavascriptExecutor) WebBrowserTest.driver;
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(10)).until(d -> Boolean.TRUE.equals(js.executeScript(
                "return typeof Chart !== 'undefined' && !!Chart.getChart(document.getElementById('whatif-chart'));")));
        return (Map<String, Object>) js.executeScript(
                "var c = Chart.getChart(document.getElementById('whatif-chart'));"
                        + "var meta = c.getDatasetMeta(0);"
                        + "return {series: c.data.datasets.map(function (d) { return d.label; }),"
                        + " xs: c.data.datasets[0].data.map(function (p) { return p.x; }),"
                        + " ms: c.data.datasets[0].data.map(function (p) { return p.ms; }),"
                        + " styles: c.data.datasets[0].pointStyle,"
                        + " drawn: meta.data.filter(function (e) { return isFinite(e.x) && isFinite(e.y)"
                        + "   && e.x >= c.chartArea.left && e.x <= c.chartArea.right"
                        + "   && e.y >= c.chartArea.top && e.y <= c.chartArea.bottom; }).length,"
                        + " actualRun: c.getDatasetMeta(1).data.length,"
                        + " flat: [c.data.datasets[2].data[0].ms, c.data.datasets[3].data[0].ms]};");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theChartDrawsTheApiPointsAndTheTableShowsTheSame() throws Exception {
        JsonNode api = WhatIfWebTest.api("/api/v1/apps/app-wi-cluster/what-if", 200);
        open("/apps/app-wi-cluster");
        WebBrowserTest.driver.findElement(By.id("whatif-link")).click();
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(20)).until(d ->
                d.getCurrentUrl().endsWith("/apps/app-wi-cluster/what-if") && !d.findElements(By.tagName("footer")).isEmpty());
        Map<String, Object> c = chart();
        int n = api.get("curve").size();
        List<Long> xs = new ArrayList<>();
        List<Long> ms = new ArrayList<>();
        List<String> styles = new ArrayList<>();
        for (JsonNode p : api.get("curve")) {
            xs.add(p.get("executors").asLong());
            ms.add(p.get("estimatedWallMs").asLong());
            styles.add(p.get("actual").asBoolean() ? "rectRot" : "circle");
        }
        assertEquals(xs, c.get("xs"), "x = executor counts");
        assertEquals(ms, c.get("ms"));
        assertEquals(styles, c.get("styles"), "the actual count is marked");
        assertEquals((long) n, c.get("drawn"), "every point inside the plot area");
        assertEquals(1L, c.get("actualRun"), "the measured run is drawn");
        assertEquals(List.of(api.get("criticalPathMs").asLong(), api.get("idealMs").asLong()), c.get("flat"));
        List<String> series = (List<String>) c.get("series");
        assertEquals(List.of("Simulated wall time", "Actual run (measured)", "Critical path", "Ideal at 8 slots"), series);

        List<WebElement> rows = WebBrowserTest.driver.findElements(By.cssSelector("#whatif-table tbody tr"));
        assertEquals(n, rows.size());
        for (int i = 0; i < n; i++) {
            assertEquals(String.valueOf(xs.get(i)), rows.get(i).getAttribute("data-executors"));
            assertEquals(String.valueOf(ms.get(i)), rows.get(i).getAttribute("data-ms"));
            assertEquals(String.valueOf(xs.get(i)), rows.get(i).findElements(By.tagName("td")).get(0).getText());
        }
        assertEquals(1, WebBrowserTest.driver.findElements(By.cssSelector("#whatif-table tr.actual")).size());
        WebBrowserTest.screenshot("whatif");
    }

    @Test
    void theIncompleteTaskNoticeShowsAndTheFormAsksForOtherCounts() throws Exception {
        open("/apps/" + WhatIfFixture.partialAppId() + "/what-if");
        WebElement notice = WebBrowserTest.driver.findElement(By.id("incomplete-tasks"));
        assertTrue(notice.isDisplayed());
        assertTrue(notice.getText().startsWith("Incomplete task data."), notice.getText());
        assertTrue(((Number) chart().get("drawn")).intValue() >= 5);
        WebBrowserTest.screenshot("whatif-partial");
        WebElement input = WebBrowserTest.driver.findElement(By.name("executors"));
        input.sendKeys("1,2,32");
        input.submit();
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("executors=1")
                && !d.findElements(By.tagName("footer")).isEmpty());
        List<WebElement> rows = WebBrowserTest.driver.findElements(By.cssSelector("#whatif-table tbody tr"));
        List<String> counts = rows.stream().map(r -> r.getAttribute("data-executors")).toList();
        assertTrue(counts.containsAll(List.of("1", "2", "32")), counts.toString());
        assertEquals(((Number) chart().get("drawn")).intValue(), rows.size());
    }
}
