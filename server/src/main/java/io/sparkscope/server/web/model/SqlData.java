package io.sparkscope.server.web.model;

import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.server.web.sql.RenderedCache;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.SqlQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.List;

/**
 * What the SQL tab, an execution's page and their Spark-shaped API read: one store query each, a 404 naming what is
 * not stored, the plan layouts the pages keep ({@link PlanPictures}) and the renderings of completed applications'
 * views kept by the version of their rows ({@link RenderedCache}).
 */
public final class SqlData {
    private final SqlQuery query;
    private final PlanPictures pictures = new PlanPictures();
    private final RenderedCache rendered;

    public SqlData(DataSource dataSource) {
        this(dataSource, RenderedCache.DEFAULT_MAX_BYTES);
    }

    /** @param keptBytes bytes of rendered views kept at most (0: none) */
    public SqlData(DataSource dataSource, long keptBytes) {
        this.query = new SqlQuery(dataSource);
        this.rendered = new RenderedCache(keptBytes);
    }

    /** Every execution with its plan and metrics (what the API's details give). */
    public SqlQuery.Executions all(AppDetailQuery.Ref ref) throws SQLException {
        return query.all(ref.appId(), ref.attemptId()).orElseThrow(() -> noApp(ref));
    }

    /** Every execution with only what a row of the SQL tab shows ({@link SqlQuery#summaries}). */
    public SqlQuery.Executions summaries(AppDetailQuery.Ref ref, boolean planText) throws SQLException {
        return query.summaries(ref.appId(), ref.attemptId(), planText).orElseThrow(() -> noApp(ref));
    }

    /**
     * The rendering of {@code view} of the application (and execution, when not null): kept while the stored rows'
     * version stays what it was made from, else made by {@code render}; 404 when the application is not stored.
     *
     * @param variant what else of the request changes the body (e.g. the API's flags)
     */
    public RenderedCache.Answer rendered(io.javalin.http.Context ctx, String view, AppDetailQuery.Ref ref,
                                         Long executionId, String variant, RenderedCache.Render render)
            throws SQLException {
        SqlQuery.Version v = query.version(ref.appId(), ref.attemptId(), executionId).orElseThrow(() -> noApp(ref));
        RenderedCache.Key key = new RenderedCache.Key(view, v.app().pk(), executionId == null ? -1 : executionId,
                variant);
        return rendered.get(key, v.stamp(), RenderedCache.acceptsGzip(ctx), render);
    }

    /** The application with only this execution; 404 when either is not stored. */
    public SqlQuery.Executions one(AppDetailQuery.Ref ref, long executionId) throws SQLException {
        SqlQuery.Executions e = query.one(ref.appId(), ref.attemptId(), executionId).orElseThrow(() -> noApp(ref));
        if (e.executions().isEmpty()) {
            throw WebException.notFound("no SQL execution " + executionId + " in application " + ref);
        }
        return e;
    }

    /** {@code {executionId}} of the path: a whole number ≥ 0. */
    public static long executionId(io.javalin.http.Context ctx) {
        String raw = ctx.pathParam("executionId");
        if (!raw.matches("\\d{1,18}")) {
            throw WebException.badParam("executionId", "'" + raw + "' is not a SQL execution id (a whole number ≥ 0)");
        }
        return Long.parseLong(raw);
    }

    /**
     * The comparison a request asks for, page and API alike: {@code ?apps=A,B&execution=N[&otherExecution=M]}, query
     * N of run A beside query M of run B (by default the one at N's place in B's order of queries).
     */
    public Pair compare(io.javalin.http.Context ctx) throws SQLException {
        var refs = io.sparkscope.server.web.http.Params.appRefs(ctx, "apps", false, 2);
        Long n = io.sparkscope.server.web.http.Params.longValue(ctx, "execution", 0, Long.MAX_VALUE);
        if (n == null) {
            throw WebException.badParam("execution", "give the SQL execution id to compare");
        }
        Long m = io.sparkscope.server.web.http.Params.longValue(ctx, "otherExecution", 0, Long.MAX_VALUE);
        return compare(refs.get(0), n, refs.get(1), m);
    }

    /** The two runs' executions a SQL comparison puts side by side; 404 when one is not stored. */
    public record Pair(SqlQuery.Executions baseline, SqlQuery.Executions other) {
    }

    /**
     * @param otherExecution the other run's execution, or null for the one at the same place in its run (the same
     *                       code runs its queries in the same order; their ids need not match, e.g. when an earlier
     *                       session in the same driver JVM counted up the ids)
     */
    public Pair compare(AppDetailQuery.Ref baseline, long baselineExecution, AppDetailQuery.Ref other,
                        Long otherExecution) throws SQLException {
        SqlQuery.Executions a = one(baseline, baselineExecution);
        if (otherExecution != null) {
            return new Pair(a, one(other, otherExecution));
        }
        SqlQuery.Executions allA = summaries(baseline, false);
        SqlQuery.Executions allB = summaries(other, false);
        int index = byId(allA).indexOf(baselineExecution);
        List<Long> idsB = byId(allB);
        if (index < 0 || index >= idsB.size()) {
            throw WebException.notFound("application " + other + " has no SQL execution at the place of "
                    + baselineExecution + " (" + (index + 1) + " of " + byId(allA).size() + "); name it with"
                    + " otherExecution=");
        }
        return new Pair(a, one(other, idsB.get(index)));
    }

    private static List<Long> byId(SqlQuery.Executions e) {
        return e.executions().stream().map(SqlExecutionSummary::executionId).sorted().toList();
    }

    public static SqlExecutionSummary only(SqlQuery.Executions e) {
        return e.executions().get(0);
    }

    public PlanPictures pictures() {
        return pictures;
    }

    private static WebException noApp(AppDetailQuery.Ref ref) {
        return WebException.notFound("no application " + ref.appId()
                + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId()) + " in the database");
    }
}
