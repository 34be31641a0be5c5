package io.sparkscope.server.web.page;

import io.sparkscope.server.web.text.Fmt;

/** The page frame: head, navigation, main, footer. Styles and scripts are local files (CSP forbids inline ones). */
final class Layout {
    private Layout() {
    }

    /** An entry of the navigation bar (layout.jte): where it leads and its label, which the page names as active. */
    record NavEntry(String href, String label) {
    }

    static final java.util.List<NavEntry> NAV = java.util.List.of(new NavEntry("/", "Dashboard"),
            new NavEntry("/apps", "Applications"), new NavEntry("/apps?status=running", "Running now"),
            new NavEntry("/compare", "Compare"), new NavEntry("/history", "History"));

    /** What layout.jte writes after a page's content (it depends on nothing of the page). */
    private static final String END = frameEnd();

    private static String frameEnd() {
        Html h = new Html(512);
        return PageOutput.open(h, c -> frame(h, "", "", c));
    }

    static Html start(String title, String active) {
        return start(title, active, 16 * 1024);
    }

    /**
     * The frame of layout.jte up to the content, for a page written in code, with room for {@code capacity} bytes from
     * the start; {@link #end} or {@link #finish} writes the rest.
     */
    static Html start(String title, String active, int capacity) {
        Html h = new Html(capacity);
        PageOutput.open(h, c -> frame(h, title, active, c));
        return h;
    }

    private static void frame(Html h, String title, String active, gg.jte.Content content) {
        JtelayoutGenerated.render(new PageOutput(h), null, title, active, content);
    }

    static String end(Html h) {
        return finish(h).toString();
    }

    /** The page's last markup, the builder handed back to be sent as bytes ({@link Html#stream()}). */
    static Html finish(Html h) {
        return h.raw(END);
    }

    static String error(int status, String title, String message) {
        Html h = new Html();
        JteerrorGenerated.render(new PageOutput(h), null, status, title, message);
        return h.toString();
    }

    /**
     * The line that keeps a running application's page current (/static/live.js): it polls {@code apiUrl} every
     * {@code refreshSeconds} and, when {@code field} (and the status) changed from {@code version}, swaps in the
     * page's {@code data-live-region} parts fetched anew. {@code field} null compares the whole answer.
     */
    static void live(Html h, String apiUrl, String field, String version, int refreshSeconds, String situation) {
        JteliveGenerated.render(new PageOutput(h), null, apiUrl, field, version, refreshSeconds, situation);
    }

    /** Seconds between a live page's updates unless {@code ?refresh=} says otherwise. */
    static final int DEFAULT_REFRESH_SECONDS = 10;

    /** A severity badge, word and colour together: "HIGH" red, "LOW" yellow, "OK" (no finding) green. */
    static void severity(Html h, String worst) {
        JteseverityGenerated.render(new PageOutput(h), null, worst);
    }
}
