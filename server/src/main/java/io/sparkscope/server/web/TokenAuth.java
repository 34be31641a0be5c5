package io.sparkscope.server.web;

import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.Handler;
import io.javalin.http.SameSite;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.http.WebException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The access token, checked before every route (pages, API, static files, {@code /healthz}): a request passes with
 * {@code Authorization: Bearer <token>}, the cookie this sets, or {@code ?token=<token>}. A page opened with
 * {@code ?token=} gets the cookie and a redirect to the same address without the token, which keeps it out of the
 * address bar, the browser history and Referer headers. Anything else is a 401.
 */
final class TokenAuth implements Handler {
    static final String COOKIE = "sparkscope_token";

    private final String token;

    TokenAuth(String token) {
        this.token = token;
    }

    @Override
    public void handle(Context ctx) {
        if (bearer(ctx.header("Authorization"))) {
            return;
        }
        if (same(ctx.cookie(COOKIE))) {
            return;
        }
        if (same(ctx.queryParam("token"))) {
            Cookie c = new Cookie(COOKIE, token);
            c.setHttpOnly(true);
            c.setPath("/");
            c.setSameSite(SameSite.STRICT);
            ctx.cookie(c);
            if (!ctx.path().startsWith("/api/") && "GET".equals(ctx.method().name())) {
                ctx.redirect(withoutToken(ctx));
                ctx.skipRemainingHandlers();
            }
            return;
        }
        ctx.header("WWW-Authenticate", "Bearer realm=\"sparkscope\"");
        throw new WebException(401, null, "this Sparkscope server needs its access token: send "
                + "'Authorization: Bearer <token>' or open any page once with ?token=<token>");
    }

    /** Whether an Authorization header carries the token ("Bearer <token>"). */
    boolean bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && same(authorization.substring(7).strip());
    }

    /** This request's path and every other parameter, as a path on this server (never another host's URL). */
    private static String withoutToken(Context ctx) {
        Map<String, List<String>> keep = new LinkedHashMap<>(ctx.queryParamMap());
        keep.remove("token");
        return Urls.sameServer(ctx.path(), keep);
    }

    /** Compared in constant time, so the answer's timing tells nothing about how much of a guess was right. */
    private boolean same(String given) {
        return given != null
                && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }
}
