package io.sparkscope.server.web.page;

import io.javalin.http.Handler;

import java.util.function.BiConsumer;

/**
 * The page handlers an application's tabs are served by, and the tabs' routes, taken from {@link AppTabs.Tab} so a
 * tab's path, label and page are declared once.
 */
public record TabPages(Pages pages, ExecutionPages execution, SqlPages sql, StagePages stages) {

    /**
     * Gives each tab's path after the application ({@code "/jobs"}, {@code ""} for the overview) and handler to
     * {@code route}. The overview comes last: its path with an attempt id ({@code /apps/{appId}/{attemptId}}) would
     * otherwise take every tab's path, since the first route that matches wins.
     */
    public void routes(BiConsumer<String, Handler> route) {
        for (AppTabs.Tab t : AppTabs.Tab.values()) {
            if (t.segment != null) {
                route.accept("/" + t.segment, t.handler.apply(this));
            }
        }
        for (AppTabs.Tab t : AppTabs.Tab.values()) {
            if (t.segment == null) {
                route.accept("", t.handler.apply(this));
            }
        }
    }
}
