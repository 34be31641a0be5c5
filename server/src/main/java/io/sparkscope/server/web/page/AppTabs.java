package io.sparkscope.server.web.page;

import io.sparkscope.server.web.http.Urls;

/** The tab bar under an application's heading: its overview page, its jobs, its executors and its SQL. */
final class AppTabs {
    /**
     * Every tab in one place: its label, its path and the page that serves it. The tab bar and the routes
     * ({@link TabPages#routes}) both come from this list, so a new tab is a line here and its page.
     */
    enum Tab {
        OVERVIEW("Overview", null, p -> p.pages()::app),
        JOBS("Jobs", "jobs", p -> p.execution()::jobs),
        EXECUTORS("Executors", "executors", p -> p.execution()::executors),
        SQL("SQL", "sql", p -> p.sql()::list);

        final String label;
        /** Path segment after the application, null for the application page itself. */
        final String segment;
        /** The tab's page among the server's page handlers. */
        final java.util.function.Function<TabPages, io.javalin.http.Handler> handler;

        Tab(String label, String segment, java.util.function.Function<TabPages, io.javalin.http.Handler> handler) {
            this.label = label;
            this.segment = segment;
            this.handler = handler;
        }
    }

    private AppTabs() {
    }

    /**
     * How a tab page is shown: {@code now} judges whether the application is still running, and a running one's
     * page updates itself every {@code refreshSeconds} (as its overview page does).
     */
    record Live(long now, int refreshSeconds) {
        /** Now by {@code clock}, and the request's {@code ?refresh=} (else the default interval). */
        static Live of(io.javalin.http.Context ctx, java.util.function.LongSupplier clock) {
            return new Live(clock.getAsLong(), io.sparkscope.server.web.http.Params.refreshSeconds(ctx,
                    Layout.DEFAULT_REFRESH_SECONDS));
        }
    }

    /**
     * A tab page's frame: the application's name and id as its heading, then the tabs, then (closed by
     * {@link #end}) the tab's content, which a running application's page swaps in anew when the application
     * moved on.
     */
    static Html page(io.sparkscope.store.query.AppRefs.Resolved app, Tab active, String what, Live live) {
        String name = app.name() == null || app.name().isEmpty() ? app.appId() : app.name();
        String key = app.attemptId() == null ? app.appId() : app.appId() + "/" + app.attemptId();
        Html h = Layout.start(what + " · " + name, "Applications");
        h.raw("<article class=\"app-tab\"><div class=\"detail-head\"><h1><a href=\"").a(Urls.app(app.appId(), app.attemptId()))
                .raw("\" id=\"app-title\">").t(name).raw("</a></h1><p class=\"muted\"><span class=\"app-id\">").t(key)
                .raw("</span></p>");
        if (app.running(live.now())) {
            Layout.live(h, Urls.appApi(app.appId(), app.attemptId()), "lastEventTime",
                    app.lastEventTime() + "/RUNNING", live.refreshSeconds(), "the application is running");
        }
        h.raw("</div>");
        render(h, app.appId(), app.attemptId(), active);
        h.raw("<div id=\"tab-content\" data-live-region>");
        return h;
    }

    /** Closes what {@link #page} opened. */
    static String end(Html h) {
        h.raw("</div></article>");
        return Layout.end(h);
    }

    static void render(Html h, String appId, String attemptId, Tab active) {
        h.raw("<nav class=\"tabs\" id=\"app-tabs\" aria-label=\"application views\">");
        for (Tab t : Tab.values()) {
            String href = t.segment == null ? Urls.app(appId, attemptId) : Urls.appTab(appId, attemptId, t.segment);
            h.raw("<a class=\"tab").raw(t == active ? " on\" aria-current=\"page" : "").raw("\" id=\"tab-")
                    .raw(t.name().toLowerCase(java.util.Locale.ROOT)).raw("\" href=\"").a(href).raw("\">").t(t.label)
                    .raw("</a>");
        }
        h.raw("</nav>");
    }
}
