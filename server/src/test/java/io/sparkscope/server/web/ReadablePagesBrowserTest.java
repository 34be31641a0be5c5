package io.sparkscope.server.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In headless Chromium (shares {@link WebBrowserTest}'s browser and its skip-or-fail rule): a comparison of four runs
 * fits a 1440 px window whole, and the plan graph zooms with its buttons and pans by dragging. Screenshots go to
 * target/screenshots.
 */
@ExtendWith(Browser.class)
class ReadablePagesBrowserTest {

    @AfterEach
    void desktopAgain() {
        Browser.driver().manage().window().setSize(new Dimension(1400, 1000));
    }

    @Test
    void fourRunsCompareSideBySideIn1440Px() throws Exception {
        Browser.driver().manage().window().setSize(new Dimension(1440, 900));
        Browser.open(ReadableFixture.base() + "/compare?apps=app-run-0,app-run-1,app-run-2,app-run-3");
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) js().executeScript(
                "var t = document.getElementById('compare-table'), box = t.parentElement,"
                + " runs = t.querySelectorAll('thead th.run'), last = runs[runs.length - 1];"
                + " return {page: document.documentElement.scrollWidth - document.documentElement.clientWidth,"
                + " box: box.scrollWidth - box.clientWidth, runs: runs.length,"
                + " lastRight: Math.round(last.getBoundingClientRect().right - box.getBoundingClientRect().right)};");
        WebBrowserTest.screenshot("readable-compare-4-at-1440");
        assertEquals(4L, ((Number) m.get("runs")).longValue());
        assertTrue(((Number) m.get("page")).longValue() <= 0, "the page does not scroll sideways: " + m);
        assertTrue(((Number) m.get("box")).longValue() <= 0, "nor does the table: all four runs in view: " + m);
        assertTrue(((Number) m.get("lastRight")).longValue() <= 0, "the fourth run's column ends inside: " + m);
    }

    @Test
    void planGraphZoomsWithItsButtonsAndPansByDragging() throws Exception {
        Browser.driver().manage().window().setSize(new Dimension(1440, 900));
        Browser.open(ReadableFixture.base() + "/apps/" + ReadableFixture.APP + "/sql/0");
        WebElement tools = Browser.driver().findElement(By.id("plan-tools"));
        assertTrue(tools.isDisplayed(), "the script shows the zoom buttons");
        WebElement svg = Browser.driver().findElement(By.cssSelector("#plan-graph svg"));
        double width = Double.parseDouble(svg.getAttribute("width"));
        String viewBox = svg.getAttribute("viewBox");
        double drawn = svg.getRect().getWidth();

        tools.findElement(By.cssSelector("[data-zoom='in']")).click();
        tools.findElement(By.cssSelector("[data-zoom='in']")).click();
        double zoomed = Double.parseDouble(svg.getAttribute("width"));
        assertEquals(width * 1.25 * 1.25, zoomed, 0.5, "two steps of 125 %");
        assertTrue(svg.getRect().getWidth() > drawn * 1.5, "drawn larger: " + svg.getRect().getWidth());
        assertEquals(viewBox, svg.getAttribute("viewBox"), "the same drawing, scaled");
        assertEquals("156 %", tools.findElement(By.className("zoom-level")).getText());
        WebBrowserTest.screenshot("readable-plan-zoomed");

        // zoomed past its box, the graph pans by dragging its background
        for (int i = 0; i < 4; i++) {
            tools.findElement(By.cssSelector("[data-zoom='in']")).click();
        }
        WebElement box = Browser.driver().findElement(By.id("plan-graph"));
        js().executeScript("arguments[0].scrollLeft = 0; arguments[0].scrollTop = 0;", box);
        assertTrue((Boolean) js().executeScript("return arguments[0].scrollHeight > arguments[0].clientHeight"
                + " || arguments[0].scrollWidth > arguments[0].clientWidth;", box), "larger than its box");
        js().executeScript("arguments[0].scrollIntoView(true);", box);
        // from the box's right side near its top (the graph's background: its boxes are drawn from the left)
        new Actions(Browser.driver()).moveToElement(box, box.getRect().getWidth() / 2 - 40,
                        100 - box.getRect().getHeight() / 2).clickAndHold().moveByOffset(-80, -60).release().perform();
        long moved = (Long) js().executeScript("return Math.round(arguments[0].scrollLeft + arguments[0].scrollTop);",
                box);
        assertTrue(moved > 0, "dragging scrolled the box");

        tools.findElement(By.cssSelector("[data-zoom='reset']")).click();
        assertEquals(width, Double.parseDouble(svg.getAttribute("width")), 0.5, "1:1 again");
        tools.findElement(By.cssSelector("[data-zoom='out']")).click();
        assertTrue(Double.parseDouble(svg.getAttribute("width")) < width, "zoomed out");
        assertFalse(tools.findElement(By.className("zoom-level")).getText().equals("100 %"));
    }

    private static JavascriptExecutor js() {
        return (JavascriptExecutor) Browser.driver();
    }
}
