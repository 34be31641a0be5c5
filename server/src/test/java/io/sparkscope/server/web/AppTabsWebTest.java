package io.sparkscope.server.web;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.server.web.ExecutionFixture.APP;
import static io.sparkscope.server.web.ExecutionFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tab bar and the routes come from one list: every tab the bar shows is served, and marks itself current. */
class AppTabsWebTest {
    private static final Pattern TAB = Pattern.compile("<a [^>]*id=\"tab-([a-z_-]+)\"[^>]*>");
    private static final Pattern HREF = Pattern.compile("href=\"([^\"]+)\"");

    static Map<String, String> tabs(String page) {
        Map<String, String> tabs = new LinkedHashMap<>();
        Matcher m = TAB.matcher(page);
        while (m.find()) {
            Matcher href = HREF.matcher(m.group());
            assertTrue(href.find(), m.group());
            tabs.put(m.group(1), href.group(1).replace("&amp;", "&"));
        }
        return tabs;
    }

    @Test
    void everyTabInTheBarIsServedAndCurrentOnItsOwnPage() {
        var overview = get("/apps/" + APP);
        assertEquals(200, overview.status(), overview.body());
        Map<String, String> tabs = tabs(overview.body());
        assertEquals(List.of("overview", "jobs", "executors", "sql", "timeline"), List.copyOf(tabs.keySet()));
        for (Map.Entry<String, String> t : tabs.entrySet()) {
            var r = get(t.getValue());
            assertEquals(200, r.status(), t.getValue());
            Matcher m = TAB.matcher(r.body());
            boolean current = false;
            while (m.find()) {
                if (m.group(1).equals(t.getKey())) {
                    current = m.group().contains("aria-current=\"page\"");
                }
            }
            assertTrue(current, t.getKey() + " is the current tab on " + t.getValue());
            assertEquals(tabs, tabs(r.body()), "the same bar on " + t.getValue());
        }
    }
}
