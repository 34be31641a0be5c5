package io.sparkscope.server.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application page's diagnosis in headless Chromium: the fix-first list is the first thing on the page, knock-on
 * findings are hidden under their cause until opened, and stage ids lead to the stage (its page, or its row on the
 * application page, which a stage's address leads to on a server without a stage page) and its timeline, where
 * the failed attempts are drawn as failed. Browser set-up and skipping (or failing in CI) as in
 * {@link WebBrowserTest}.
 */
@ExtendWith(Browser.class)
class DiagnosisBrowserTest {

    static WebDriver driver() {
        return WebBrowserTest.driver;
    }

    private static void open(String path) {
        Browser.open(DiagnosisFixture.base() + path);
    }

    private static WebElement finding(String id) {
        return driver().findElement(By.cssSelector("div.finding[data-finding='" + id + "']"));
    }

    @Test
    void fixFirstListOpensThePageAndLeadsToTheCause() throws Exception {
        open("/apps/app-diag");
        WebElement fix = driver().findElement(By.id("fix-first"));
        assertTrue(fix.isDisplayed());
        List<WebElement> items = fix.findElements(By.cssSelector("li.fix-item"));
        assertTrue(!items.isEmpty() && items.size() <= 3, items.size() + " items");
        assertEquals("TaskFailure:0.0", items.get(0).getAttribute("data-finding"));
        assertTrue(items.get(0).getText().startsWith("HIGH"), "severity word and colour: " + items.get(0).getText());
        assertTrue(items.get(0).getText().contains("could save about"), items.get(0).getText());
        // nothing but the page header comes before it
        WebElement metrics = driver().findElement(By.xpath("//h2[text()='Metrics']"));
        assertTrue(fix.getLocation().getY() < metrics.getLocation().getY(), "above the metrics");
        WebBrowserTest.screenshot("diagnosis-fix-first");
        items.get(0).findElement(By.tagName("a")).click();
        new WebDriverWait(driver(), Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("#finding-TaskFailure-0-0"));
        assertTrue(finding("TaskFailure:0.0").isDisplayed());
        assertEquals("rgba(214, 69, 69, 1)", driver().findElement(By.cssSelector(
                "div.finding[data-finding='TaskFailure:0.0'] > h3 .pill")).getCssValue("background-color"),
                "HIGH is red wherever it is written");
    }

    @Test
    void knockOnsAreCollapsedUnderTheirCause() throws Exception {
        open("/apps/app-diag");
        WebElement cause = finding("TaskFailure:0.0");
        WebElement knockOns = cause.findElement(By.cssSelector(":scope > details.knock-ons"));
        assertEquals(null, knockOns.getAttribute("open"), "collapsed");
        for (String id : List.of("StageFailure:0.0", "JobFailure", "StageFailure:1.0")) {
            WebElement f = finding(id);
            assertFalse(f.isDisplayed(), id + " is hidden until its cause is opened");
            assertTrue((Boolean) ((JavascriptExecutor) driver()).executeScript(
                    "return arguments[0].contains(arguments[1]);", cause, f), id + " sits inside its cause");
        }
        WebElement summary = knockOns.findElement(By.tagName("summary"));
        assertTrue(summary.getText().startsWith("3 knock-on findings caused by this"), summary.getText());
        summary.click();
        for (String id : List.of("StageFailure:0.0", "JobFailure", "StageFailure:1.0")) {
            assertTrue(finding(id).isDisplayed(), id + " shows once opened");
        }
        ((JavascriptExecutor) driver()).executeScript("arguments[0].scrollIntoView()", cause);
        WebBrowserTest.screenshot("diagnosis-knock-ons");
        // a knock-on's own knock-ons open with it: the cancelled stage is under the stage failure
        WebElement stageFailure = finding("StageFailure:0.0");
        assertTrue((Boolean) ((JavascriptExecutor) driver()).executeScript("return arguments[0].contains(arguments[1]);",
                stageFailure, finding("StageFailure:1.0")));
    }

    @Test
    void stageIdsLinkToTheStageAndItsTimeline() throws Exception {
        open("/apps/app-diag");
        WebElement cause = finding("TaskFailure:0.0");
        WebElement stage = cause.findElement(By.cssSelector("p.where a.stage-link[data-stage='0.0']"));
        assertEquals("0.0", stage.getText());
        stage.click();
        new WebDriverWait(driver(), Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("#stage-0.0")
                || d.getCurrentUrl().endsWith("/stages/0/0") && !d.findElements(By.tagName("footer")).isEmpty());
        if (driver().getCurrentUrl().endsWith("/stages/0/0")) {
            // the stage's own page, where the server has one: it names the stage
            assertTrue(driver().findElements(By.cssSelector("h1, h2")).stream()
                    .anyMatch(h -> h.getText().matches("(?s).*Stage 0\\b.*")), "the stage page names the stage");
            open("/apps/app-diag#stage-0.0");
        }
        WebElement row = driver().findElement(By.id("stage-0.0"));
        assertTrue(row.isDisplayed());
        assertEquals("0.0", row.getAttribute("data-stage"));
        // the row is in the window (at its top, or as far up as the end of the page lets it go) and marked
        JavascriptExecutor js = (JavascriptExecutor) driver();
        long top = (Long) js.executeScript("return Math.round(arguments[0].getBoundingClientRect().top);", row);
        long bottom = (Long) js.executeScript("return Math.round(arguments[0].getBoundingClientRect().bottom);", row);
        long window = (Long) js.executeScript("return window.innerHeight;");
        long scrolled = (Long) js.executeScript("return Math.round(window.scrollY);");
        long rest = (Long) js.executeScript("return Math.round(document.documentElement.scrollHeight"
                + " - window.scrollY - window.innerHeight);");
        assertTrue(top >= -2 && bottom <= window, "the stage's row is in view: " + top + "–" + bottom);
        assertTrue(scrolled > 0 && (top < 200 || rest <= 2), "scrolled to it: top " + top + ", " + rest + " px below");
        assertEquals("rgba(255, 243, 196, 1)", row.findElement(By.tagName("td")).getCssValue("background-color"),
                "the linked row is highlighted");
        open("/apps/app-diag");
        finding("TaskFailure:0.0").findElement(By.cssSelector("p.where a.timeline-link[data-stage='0.0']")).click();
        new WebDriverWait(driver(), Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().endsWith("/stages/0/0/timeline")
                && !d.findElements(By.tagName("footer")).isEmpty());
        WebElement failed = driver().findElement(By.cssSelector("#timeline path.failed"));
        assertTrue(failed.getSize().getWidth() > 1, "the four failed attempts are drawn");
        assertEquals("rgb(180, 35, 24)", failed.getCssValue("stroke"), "outlined red");
        assertTrue(failed.getCssValue("fill").contains("failed-hatch"), "and hatched: " + failed.getCssValue("fill"));
        assertTrue(driver().findElement(By.id("timeline-failed")).getText().contains("4 failed task attempts"));
        WebBrowserTest.screenshot("diagnosis-timeline-failed");
    }

    @Test
    void historyListsJobsToPickAndOpensOneWithItsChart() throws Exception {
        open("/history");
        String alice = DiagnosisFixture.jobKey("etl", "alice", DiagnosisFixture.ALICE_ETL);
        WebElement row = driver().findElement(By.cssSelector("#recurring-jobs tr.job-row[data-job='" + alice + "']"));
        assertTrue(row.getText().contains("com.example.Etl"), row.getText());
        WebElement trend = row.findElement(By.cssSelector("td.trend"));
        assertTrue(trend.getText().contains("slower than usual"), trend.getText());
        assertEquals("rgba(180, 35, 24, 1)", trend.getCssValue("color"), "a slower trend stands out");
        WebBrowserTest.screenshot("history-jobs");
        row.findElement(By.tagName("a")).click();
        new WebDriverWait(driver(), Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("/history?job=")
                && (Boolean) ((JavascriptExecutor) d).executeScript("return typeof Chart !== 'undefined'"
                + " && !!Chart.getChart(document.getElementById('history-chart'));"));
        assertEquals(alice, driver().findElement(By.id("job-key")).getAttribute("data-job"));
        long points = (Long) ((JavascriptExecutor) driver()).executeScript("return Chart.getChart("
                + "document.getElementById('history-chart')).data.datasets[0].data.length;");
        assertEquals(5, points, "alice's five runs, not bob's");
        assertEquals(5, driver().findElements(By.cssSelector("#history-table tbody tr")).size());
        assertEquals(1, driver().findElements(By.cssSelector("#history-table tbody tr.slow")).size(),
                "the slow fifth run is marked");
    }
}
