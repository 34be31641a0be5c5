package io.sparkscope.server.web;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;

/**
 * The headless Chromium of the browser tests: {@code @ExtendWith(Browser.class)} starts it before a class's tests
 * and stops it after them, skipping the class (or failing in CI) without the browser, as {@link WebBrowserTest}
 * does; {@link #open} loads a page and waits until it is all there.
 */
public final class Browser implements BeforeAllCallback, AfterAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        WebBrowserTest.startBrowser();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        WebBrowserTest.stopBrowser();
    }

    static WebDriver driver() {
        return WebBrowserTest.driver;
    }

    /** Loads {@code url} and waits for its footer. */
    static void open(String url) {
        WebBrowserTest.driver.get(url);
        // On a loaded machine the driver can return before the whole document is parsed: the footer comes last.
        new WebDriverWait(WebBrowserTest.driver, Duration.ofSeconds(20))
                .until(d -> !d.findElements(By.tagName("footer")).isEmpty());
    }
}
