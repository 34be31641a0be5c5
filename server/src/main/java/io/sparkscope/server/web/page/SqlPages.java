package io.sparkscope.server.web.page;

import io.javalin.http.Context;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.SqlData;

import java.sql.SQLException;
import java.util.function.LongSupplier;

/** The application's SQL tab and one execution's page: parse, one data call, render. */
public final class SqlPages {
    private final SqlData data;
    private final LongSupplier clock;

    /** @param clock now in epoch ms: whether the application still runs, so its SQL tab updates itself */
    public SqlPages(SqlData data, LongSupplier clock) {
        this.data = data;
        this.clock = clock;
    }

    public void list(Context ctx) throws SQLException {
        html(ctx, SqlView.list(data.all(Params.appRef(ctx)), AppTabs.Live.of(ctx, clock)));
    }

    public void execution(Context ctx) throws SQLException {
        html(ctx, SqlView.execution(data.one(Params.appRef(ctx), SqlData.executionId(ctx)), data.pictures(),
                AppTabs.Live.of(ctx, clock)));
    }

    /** One query in two runs, operator by operator ({@link SqlData#compare(Context)} says which). */
    public void compare(Context ctx) throws SQLException {
        html(ctx, SqlCompareView.render(data.compare(ctx)));
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
