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

    /**
     * {@code ?apps=A,B&execution=N[&otherExecution=M]}: query N of run A beside query M of run B (by default the one
     * at N's place in B's order of queries).
     */
    public void compare(Context ctx) throws SQLException {
        var refs = Params.appRefs(ctx, "apps", false, 2);
        Long n = Params.longValue(ctx, "execution", 0, Long.MAX_VALUE);
        if (n == null) {
            throw io.sparkscope.server.web.http.WebException.badParam("execution", "give the SQL execution id to compare");
        }
        Long m = Params.longValue(ctx, "otherExecution", 0, Long.MAX_VALUE);
        html(ctx, SqlCompareView.render(data.compare(refs.get(0), n, refs.get(1), m)));
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
