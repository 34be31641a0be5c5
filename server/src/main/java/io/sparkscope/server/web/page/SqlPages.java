package io.sparkscope.server.web.page;

import io.javalin.http.Context;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.SqlData;

import java.sql.SQLException;

/** The application's SQL tab and one execution's page: parse, one data call, render. */
public final class SqlPages {
    private final SqlData data;

    public SqlPages(SqlData data) {
        this.data = data;
    }

    public void list(Context ctx) throws SQLException {
        html(ctx, SqlView.list(data.all(Params.appRef(ctx))));
    }

    public void execution(Context ctx) throws SQLException {
        html(ctx, SqlView.execution(data.one(Params.appRef(ctx), SqlData.executionId(ctx)), data.pictures()));
    }

    /** One query in two runs, operator by operator ({@link SqlData#compare(Context)} says which). */
    public void compare(Context ctx) throws SQLException {
        html(ctx, SqlCompareView.render(data.compare(ctx)));
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
