package io.sparkscope.server.web;

import io.javalin.http.Context;

/**
 * Headers every answer carries: a Content Security Policy that allows only this server's own scripts, styles and
 * images (the pages have no inline script or style, so an escaped-but-missed string still cannot run), no MIME
 * sniffing, no framing and no Referer to other sites.
 */
final class SecurityHeaders {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

    private SecurityHeaders() {
    }

    static void add(Context ctx) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Referrer-Policy", "same-origin");
    }
}
