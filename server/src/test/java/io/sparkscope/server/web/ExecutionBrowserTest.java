package io.sparkscope.server.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jobs and executors tabs and the task table in headless Chromium (shares {@link WebBrowserTest}'s browser and
 * its skip-or-fail rule): the tabs render, a column heading sorts, the pager pages, and at 420 px nothing scrolls
 * the page sideways (wide tables scroll inside their own box).
 */
@ExtendWith(Browser.class)
class ExecutionBrowserTest {
    static org.openqa.selenium.WebDriver driver;

    @org.junit.jupiter.api.BeforeAll
    static void useBrowser() {
        driver = WebBrowserTest.driver;
    }

    static void screenshot(String name) throws Exception {
        WebBrowserTest.screenshot(name);
    }

    static void noAlert() {
        WebBrowserTest.noAlert();
    }

    static void openApp(String path) {
        Browser.open(ExecutionFixture.base() + path);
    }

    @Test
    void tabsRenderAndTheTaskTableSortsAndPages() throws Exception {
        driver.manage().window().setSize(new Dimension(1400, 1000));
        openApp("/apps/" + ExecutionFixture.APP);
        driver.findElement(By.id("tab-jobs")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().endsWith("/jobs"));
        assertEquals(2, driver.findElements(By.cssSelector("#job-table tr.job-row")).size());
        screenshot("jobs-tab");
        driver.findElement(By.id("tab-executors")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().endsWith("/executors"));
        assertEquals(3, driver.findElements(By.cssSelector("#executor-table tr.executor-row")).size());
        screenshot("executors-tab");

        openApp("/apps/" + ExecutionFixture.APP + "/stages/0/0/tasks");
        assertEquals(100, driver.findElements(By.cssSelector("#task-table tr.task-row")).size());
        // "Run time" heading: longest first
        driver.findElement(By.linkText("Run time")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("sort=run_time"));
        List<Long> runTimes = driver.findElements(By.cssSelector("#task-table tr.task-row td:nth-child(10)")).stream()
                .map(e -> Long.parseLong(e.getText().replaceAll("[^0-9]", ""))).toList();
        for (int i = 1; i < runTimes.size(); i++) {
            assertTrue(runTimes.get(i - 1) >= runTimes.get(i), "sorted by run time, descending: " + runTimes);
        }
        String firstPage = driver.findElement(By.cssSelector("#task-table tr.task-row")).getAttribute("data-task");
        driver.findElement(By.id("page-next")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("offset=100"));
        assertTrue(driver.findElement(By.id("task-range")).getText().startsWith("Tasks 101"));
        assertTrue(!firstPage.equals(driver.findElement(By.cssSelector("#task-table tr.task-row")).getAttribute("data-task")));
        // the filter form: failed attempts only
        new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-status"))).selectByValue("failed");
        driver.findElement(By.id("f-apply")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("status=failed"));
        assertEquals(3, driver.findElements(By.cssSelector("#task-table tr.task-failed")).size());
        screenshot("task-table");
        noAlert();
    }

    @Test
    void narrowWindowHasNoSidewaysPageScroll() throws Exception {
        driver.manage().window().setSize(new Dimension(420, 900));
        try {
            for (String path : List.of("", "/jobs", "/executors", "/stages/0/0/tasks")) {
                openApp("/apps/" + ExecutionFixture.APP + path);
                long scroll = (Long) ((JavascriptExecutor) driver).executeScript(
                        "return document.documentElement.scrollWidth");
                long client = (Long) ((JavascriptExecutor) driver).executeScript(
                        "return document.documentElement.clientWidth");
                Object wide = ((JavascriptExecutor) driver).executeScript("var w = document.documentElement.clientWidth, out = [];"
                        + " document.querySelectorAll('body *').forEach(function (e) { var r = e.getBoundingClientRect();"
                        + " var p = e.parentElement, clipped = false; while (p) { var o = getComputedStyle(p).overflowX;"
                        + " if (o !== 'visible') { clipped = true; break; } p = p.parentElement; }"
                        + " if (!clipped && r.right > w + 1 && out.length < 8 || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && out.length < 8) out.push(e.tagName + '.' + e.className + '#' + e.id"
                        + " + ' right=' + Math.round(r.right)); }); return out.join('; ');");
                screenshot("narrow" + path.replace('/', '-'));
                assertTrue(scroll <= client, path + ": page is " + scroll + " px wide in a " + client + " px window: " + wide);
                screenshot("narrow" + path.replace('/', '-'));
            }
        } finally {
            driver.manage().window().setSize(new Dimension(1400, 1000));
        }
    }
}
