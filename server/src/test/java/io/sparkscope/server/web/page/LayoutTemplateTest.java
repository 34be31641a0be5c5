package io.sparkscope.server.web.page;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The frame from layout.jte is the frame the code wrote, for template pages and pages written in code alike. */
class LayoutTemplateTest {
    /** The error page as Layout wrote it in code, with the application list's entry marked active. */
    private static final String HEAD = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>T &lt;b&gt; &#183; "
            + "Sparkscope</title><link rel=\"stylesheet\" href=\"/static/sparkscope.css\"><script "
            + "src=\"/static/sparkscope.js\" defer></script></head><body><header class=\"top\"><a class=\"brand\" "
            + "href=\"/\">Sparkscope</a><nav><a href=\"/\">Dashboard</a><a href=\"/apps\" class=\"active\">"
            + "Applications</a><a href=\"/apps?status=running\">Running now</a><a href=\"/compare\">Compare</a>"
            + "<a href=\"/history\">History</a></nav></header><main>";
    private static final String TAIL = "</main><footer>Sparkscope &#183; times in UTC &#183; <a href=\"/api/v1/apps\">"
            + "JSON API</a></footer></body></html>";

    @Test
    void framesAPageWrittenInCodeAsBefore() {
        Html h = Layout.start("T <b>", "Applications");
        h.raw("<p>body — text</p>");
        assertEquals(HEAD + "<p>body &#8212; text</p>" + TAIL, Layout.end(h));
    }

    @Test
    void errorPageAsBefore() {
        String page = Layout.error(404, "Not <found>", "No application \"x\" & co.");
        String expected = HEAD.replace("T &lt;b&gt;", "Not &lt;found&gt;").replace(" class=\"active\"", "")
                + "<section class=\"error-page\"><h1>404 &#183; Not &lt;found&gt;</h1><p class=\"error-message\">No "
                + "application &quot;x&quot; &amp; co.</p><p><a href=\"/apps\">Search applications</a> &#183; "
                + "<a href=\"/\">Dashboard</a></p></section>" + TAIL;
        assertEquals(expected, page);
    }

    @Test
    void liveLineAsBefore() {
        Html h = new Html();
        Layout.live(h, "/api/v1/apps?q=<x>", null, null, 7, "it runs");
        assertEquals("<p id=\"live-status\" class=\"live\" data-live-url=\"/api/v1/apps?q=&lt;x&gt;\" data-live-version=\"\""
                + " data-refresh-ms=\"7000\"><span class=\"live-dot\"></span> <span id=\"live-text\">Live: it runs; this "
                + "page updates every 7 s (<code>?refresh=</code> sets it)</span></p><script src=\"/static/live.js\" "
                + "defer></script>", h.toString());
        Html f = new Html();
        Layout.live(f, "/a", "lastEventTime", "5/RUNNING", 10, "s");
        assertEquals(true, f.toString().contains("data-live-url=\"/a\" data-live-field=\"lastEventTime\" "
                + "data-live-version=\"5/RUNNING\" data-refresh-ms=\"10000\">"), f.toString());
    }

    @Test
    void applicationTabFrameAsBefore() {
        var app = new io.sparkscope.store.query.AppRefs.Resolved(1, "app-<1>", "2", "", 1_000, 0, 5_000, false);
        Html h = AppTabs.page(app, AppTabs.Tab.JOBS, "Jobs", new AppTabs.Live(6_000, 30));
        h.raw("<p>x</p>");
        String page = AppTabs.end(h);
        String url = "/apps/app-%3C1%3E/2";
        String expected = HEAD.replace("T &lt;b&gt;", "Jobs &#183; app-&lt;1&gt;")
                + "<article class=\"app-tab\"><div class=\"detail-head\"><h1><a href=\"" + url + "\" id=\"app-title\">"
                + "app-&lt;1&gt;</a></h1><p class=\"muted\"><span class=\"app-id\">app-&lt;1&gt;/2</span></p>"
                + "<p id=\"live-status\" class=\"live\" data-live-url=\"/api/v1/apps/app-%3C1%3E/2\" data-live-field=\""
                + "lastEventTime\" data-live-version=\"5000/RUNNING\" data-refresh-ms=\"30000\"><span class=\"live-dot\">"
                + "</span> <span id=\"live-text\">Live: the application is running; this page updates every 30 s (<code>"
                + "?refresh=</code> sets it)</span></p><script src=\"/static/live.js\" defer></script></div>"
                + "<nav class=\"tabs\" id=\"app-tabs\" aria-label=\"application views\"><a class=\"tab\" id=\"tab-overview\""
                + " href=\"" + url + "\">Overview</a><a class=\"tab on\" aria-current=\"page\" id=\"tab-jobs\" href=\""
                + url + "/jobs\">Jobs</a><a class=\"tab\" id=\"tab-executors\" href=\"" + url + "/executors\">Executors</a>"
                + "<a class=\"tab\" id=\"tab-sql\" href=\"" + url + "/sql\">SQL</a><a class=\"tab\" id=\"tab-timeline\""
                + " href=\"" + url + "/timeline\">Timeline</a></nav><div id=\"tab-content\" "
                + "data-live-region><p>x</p></div></article>" + TAIL;
        assertEquals(expected, page);
    }
}
