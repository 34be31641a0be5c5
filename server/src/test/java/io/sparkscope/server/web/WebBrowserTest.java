package io.sparkscope.server.web;

import io.sparkscope.server.web.http.Urls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pages in headless Chromium (Debian chromium + chromium-driver). Without the browser the class is
 * skipped with a message on a developer machine, and FAILS in CI (CI=true), where .ci/run installs it.
 */
class WebBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static WebDriver driver;
    static Path profile;

    @BeforeAll
    static void startBrowser() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String msg = "headless Chromium not found (" + CHROMIUM + ", " + CHROMEDRIVER
                    + "): apt-get install -y chromium chromium-driver";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(msg + " — browser tests are required in CI");
            }
            Assumptions.abort("skipping browser tests: " + msg);
        }
        profile = Files.createTempDirectory("sparkscope-chromium-");
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, o);
        driver.manage().window().setSize(new Dimension(1400, 1000));
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopBrowser() throws Exception {
        if (driver != null) {
            driver.quit();
        }
        if (profile != null) {
            try (var s = Files.walk(profile)) {
                s.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    static void open(String path) {
        Browser.open(WebFixture.base() + path);
    }

    static void screenshot(String name) throws Exception {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        File f = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), dir.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    static int panels() {
        return driver.findElements(By.cssSelector("article.app-panel")).size();
    }

    static void noAlert() {
        assertThrows(NoAlertPresentException.class, () -> driver.switchTo().alert(), "an alert opened");
    }

    @Test
    void searchFiltersNarrowResults() throws Exception {
        open("/apps");
        assertEquals(50, panels());
        screenshot("search");
        driver.findElement(By.id("f-name")).sendKeys("etl");
        driver.findElement(By.id("apply")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("name=etl")
                && !d.findElements(By.tagName("footer")).isEmpty());
        assertEquals(6, panels());
        new Select(driver.findElement(By.id("f-severity"))).selectByValue("high");
        driver.findElement(By.id("f-name")).clear();
        driver.findElement(By.id("f-user")).sendKeys("bob");
        driver.findElement(By.id("apply")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("user=bob")
                && !d.findElements(By.tagName("footer")).isEmpty());
        assertEquals(1, panels());
        driver.findElement(By.linkText("last day")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("since=1d")
                && !d.findElements(By.tagName("footer")).isEmpty());
        assertTrue(driver.getCurrentUrl().contains("since=1d"));
        assertEquals(1, panels());
    }

    @Test
    void bannersAndColours() throws Exception {
        open("/apps?appId=app-bigmem");
        WebElement panel = driver.findElement(By.cssSelector("article.app-panel"));
        assertEquals("rgba(214, 69, 69, 1)", panel.getCssValue("border-left-color"), "red traffic light");
        List<WebElement> high = driver.findElements(By.cssSelector(".banner.banner-high"));
        List<WebElement> low = driver.findElements(By.cssSelector(".banner.banner-low"));
        assertFalse(high.isEmpty());
        assertFalse(low.isEmpty());
        assertEquals("rgba(253, 236, 236, 1)", high.get(0).getCssValue("background-color"));
        assertEquals("rgba(255, 246, 214, 1)", low.get(0).getCssValue("background-color"));
        assertFalse(high.get(0).getAttribute("title").isBlank(), "finding message on hover");
        new Actions(driver).moveToElement(high.get(0)).perform();
        open("/apps?severity=low");
        for (WebElement p : driver.findElements(By.cssSelector("article.app-panel"))) {
            assertEquals("rgba(224, 168, 0, 1)", p.getCssValue("border-left-color"), "yellow traffic light");
        }
        open("/apps/app-bigmem");
        screenshot("application");
    }

    @Test
    void compareHighlightsDifferingConfig() throws Exception {
        open("/apps?name=etl");
        // pick two runs with the checkboxes and press "Compare selected"
        driver.findElement(By.cssSelector("input[name=apps][value='app-etl-5']")).click();
        driver.findElement(By.cssSelector("input[name=apps][value='app-etl-3']")).click();
        driver.findElement(By.id("compare-selected")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().contains("/compare")
                && !d.findElements(By.tagName("footer")).isEmpty());
        WebElement row = driver.findElement(By.cssSelector("tr.config-row[data-key='spark.sql.shuffle.partitions']"));
        assertTrue(row.getAttribute("class").contains("differs"));
        List<WebElement> cells = row.findElements(By.cssSelector("td.diff"));
        assertEquals(2, cells.size());
        assertEquals("rgba(255, 241, 201, 1)", cells.get(0).getCssValue("background-color"), "highlighted");
        assertTrue(cells.stream().anyMatch(c -> c.getText().equals("800")));
        WebElement same = driver.findElement(By.cssSelector("tr.config-row[data-key='spark.executor.memory']"));
        assertTrue(same.findElements(By.cssSelector("td.diff")).isEmpty());
        screenshot("compare");
    }

    @Test
    @SuppressWarnings("unchecked")
    void historyChartDrawsPointsAndClicksThrough() throws Exception {
        open("/history?name=etl-daily");
        JavascriptExecutor js = (JavascriptExecutor) driver;
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> Boolean.TRUE.equals(js.executeScript(
                "return typeof Chart !== 'undefined' && !!Chart.getChart(document.getElementById('history-chart'));")));
        Map<String, Object> data = (Map<String, Object>) js.executeScript(
                "var c = Chart.getChart(document.getElementById('history-chart'));"
                        + "return {n: c.data.datasets[0].data.length, series: c.data.datasets.length,"
                        + " slow: c.data.datasets[0].pointStyle[4], drawn: c.getDatasetMeta(0).data.length};");
        assertEquals(6L, data.get("n"));
        assertEquals(3L, data.get("series"), "duration, task time, spill");
        assertEquals("triangle", data.get("slow"), "the slow run is marked");
        assertEquals(6L, data.get("drawn"));
        screenshot("history");
        // click the 5th point: opens that run
        Map<String, Object> pt = (Map<String, Object>) js.executeScript(
                "var c = Chart.getChart(document.getElementById('history-chart'));"
                        + "var p = c.getDatasetMeta(0).data[4]; var r = c.canvas.getBoundingClientRect();"
                        + "return {x: p.x, y: p.y, w: r.width, h: r.height};");
        WebElement canvas = driver.findElement(By.id("history-chart"));
        double x = ((Number) pt.get("x")).doubleValue() - ((Number) pt.get("w")).doubleValue() / 2;
        double y = ((Number) pt.get("y")).doubleValue() - ((Number) pt.get("h")).doubleValue() / 2;
        new Actions(driver).moveToElement(canvas, (int) Math.round(x), (int) Math.round(y)).pause(Duration.ofMillis(200))
                .click().perform();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/apps/app-etl-4"));
    }

    @Test
    void xssNamesDoNotExecute() throws Exception {
        open("/apps?since=1d");
        noAlert();
        String text = driver.findElement(By.tagName("body")).getText();
        assertTrue(text.contains(WebFixture.XSS1), "script name visible as text");
        assertTrue(text.contains(WebFixture.XSS2), "img name visible as text");
        assertTrue(driver.findElements(By.cssSelector("main img")).isEmpty(), "no injected <img>");
        screenshot("search-xss");
        for (String path : List.of("/apps/app-xss-1", "/apps/app-xss-2", "/compare?apps=app-xss-1,app-xss-2",
                "/history?name=" + Urls.enc(WebFixture.XSS1))) {
            open(path);
            noAlert();
            assertTrue(driver.findElements(By.cssSelector("main img")).isEmpty(), path);
            assertTrue(driver.findElement(By.tagName("main")).getText().contains(WebFixture.XSS1)
                    || driver.findElement(By.tagName("main")).getText().contains(WebFixture.XSS2), path);
        }
        open("/apps/app-xss-1");
        driver.findElement(By.cssSelector("#all-config summary")).click();
        driver.findElement(By.id("config-filter")).sendKeys("custom.note");
        List<WebElement> visible = driver.findElements(By.cssSelector("#config-table tbody tr")).stream()
                .filter(WebElement::isDisplayed).toList();
        assertEquals(1, visible.size(), "client-side config filter");
        assertTrue(visible.get(0).getText().contains(WebFixture.XSS1));
        noAlert();
    }
    @Test
    void stageTimelineShowsBarsAndThePhaseLegend() throws Exception {
        open("/apps/app-bigmem");
        assertEquals(4, driver.findElements(By.cssSelector("#stage-table svg.breakdown")).size(),
                "a where-task-time-went bar per stage");
        ((JavascriptExecutor) driver).executeScript("document.getElementById('stages').scrollIntoView()");
        screenshot("app-stage-breakdown");
        driver.findElement(By.cssSelector("tr.stage-row[data-stage='0.0'] a.timeline-link")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().endsWith("/stages/0/0/timeline")
                && !d.findElements(By.tagName("footer")).isEmpty());
        WebElement svg = driver.findElement(By.id("timeline"));
        assertTrue(svg.isDisplayed());
        assertTrue(svg.getSize().getWidth() > 500 && svg.getSize().getHeight() > 50, svg.getSize().toString());
        // bars: the run phase is drawn, with its colour, and every bar has hover text
        WebElement run = driver.findElement(By.cssSelector("#timeline path[data-phase='run']"));
        assertEquals("rgb(59, 138, 90)", run.getCssValue("fill"));
        assertTrue(run.getSize().getWidth() > 10, "run segments span the chart");
        List<WebElement> hits = driver.findElements(By.cssSelector("#timeline rect.hit"));
        assertFalse(hits.isEmpty());
        assertTrue(hits.get(0).findElement(By.tagName("title")).getAttribute("textContent").contains(" · run "));
        // the legend names the five phases, driver or executor side, in colours matching the bars
        List<WebElement> legend = driver.findElements(By.cssSelector("#timeline-legend li[data-phase]"));
        assertEquals(5, legend.size());
        String text = driver.findElement(By.id("timeline-legend")).getText();
        for (String label : List.of("Scheduler delay", "Task deserialization", "Executor computing",
                "Result serialization", "Getting result")) {
            assertTrue(text.contains(label), label);
        }
        assertEquals(run.getCssValue("fill"), driver.findElement(By.cssSelector(
                "#timeline-legend li[data-phase='run'] rect")).getCssValue("fill"));
        // ten tasks launched within 60 ms on a 4-core driver: more at once than cores, yet 4 lanes, and explained
        assertEquals(4, driver.findElements(By.cssSelector("#timeline rect.lane")).size(), "one lane per core");
        assertTrue(driver.findElement(By.id("timeline-artifact")).isDisplayed());
        new Actions(driver).moveToElement(hits.get(0)).perform();
        screenshot("stage-timeline");
        noAlert();
    }
}
