package io.sparkscope.server.web;

import io.sparkscope.server.mcp.SparkscopeMcp;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import java.io.IOException;
import java.util.EnumSet;

/**
 * {@code serve --mcp}: the MCP server's streamable HTTP servlet beside Javalin's, at {@link SparkscopeMcp#PATH}. It
 * is not a Javalin route (the transport answers with server-sent event streams of its own), so the access token is
 * checked here, by a filter in front of it: an agent sends {@code Authorization: Bearer <token>}, anything else is a
 * 401 before the transport sees the request.
 */
final class McpEndpoint {
    private McpEndpoint() {
    }

    static void mount(ServletContextHandler handler, SparkscopeMcp.Http mcp, String authToken) {
        ServletHolder servlet = new ServletHolder("sparkscope-mcp", mcp.servlet());
        servlet.setAsyncSupported(true);
        if (authToken != null) {
            FilterHolder auth = new FilterHolder(new BearerOnly(new TokenAuth(authToken)));
            auth.setAsyncSupported(true);
            handler.addFilter(auth, SparkscopeMcp.PATH, EnumSet.of(DispatcherType.REQUEST));
        }
        handler.addServlet(servlet, SparkscopeMcp.PATH);
    }

    /** Lets a request through only with the token in its Authorization header (agents send no cookies). */
    private record BearerOnly(TokenAuth auth) implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            if (auth.bearer(((HttpServletRequest) request).getHeader("Authorization"))) {
                chain.doFilter(request, response);
                return;
            }
            HttpServletResponse r = (HttpServletResponse) response;
            r.setStatus(401);
            r.setHeader("WWW-Authenticate", "Bearer realm=\"sparkscope\"");
            r.setContentType("application/json; charset=utf-8");
            r.getWriter().write("{\"status\":401,\"error\":\"this Sparkscope server needs its access token: send"
                    + " 'Authorization: Bearer <token>'\"}");
        }
    }
}
