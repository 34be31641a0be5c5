package io.sparkscope.server.web.api;

import io.javalin.http.Context;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.sql.RenderedCache;
import io.sparkscope.store.query.SqlQuery;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code /api/v1/apps/{id}[/{attempt}]/sql} and {@code …/sql/{executionId}} with the parameters and answers of
 * Spark's REST API ({@code details} and {@code planDescription}, both true unless "false", and for the list
 * {@code offset} (0) and {@code length} (20) over the executions by id), so a script written for a History Server
 * reads them unchanged.
 */
public final class SqlApi {
    /** Executions one list answer may hold. */
    static final int MAX_LENGTH = 100_000;

    private final SqlData data;
    private final LongSupplier clock;

    public SqlApi(SqlData data, LongSupplier clock) {
        this.data = data;
        this.clock = clock;
    }

    public void list(Context ctx) throws SQLException {
        boolean details = flag(ctx, "details");
        boolean plan = flag(ctx, "planDescription");
        int offset = Params.intValue(ctx, "offset", 0, 0, Integer.MAX_VALUE - MAX_LENGTH);
        int length = Params.intValue(ctx, "length", 20, 1, MAX_LENGTH);
        // without details the answer names no plan node: only the executions' own columns are read
        SqlQuery.Executions e = details ? data.all(Params.appRef(ctx)) : data.summaries(Params.appRef(ctx), plan);
        List<SqlExecutionSummary> byId = new ArrayList<>(e.executions());
        byId.sort(Comparator.comparingLong(SqlExecutionSummary::executionId));
        Map<Integer, JobSummary> jobs = e.jobsById();
        long now = clock.getAsLong();
        List<Object> out = new ArrayList<>();
        for (int i = offset; i < byId.size() && i < (long) offset + length; i++) {
            out.add(SqlJson.execution(byId.get(i), jobs, details, plan, now));
        }
        json(ctx, out);
    }

    /**
     * One execution; a completed application's answer is kept rendered while its rows stay as they are, unless the
     * execution never ended (its duration then counts up to now, as Spark's does).
     */
    public void execution(Context ctx) throws SQLException {
        boolean details = flag(ctx, "details");
        boolean plan = flag(ctx, "planDescription");
        var ref = Params.appRef(ctx);
        long executionId = SqlData.executionId(ctx);
        String variant = (details ? "details" : "-") + "," + (plan ? "plan" : "-");
        RenderedCache.send(ctx, "application/json", data.rendered(ctx, "api", ref, executionId, variant, () -> {
            SqlQuery.Executions e = data.one(ref, executionId);
            SqlExecutionSummary sql = SqlData.only(e);
            byte[] body = ApiJson.write(SqlJson.execution(sql, e.jobsById(), details, plan, clock.getAsLong()))
                    .getBytes(StandardCharsets.UTF_8);
            return new RenderedCache.Rendered(body, sql.endTime() >= 0 ? e.version() : null);
        }));
    }

    /**
     * {@code /api/v1/compare/sql?apps=A,B&execution=N[&otherExecution=M]}: what the SQL compare page shows, as data
     * (Spark's REST API has no comparison, so this shape is Sparkscope's own).
     */
    public void compare(Context ctx) throws SQLException {
        json(ctx, SqlCompareJson.of(data.compare(ctx)));
    }

    /** Spark's boolean query parameters: true unless "false" (any case). */
    private static boolean flag(Context ctx, String name) {
        return SparkRestApi.flag(ctx, name, true);
    }

    private static void json(Context ctx, Object value) {
        ctx.contentType("application/json").result(ApiJson.write(value));
    }
}
