package io.sparkscope.server.web.page;

import io.javalin.http.Context;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.sql.RenderedCache;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.SqlQuery;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.function.LongSupplier;

/**
 * The application's SQL tab and one execution's page: parse, one data call, render. A completed application's
 * pages are kept rendered ({@link SqlData#rendered}): they hold nothing of the request (only a running application's
 * page has the live line, and that one is never kept).
 */
public final class SqlPages {
    private final SqlData data;
    private final LongSupplier clock;

    /** @param clock now in epoch ms: whether the application still runs, so its SQL tab updates itself */
    public SqlPages(SqlData data, LongSupplier clock) {
        this.data = data;
        this.clock = clock;
    }

    public void list(Context ctx) throws SQLException {
        AppDetailQuery.Ref ref = Params.appRef(ctx);
        AppTabs.Live live = AppTabs.Live.of(ctx, clock);
        RenderedCache.send(ctx, HTML, data.rendered(ctx, "list", ref, null, "", () -> {
            SqlQuery.Executions e = data.summaries(ref, false);
            return new RenderedCache.Rendered(bytes(SqlView.list(e, live)), e.version());
        }));
    }

    public void execution(Context ctx) throws SQLException {
        AppDetailQuery.Ref ref = Params.appRef(ctx);
        long executionId = SqlData.executionId(ctx);
        AppTabs.Live live = AppTabs.Live.of(ctx, clock);
        RenderedCache.send(ctx, HTML, data.rendered(ctx, "page", ref, executionId, "", () -> {
            SqlQuery.Executions e = data.one(ref, executionId);
            return new RenderedCache.Rendered(bytes(SqlView.execution(e, data.pictures(), live)), e.version());
        }));
    }

    /** One query in two runs, operator by operator ({@link SqlData#compare(Context)} says which). */
    public void compare(Context ctx) throws SQLException {
        html(ctx, SqlCompareView.render(data.compare(ctx)));
    }

    private static final String HTML = "text/html; charset=utf-8";

    private static void html(Context ctx, String page) {
        ctx.contentType(HTML).result(page);
    }

    /** Pages are ASCII ({@link Html} writes every other character as a reference), so this is a plain copy. */
    private static byte[] bytes(String page) {
        return page.getBytes(StandardCharsets.UTF_8);
    }
}
