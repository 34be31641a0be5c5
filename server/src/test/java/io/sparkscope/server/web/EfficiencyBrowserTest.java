package io.sparkscope.server.web;

import io.sparkscope.core.analysis.efficiency.Prices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The efficiency section in headless Chromium: what a reader sees with and without the operator's prices, and a
 * currency label shown as the text it is. Browser set-up and skipping (or failing in CI) as in {@link WebBrowserTest}.
 */
@ExtendWith(Browser.class)
class EfficiencyBrowserTest {

    private static void open(String url) {
        Browser.open(url);
    }

    @Test
    void theCostFormulaIsReadableWithPricesAndTheHowToWithout() {
        open(EfficiencyFixture.priced() + "/apps/app-eff-most");
        String formula = WebBrowserTest.driver.findElement(By.id("cost-formula")).getText();
        assertTrue(formula.matches("Cost: [0-9.]+ core-h × 0\\.05 EUR \\+ [0-9.]+ GB-h × 0\\.006 EUR = [0-9.]+ EUR"),
                formula);
        assertTrue(WebBrowserTest.driver.findElement(By.id("waste-formula")).getText().startsWith("Wasted: "));

        open(EfficiencyFixture.unpriced() + "/apps/app-eff-most");
        assertEquals(0, WebBrowserTest.driver.findElements(By.id("cost-formula")).size());
        assertTrue(WebBrowserTest.driver.findElement(By.id("cost-how-to")).getText().contains("--cost-core-hour"));
        assertTrue(WebBrowserTest.driver.findElement(By.id("eff-cores")).getText().startsWith("Core-hours"));

        open(EfficiencyFixture.unpriced() + "/apps/app-eff-old");
        assertTrue(WebBrowserTest.driver.findElement(By.id("efficiency-not-computed")).getText()
                .startsWith("Not computed"));
    }

    @Test
    void theMinimumIdleCoreHoursFieldFiltersTheSearch() {
        open(EfficiencyFixture.unpriced() + "/apps?sort=waste");
        assertTrue(WebBrowserTest.driver.getPageSource().contains("app-eff-busy"));
        WebElement min = WebBrowserTest.driver.findElement(By.id("f-minWaste"));
        min.sendKeys("0.05");
        min.sendKeys(Keys.ENTER);
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(20))
                .until(d -> d.getCurrentUrl().contains("minWaste=0.05") && !d.findElements(By.tagName("footer")).isEmpty());
        String page = WebBrowserTest.driver.getPageSource();
        assertTrue(page.contains("app-eff-most"), "a wasteful run stays");
        assertTrue(!page.contains("app-eff-busy") && !page.contains("app-eff-old"),
                "the busy run and the one without figures are filtered out");
        assertTrue(WebBrowserTest.driver.getCurrentUrl().contains("sort=waste"), "the sort is kept");
    }

    @Test
    void aCurrencyLabelIsShownAsTextNeverAsMarkup() {
        // Prices refuses a label with markup (serve --currency '<b>' exits 2, ServeCostTest); what it accepts is
        // written through the page's escaping, so a sign outside ASCII arrives as the character itself.
        try (OwnServer s = EfficiencyFixture.start(new Prices(0.05, 0.006, "€ Kč"))) {
            open(s.base() + "/apps/app-eff-most");
            WebElement formula = WebBrowserTest.driver.findElement(By.id("cost-formula"));
            assertTrue(formula.getText().contains("0.05 € Kč + "), formula.getText());
            assertEquals(2, formula.findElements(By.tagName("strong")).size(),
                    "only the page's own markup (the label and the total), nothing from the currency");
            open(s.base() + "/");
            assertTrue(WebBrowserTest.driver.findElement(By.id("waste-total-cost")).getText().endsWith("€ Kč"));
        }
    }
}
