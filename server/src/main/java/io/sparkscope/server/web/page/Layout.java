package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.Fmt;

/** The page frame: head, navigation, main, footer. Styles and scripts are local files (CSP forbids inline ones). */
final class Layout {
    private Layout() {
    }

    static Html start(String title, String active) {
        Html h = new Html();
        h.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>");
        h.t(title).raw(" · Sparkscope</title><link rel=\"stylesheet\" href=\"/static/sparkscope.css\">"
                + "<script src=\"/static/sparkscope.js\" defer></script></head><body>");
        h.raw("<header class=\"top\"><a class=\"brand\" href=\"/\">Sparkscope</a><nav>");
        nav(h, "/", "Dashboard", active);
        nav(h, "/apps", "Applications", active);
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
        h.raw("</main><footer>Sparkscope · times in UTC · <a href=\"/api/v1/apps\">JSON API</a></footer></body></html>");
        return h.toString();
    }

    static String error(int status, String title, String message) {
        Html h = start(title, "");
        h.raw("<section class=\"error-page\"><h1>").t(status).raw(" · ").t(title).raw("</h1><p class=\"error-message\">")
                .t(message).raw("</p><p><a href=\"/apps\">Search applications</a> · <a href=\"/\">Dashboard</a></p></section>");
        return end(h);
    }

    /** A severity badge, word and colour together: "HIGH" red, "LOW" yellow, "OK" (no finding) green. */
    static void severity(Html h, String worst) {
        h.raw("<span class=\"pill ").raw(Fmt.severityClass(worst)).raw("\">")
                .t(Fmt.severityWord(worst)).raw("</span>");
    }
}
