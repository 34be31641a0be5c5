package io.sparkscope.server.web;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Lets at most {@code permits} requests run at once; later ones wait in arrival order (a fair semaphore).
 *
 * <p>Why: on a small machine, sixteen pages rendered at once do not finish sooner than sixteen rendered a few at a
 * time — they share the same cores and database backends, so each takes longer and the expensive ones (a broad
 * search, a big compare) take far longer. Queueing in order gives the same throughput with a much narrower latency
 * spread. A request that waits longer than {@link #MAX_WAIT_SECONDS} gets 503 rather than piling up without bound.
 */
final class AdmissionFilter implements Filter {
    static final int MAX_WAIT_SECONDS = 30;
    private final Semaphore permits;

    AdmissionFilter(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be ≥ 1, got " + permits);
        }
        this.permits = new Semaphore(permits, true);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        boolean admitted;
        try {
            admitted = permits.tryAcquire(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            admitted = false;
        }
        if (!admitted) {
            HttpServletResponse r = (HttpServletResponse) response;
            r.setStatus(503);
            r.setHeader("Retry-After", "5");
            r.setContentType("text/plain; charset=utf-8");
            r.getWriter().write("busy: too many requests waiting; retry in a few seconds\n");
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            permits.release();
        }
    }
}
