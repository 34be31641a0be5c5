package io.sparkscope.server.web;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stage page and the application timeline in headless Chromium, over {@link StagePageWebTest}'s applications:
 * at 420 px and 1440 px the page never scrolls sideways (the per-executor table and the timeline drawing scroll in
 * their own boxes), and a stage bar of the timeline leads to that stage's page. Screenshots:
 * target/screenshots/stage-pages-&lt;px&gt;-&lt;page&gt;.png.
 */
@ExtendWith(Browser.class)
class StagePagesBrowserTest {
    static OwnServer server;

    @BeforeAll
    static void start() {
        var ds = WebFixture.newDatabase();
        WebFixture.write(ds, StagePageWebTest.twoStages());
        WebFixture.write(ds, StagePageWebTest.localTwo());
        server = OwnServer.over(ds);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void desktopAgain() {
        Browser.driver().manage().window().setSize(new Dimension(1400, 1000));
    }

    static Map<String, String> pages() {
        Map<String, String> p = new LinkedHashMap<>();
        String app = server.base() + "/apps/" + StagePageWebTest.APP;
        p.put("stage", app + "/stages/0/0");
        p.put("stage-retried", app + "/stages/1/1");
        p.put("timeline", app + "/timeline");
        p.put("timeline-local", server.base() + "/apps/" + StagePageWebTest.LOCAL + "/timeline");
        p.put("task-timeline-local", server.base() + "/apps/" + StagePageWebTest.LOCAL + "/stages/0/0/timeline");
        // the shared execution fixture: a 250-task stage with a name longer than a line, markup everywhere
        String exec = ExecutionFixture.base() + "/apps/" + ExecutionFixture.APP;
        p.put("exec-stage", exec + "/stages/0/0");
        p.put("exec-stage-failed", exec + "/stages/1/0");
        p.put("exec-timeline", exec + "/timeline");
        return p;
    }

    @Test
    void noSidewaysPageScrollAt420() throws Exception {
        noSidewaysScroll(420);
    }

    @Test
    void noSidewaysPageScrollAt1440() throws Exception {
        noSidewaysScroll(1440);
    }

    @Test
    void theTimelineScrollsInItsOwnBoxAndAStageBarLeadsToItsPage() throws Exception {
        Browser.driver().manage().window().setSize(new Dimension(420, 900));
        Browser.open(pages().get("timeline"));
        JavascriptExecutor js = (JavascriptExecutor) Browser.driver();
        @SuppressWarnings("unchecked")
        Map<String, Object> box = (Map<String, Object>) js.executeScript(
                "var b = document.getElementById('app-timeline-box'); b.scrollLeft = 200;"
                + " return {wide: b.scrollWidth > b.clientWidth, scrolled: b.scrollLeft};");
        assertEquals(Boolean.TRUE, box.get("wide"), "the drawing is wider than its box at 420 px: " + box);
        assertTrue(((Number) box.get("scrolled")).longValue() > 0, "its box scrolls: " + box);
        WebBrowserTest.screenshot("stage-pages-420-timeline-scrolled");
        js.executeScript("document.querySelector('a.stage-link rect[data-stage=\"1.1\"]').parentNode"
                + ".dispatchEvent(new MouseEvent('click', {bubbles: true}))");
        new org.openqa.selenium.support.ui.WebDriverWait(Browser.driver(), java.time.Duration.ofSeconds(20))
                .until(d -> d.getCurrentUrl().endsWith("/stages/1/1"));
        Browser.open(Browser.driver().getCurrentUrl());
        assertEquals("1.1", Browser.driver().findElement(org.openqa.selenium.By.id("stage-key")).getText());
    }

    @Test
    void aLocalTwoStagesTaskTimelineHasTwoLanesAndSaysWhyTasksOverlap() throws Exception {
        Browser.open(pages().get("task-timeline-local"));
        var d = Browser.driver();
        assertEquals(2, d.findElements(org.openqa.selenium.By.cssSelector("#timeline rect.lane")).size(),
                "local[2]: two task slots, two lanes, although three tasks overlap on the driver's clock");
        assertEquals("2", d.findElement(org.openqa.selenium.By.id("timeline")).getAttribute("data-lanes"));
        assertTrue(d.findElement(org.openqa.selenium.By.cssSelector("#timeline path.crowded")).isDisplayed(),
                "the bars drawn over a busy slot are outlined");
        assertTrue(d.findElement(org.openqa.selenium.By.id("timeline-artifact")).getText()
                .startsWith("Lanes are the executors' task slots, none added"));
        WebBrowserTest.screenshot("stage-pages-1440-task-timeline-local");
    }

    @Test
    void theStageDagsParentBoxLeadsToTheParentStage() throws Exception {
        Browser.open(pages().get("stage-retried"));
        var d = Browser.driver();
        var drawing = d.findElement(org.openqa.selenium.By.cssSelector("#stage-dag-drawing svg.plan"));
        assertTrue(drawing.isDisplayed() && drawing.getSize().getHeight() > 50, "the DAG is drawn: "
                + drawing.getSize());
        WebBrowserTest.screenshot("stage-pages-1440-stage-dag");
        ((JavascriptExecutor) d).executeScript("document.querySelector('#stage-dag-drawing g.stage-box.parent')"
                + ".dispatchEvent(new MouseEvent('click', {bubbles: true}))");
        new org.openqa.selenium.support.ui.WebDriverWait(d, java.time.Duration.ofSeconds(20))
                .until(x -> x.getCurrentUrl().endsWith("/stages/0/0"));
        Browser.open(d.getCurrentUrl());
        assertEquals("0.0", d.findElement(org.openqa.selenium.By.id("stage-key")).getText());
        assertEquals(20, d.findElements(org.openqa.selenium.By.cssSelector("#stage-task-table tr.task-row")).size(),
                "its slowest tasks on the page");
    }

    private static void noSidewaysScroll(int width) throws Exception {
        Browser.driver().manage().window().setSize(new Dimension(width, 900));
        StringBuilder wide = new StringBuilder();
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Browser.open(page.getValue());
            JavascriptExecutor js = (JavascriptExecutor) Browser.driver();
            long scroll = (Long) js.executeScript("return document.documentElement.scrollWidth");
            long client = (Long) js.executeScript("return document.documentElement.clientWidth");
            WebBrowserTest.screenshot("stage-pages-" + width + "-" + page.getKey());
            if (scroll > client) {
                wide.append(page.getKey()).append(" is ").append(scroll).append(" px wide: ").append(js.executeScript(
                        "var w = document.documentElement.clientWidth, out = [];"
                        + " document.querySelectorAll('main *').forEach(function (e) {"
                        + " if (e.getBoundingClientRect().right > w + 1 && out.length < 3) out.push(e.tagName + '.'"
                        + " + e.className + '#' + e.id); }); return out.join(', ');")).append("; ");
            }
        }
        assertTrue(wide.isEmpty(), "pages wider than a " + width + " px window: " + wide);
    }
}
