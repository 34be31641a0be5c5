package io.sparkscope.server.web.model;

import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.SqlQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.List;

/**
 * What the SQL tab, an execution's page and their Spark-shaped API read: one store query each, a 404 naming what is
 * not stored, and the plan layouts the pages keep ({@link PlanPictures}).
 */
public final class SqlData {
    private final SqlQuery query;
    private final PlanPictures pictures = new PlanPictures();

    public SqlData(DataSource dataSource) {
        this.query = new SqlQuery(dataSource);
    }

    public SqlQuery.Executions all(AppDetailQuery.Ref ref) throws SQLException {
        return query.all(ref.appId(), ref.attemptId()).orElseThrow(() -> noApp(ref));
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
        SqlQuery.Executions allA = all(baseline);
        SqlQuery.Executions allB = all(other);
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
