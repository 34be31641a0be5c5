package io.sparkscope.server.web;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.sparkscope.server.web.api.Api;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.page.Pages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;

/**
 * Every failure answered with a status and one line, as JSON on the API and {@code /healthz}, else as a page: an
 * expected error ({@link WebException}) with its own status, a database error as 503, anything else as 500 with
 * the details in the server log only. No stack trace reaches a client.
 */
final class ErrorResponses {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorResponses.class);
    /** Set once an error was answered, so Javalin's 404 handler does not answer a handler's 404 a second time. */
    private static final String ANSWERED = "sparkscope-error-answered";

    private ErrorResponses() {
    }

    static void register(Javalin app) {
        app.exception(WebException.class, (e, ctx) -> answer(ctx, e.status(), e.getMessage(), e.parameter()));
        app.exception(SQLException.class, (e, ctx) -> {
            LOG.warn("database error on {}: {}", ctx.path(), e.getMessage());
            answer(ctx, 503, "the database is not answering; try again shortly", null);
        });
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("error on {}", ctx.path(), e);
            answer(ctx, 500, "internal error; the server log has the details", null);
        });
        app.error(404, ctx -> {
            if (ctx.attribute(ANSWERED) == null) {
                answer(ctx, 404, "no such page: " + ctx.path(), null);
            }
        });
    }

    private static void answer(Context ctx, int status, String message, String parameter) {
        ctx.attribute(ANSWERED, true);
        ctx.status(status);
        if (ctx.path().startsWith("/api/") || ctx.path().equals("/healthz")) {
            Api.error(ctx, status, message, parameter);
        } else {
            Pages.error(ctx, status, message);
        }
    }
}
