package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.Fmt;

/** The page frame: head, navigation, main, footer. Styles and scripts are local files (CSP forbids inline ones). */
final class Layout {
    private Layout() {
    }

    static Html start(String title, String active) {
        return start(title, active, 16 * 1024);
    }

    /** As {@link #start(String, String)}, with room for {@code capacity} bytes from the start. */
    static Html start(String title, String active, int capacity) {
        Html h = new Html(capacity);
        h.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>");
        h.t(title).raw(" · Sparkscope</title><link rel=\"stylesheet\" href=\"/static/sparkscope.css\">"
                + "<script src=\"/static/sparkscope.js\" defer></script></head><body>");
        h.raw("<header class=\"top\"><a class=\"brand\" href=\"/\">Sparkscope</a><nav>");
        nav(h, "/", "Dashboard", active);
        nav(h, "/apps", "Applications", active);
        nav(h, "/apps?status=running", "Running now", active);
        nav(h, "/compare", "Compare", active);
        nav(h, "/history", "History", active);
        h.raw("</nav></header><main>");
        return h;
    }

    private static void nav(Html h, String href, String label, String active) {
        h.raw("<a href=\"").a(href).raw("\"").raw(label.equals(active) ? " class=\"active\"" : "").raw(">")
                .t(label).raw("</a>");
    }

    static String end(Html h) {
        return finish(h).toString();
    }

    /** The page's last markup, the builder handed back to be sent as bytes ({@link Html#stream()}). */
    static Html finish(Html h) {
        h.raw("</main><footer>Sparkscope · times in UTC · <a href=\"/api/v1/apps\">JSON API</a></footer></body></html>");
        return h;
    }

    static String error(int status, String title, String message) {
        Html h = start(title, "");
        h.raw("<section class=\"error-page\"><h1>").t(status).raw(" · ").t(title).raw("</h1><p class=\"error-message\">")
                .t(message).raw("</p><p><a href=\"/apps\">Search applications</a> · <a href=\"/\">Dashboard</a></p></section>");
        return end(h);
    }

    /**
     * The line that keeps a running application's page current (/static/live.js): it polls {@code apiUrl} every
     * {@code refreshSeconds} and, when {@code field} (and the status) changed from {@code version}, swaps in the
     * page's {@code data-live-region} parts fetched anew. {@code field} null compares the whole answer.
     */
    static void live(Html h, String apiUrl, String field, String version, int refreshSeconds, String situation) {
        h.raw("<p id=\"live-status\" class=\"live\" data-live-url=\"").a(apiUrl).raw("\"");
        if (field != null) {
            h.raw(" data-live-field=\"").a(field).raw("\"");
        }
        h.raw(" data-live-version=\"").a(version == null ? "" : version).raw("\" data-refresh-ms=\"")
                .a(refreshSeconds * 1000L).raw("\"><span class=\"live-dot\"></span> <span id=\"live-text\">Live: ")
                .t(situation).raw("; this page updates every ").t(refreshSeconds).raw(" s (")
                .raw("<code>?refresh=</code> sets it)</span></p><script src=\"/static/live.js\" defer></script>");
    }

    /** Seconds between a live page's updates unless {@code ?refresh=} says otherwise. */
    static final int DEFAULT_REFRESH_SECONDS = 10;

    /** A severity badge, word and colour together: "HIGH" red, "LOW" yellow, "OK" (no finding) green. */
    static void severity(Html h, String worst) {
        h.raw("<span class=\"pill ").raw(Fmt.severityClass(worst)).raw("\">")
                .t(Fmt.severityWord(worst)).raw("</span>");
    }
}
