package io.sparkscope.server.web.page;

import io.sparkscope.server.web.http.Urls;

/** The tab bar under an application's heading: its overview page, its jobs, its executors, its SQL and its timeline. */
final class AppTabs {
    /**
     * Every tab in one place: its label, its path and the page that serves it. The tab bar and the routes
     * ({@link TabPages#routes}) both come from this list, so a new tab is a line here and its page.
     */
    enum Tab {
        OVERVIEW("Overview", null, p -> p.pages()::app),
        JOBS("Jobs", "jobs", p -> p.execution()::jobs),
        EXECUTORS("Executors", "executors", p -> p.execution()::executors),
        SQL("SQL", "sql", p -> p.sql()::list),
        TIMELINE("Timeline", "timeline", p -> p.stages()::timeline);

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

        /** The tab link's id after "tab-". */
        String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** Where the tab leads for this application. */
        String href(String appId, String attemptId) {
            return segment == null ? Urls.app(appId, attemptId) : Urls.appTab(appId, attemptId, segment);
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
     * A tab page's frame (appTab.jte) up to the tab's content, for a tab page written in code: the application's name
     * and id as its heading, then the tabs; {@link #end} closes it.
     */
    static Html page(io.sparkscope.store.query.AppRefs.Resolved app, Tab active, String what, Live live) {
        Html h = new Html(16 * 1024);
        PageOutput.open(h, c -> JteappTabGenerated.render(new PageOutput(h), null, app, active, what, live, c));
        return h;
    }

    /** The application's name as its pages show it: its id when it has no name. */
    static String shownName(io.sparkscope.store.query.AppRefs.Resolved app) {
        return app.name() == null || app.name().isEmpty() ? app.appId() : app.name();
    }

    /** What appTab.jte writes after the tab's content (it depends on nothing of the page). */
    private static final String END = frameEnd();

    private static String frameEnd() {
        Html h = new Html(512);
        var app = new io.sparkscope.store.query.AppRefs.Resolved(0, "", null, "", 0, 0, 0, true);
        return PageOutput.open(h, c -> JteappTabGenerated.render(new PageOutput(h), null, app, Tab.OVERVIEW, "",
                new Live(0, 1), c));
    }

    /** Closes what {@link #page} opened. */
    static String end(Html h) {
        return h.raw(END).toString();
    }

    static void render(Html h, String appId, String attemptId, Tab active) {
        JtetabsGenerated.render(new PageOutput(h), null, appId, attemptId, active);
    }
}
