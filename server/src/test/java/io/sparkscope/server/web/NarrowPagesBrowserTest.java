package io.sparkscope.server.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every kind of page in headless Chromium at a phone's 420 px and a desktop's 1440 px (shares {@link WebBrowserTest}'s
 * browser and its skip-or-fail rule): the page itself never scrolls sideways, wide tables scroll inside their own
 * box. Each page is saved as target/screenshots/width-&lt;px&gt;-&lt;page&gt;.png to look at.
 */
@ExtendWith(Browser.class)
class NarrowPagesBrowserTest {

    /** Page name to full URL, over the shared fixtures that hold the data each page needs. */
    static Map<String, String> pages() {
        Map<String, String> p = new LinkedHashMap<>();
        String web = WebFixture.base();
        p.put("dashboard", web + "/");
        p.put("search", web + "/apps");
        p.put("app", web + "/apps/app-bigmem");
        p.put("app-jobs", web + "/apps/app-bigmem/jobs");
        p.put("app-executors", web + "/apps/app-bigmem/executors");
        p.put("app-sql-empty", web + "/apps/app-bigmem/sql");
        p.put("stage-timeline", web + "/apps/app-bigmem/stages/0/0/timeline");
        p.put("what-if", web + "/apps/app-bigmem/what-if");
        p.put("compare-2", web + "/compare?apps=app-etl-5,app-etl-3");
        p.put("compare-4", web + "/compare?apps=app-etl-0,app-etl-1,app-etl-2,app-etl-5");
        p.put("history-jobs", web + "/history");
        p.put("history-job", web + "/history?name=etl-daily");
        String exec = ExecutionFixture.base() + "/apps/" + ExecutionFixture.APP;
        p.put("exec-app", exec);
        p.put("exec-jobs", exec + "/jobs");
        p.put("exec-executors", exec + "/executors");
        p.put("exec-executor", exec + "/executors/2");
        p.put("exec-tasks", exec + "/stages/0/0/tasks");
        String stream = StreamingFixture.base();
        p.put("streaming-query", stream + "/apps/" + StreamingFixture.DONE_APP + "/queries/" + StreamingFixture.QUERY);
        String sqlApp = SqlFixture.base() + SqlBrowserTest.app();
        long execution = SqlBrowserTest.executionWithNodeFinding();
        p.put("sql-list", sqlApp + "/sql");
        p.put("sql-execution", sqlApp + "/sql/" + execution);
        p.put("sql-compare", SqlFixture.base() + "/compare/sql?apps=" + SqlFixture.runs().get(0).appId() + ","
                + SqlFixture.runs().get(1).appId() + "&execution=" + execution);
        return p;
    }

    @AfterEach
    void desktopAgain() {
        driver().manage().window().setSize(new Dimension(1400, 1000));
    }

    @Test
    void noPageScrollsSidewaysAt420() throws Exception {
        assertNoSidewaysScroll(420);
    }

    @Test
    void aWideTableScrollsInItsOwnBoxWithItsFirstColumnInView() throws Exception {
        Map<String, String> pages = pages();
        driver().manage().window().setSize(new Dimension(420, 900));
        Map<String, String> tables = Map.of("compare-4", "compare-table", "history-job", "history-table",
                "sql-list", "sql-table", "exec-tasks", "task-table");
        for (Map.Entry<String, String> table : tables.entrySet()) {
            String page = table.getKey();
            Browser.open(pages.get(page));
            JavascriptExecutor js = (JavascriptExecutor) driver();
            @SuppressWarnings("unchecked")
            Map<String, Object> box = (Map<String, Object>) js.executeScript(
                    "var t = document.getElementById(arguments[0]), b = t.parentElement;"
                    + " b.scrollLeft = 150;"
                    + " var first = t.querySelector('tbody tr:not(.section) > :first-child');"
                    + " return {box: b.className, wide: b.scrollWidth > b.clientWidth, scrolled: b.scrollLeft,"
                    + " left: Math.round(first.getBoundingClientRect().left - b.getBoundingClientRect().left)};",
                    table.getValue());
            assertTrue(box.get("box").equals("table-scroll") && Boolean.TRUE.equals(box.get("wide")),
                    page + ": the table is wider than its own scroll box: " + box);
            assertTrue(((Number) box.get("scrolled")).longValue() > 0, page + ": the box scrolls: " + box);
            assertTrue(Math.abs(((Number) box.get("left")).longValue()) <= 2,
                    page + ": the first column stays at the box's left edge when scrolled: " + box);
            WebBrowserTest.screenshot("width-420-" + page + "-scrolled");
        }
    }

    @Test
    void noPageScrollsSidewaysAt1440() throws Exception {
        assertNoSidewaysScroll(1440);
    }

    private static void assertNoSidewaysScroll(int width) throws Exception {
        Map<String, String> pages = pages();
        driver().manage().window().setSize(new Dimension(width, 900));
        List<String> wide = new ArrayList<>();
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Browser.open(page.getValue());
            JavascriptExecutor js = (JavascriptExecutor) driver();
            long scroll = (Long) js.executeScript("return document.documentElement.scrollWidth");
            // The window less its vertical scroll bar: a page as wide as the window still scrolls sideways by the
            // bar's width, so this is stricter than window.innerWidth.
            long client = (Long) js.executeScript("return document.documentElement.clientWidth");
            WebBrowserTest.screenshot("width-" + width + "-" + page.getKey());
            if (scroll > client) {
                wide.add(page.getKey() + " is " + scroll + " px wide (+" + (scroll - client) + "): " + js.executeScript(
                        "var w = document.documentElement.clientWidth, out = [];"
                        + " document.querySelectorAll('main *').forEach(function (e) {"
                        + " if (e.getBoundingClientRect().right > w + 1 && out.length < 3) out.push(e.tagName + '.'"
                        + " + e.className + '#' + e.id); }); return out.join(', ');"));
            }
        }
        assertTrue(wide.isEmpty(), "pages wider than a " + width + " px window: " + String.join("; ", wide));
    }

    private static WebDriver driver() {
        return WebBrowserTest.driver;
    }
}
