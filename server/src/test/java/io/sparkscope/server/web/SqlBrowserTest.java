package io.sparkscope.server.web;

import io.sparkscope.core.model.SqlExecutionSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQL tab and an execution's plan graph in headless Chromium (shares {@link WebBrowserTest}'s browser and its
 * skip-or-fail rule), on the real local Spark runs of {@link SqlFixture}: the graph's boxes render with a size, a
 * finding's mark is visible on its node and leads to the operator's row, and at 420 px the page does not scroll
 * sideways (the graph scrolls inside its own box).
 */
@ExtendWith(Browser.class)
class SqlBrowserTest {
    static org.openqa.selenium.WebDriver driver;

    @org.junit.jupiter.api.BeforeAll
    static void useBrowser() {
        driver = WebBrowserTest.driver;
    }

    static void open(String path) {
        Browser.open(SqlFixture.base() + path);
    }

    static String app() {
        return "/apps/" + SqlFixture.runs().get(0).appId();
    }

    /** The first execution whose page carries a finding on a node. */
    static long executionWithNodeFinding() {
        for (SqlExecutionSummary sql : SqlFixture.runs().get(0).sqlExecutions()) {
            if (SqlFixture.get(app() + "/sql/" + sql.executionId()).body().contains("has-finding")) {
                return sql.executionId();
            }
        }
        throw new AssertionError("no query carries a finding on a node");
    }

    @Test
    void graphRendersAndAFindingIsVisibleOnItsNode() throws Exception {
        driver.manage().window().setSize(new Dimension(1400, 1000));
        open(app());
        driver.findElement(By.id("tab-sql")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().endsWith("/sql"));
        assertEquals(SqlFixture.runs().get(0).sqlExecutions().size(),
                driver.findElements(By.cssSelector("#sql-table tr.sql-row")).size());
        WebBrowserTest.screenshot("sql-tab");

        long id = executionWithNodeFinding();
        open(app() + "/sql/" + id);
        List<WebElement> nodes = driver.findElements(By.cssSelector("#plan-graph g.plan-node"));
        assertTrue(nodes.size() > 3, "operators drawn");
        for (WebElement n : nodes) {
            org.openqa.selenium.Rectangle r = n.getRect();
            assertTrue(r.getWidth() > 50 && r.getHeight() > 20, "a box with a size: " + r.getDimension());
        }
        assertTrue(!driver.findElements(By.cssSelector("#plan-graph g.plan-cluster")).isEmpty(), "codegen clusters");
        WebElement marked = driver.findElement(By.cssSelector("#plan-graph g.plan-node.has-finding"));
        ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", marked);
        WebElement mark = marked.findElement(By.cssSelector("text.finding-mark"));
        assertTrue(mark.isDisplayed() && mark.getText().startsWith("⚠"), "the finding's mark shows: " + mark.getText());
        String node = marked.getAttribute("data-node");
        WebBrowserTest.screenshot("sql-plan");
        // the box links to its operator row, which names the finding too
        ((JavascriptExecutor) driver).executeScript("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                mark);
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().endsWith("#node-" + node));
        WebElement row = driver.findElement(By.id("node-" + node));
        assertTrue(row.findElement(By.cssSelector(".node-finding")).isDisplayed());
        WebBrowserTest.noAlert();
    }

    @Test
    void narrowWindowHasNoSidewaysPageScroll() throws Exception {
        driver.manage().window().setSize(new Dimension(420, 900));
        try {
            for (String path : List.of("/sql", "/sql/" + executionWithNodeFinding())) {
                open(app() + path);
                long scroll = (Long) ((JavascriptExecutor) driver).executeScript(
                        "return document.documentElement.scrollWidth");
                long client = (Long) ((JavascriptExecutor) driver).executeScript(
                        "return document.documentElement.clientWidth");
                WebBrowserTest.screenshot("narrow-sql" + path.replace('/', '-'));
                assertTrue(scroll <= client, path + ": page is " + scroll + " px wide in a " + client + " px window");
            }
        } finally {
            driver.manage().window().setSize(new Dimension(1400, 1000));
        }
    }
}
