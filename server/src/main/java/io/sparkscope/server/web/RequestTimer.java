package io.sparkscope.server.web;

import io.javalin.http.Context;
import io.javalin.http.RequestLogger;
import io.sparkscope.server.metrics.ServerMetrics;

/**
 * Hands every answered request to {@link ServerMetrics} with its route template. Requests that reached no route
 * (refused by the token, not found, static files) are grouped under a few fixed names instead of their paths, so a
 * scanner asking for a million paths adds no series.
 */
final class RequestTimer implements RequestLogger {
    static final String STATIC = "static";
    static final String NO_ROUTE = "none";

    private final ServerMetrics metrics;

    RequestTimer(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void handle(Context ctx, Float executionTimeMs) {
        metrics.request(ctx.method().name(), route(ctx), ctx.statusCode(), executionTimeMs);
    }

    static String route(Context ctx) {
        String path = ctx.path();
        if (path.startsWith("/static/") || path.startsWith("/webjars/")) {
            return STATIC;
        }
        String route;
        try {
            route = ctx.endpointHandlerPath();
        } catch (IllegalStateException e) {
            return NO_ROUTE; // ended in a before-handler (the token check): no route was chosen
        }
        return route == null || route.isEmpty() || route.equals("*") ? NO_ROUTE : route;
    }
}
