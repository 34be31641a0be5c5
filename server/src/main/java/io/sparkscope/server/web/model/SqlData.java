package io.sparkscope.server.web.model;

import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.SqlQuery;

import javax.sql.DataSource;
import java.sql.SQLException;

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
