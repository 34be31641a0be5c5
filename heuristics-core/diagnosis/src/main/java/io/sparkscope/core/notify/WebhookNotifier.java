package io.sparkscope.core.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Optional webhook: when an application finishes with a HIGH finding or a {@code Regression}, a
 * JSON POST to the configured URL. Sending happens on one background daemon thread with retries and exponential
 * backoff; {@link #notifyFinished} never blocks and never throws. A failed delivery is logged once per notifier.
 *
 * <p>Payload: {@code {appId, attemptId, appName, status, durationMs, findings:[{heuristic, severity, title,
 * message}], link}}; {@code link} is {@code uiUrl + "/apps/" + appId[/attemptId]} when a UI URL is known, else null.
 */
public final class WebhookNotifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookNotifier.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final int DEFAULT_ATTEMPTS = 3;
    public static final long DEFAULT_BACKOFF_MS = 1_000;
    /** Same-host redirects followed per attempt, at most. */
    private static final int MAX_REDIRECTS = 3;

    private final URI url;
    private final String uiUrl;
    private final int attempts;
    private final long backoffMs;
    private final Duration requestTimeout;
    private final Consumer<String> warn;
    private final HttpClient client;
    private final ThreadPoolExecutor executor;
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private final AtomicInteger pending = new AtomicInteger();
    private final Set<String> sent = new HashSet<>();

    /** 3 attempts, 1 s then 2 s between them, 10 s per request; failures to the SLF4J log. */
    public WebhookNotifier(String url, String uiUrl) {
        this(url, uiUrl, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, Duration.ofSeconds(10), LOG::warn);
    }

    /**
     * @param url       http(s) URL to POST to
     * @param uiUrl     the Sparkscope UI's base URL for the link, or null
     * @param attempts  tries per notification (≥ 1)
     * @param backoffMs wait before the second try; doubled before each further one
     * @param warn      where the one failure message goes
     */
    public WebhookNotifier(String url, String uiUrl, int attempts, long backoffMs, Duration requestTimeout,
                           Consumer<String> warn) {
        this.url = URI.create(url.trim());
        String scheme = this.url.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
            throw new IllegalArgumentException("webhook URL must be http:// or https://, got " + url);
        }
        this.uiUrl = uiUrl == null || uiUrl.isBlank() ? null : uiUrl.trim().replaceAll("/+$", "");
        this.attempts = Math.max(1, attempts);
        this.backoffMs = Math.max(0, backoffMs);
        this.requestTimeout = requestTimeout;
        this.warn = warn;
        // Redirects are handled in deliver: the client's own handling turns a POST answered with 302/303 into a
        // bodiless GET (the alert lost yet a 2xx seen) and follows them to any host.
        this.client = HttpClient.newBuilder().connectTimeout(requestTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.executor = new ThreadPoolExecutor(1, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(1_000), r -> {
            Thread t = new Thread(r, "sparkscope-webhook");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        // idle: no thread kept, so a long-lived JVM running many applications holds nothing
        executor.allowCoreThreadTimeOut(true);
    }

    /** True when these findings call for a notification: any HIGH finding, or a Regression of any severity. */
    public static boolean worthNotifying(List<Finding> findings) {
        for (Finding f : findings) {
            if (f.severity() == Severity.HIGH || RegressionCheck.HEURISTIC.equals(f.heuristic())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Queues a POST when {@code snapshot} is complete and {@link #worthNotifying}; at most one per application
     * attempt is sent by this notifier. Never blocks, never throws.
     *
     * @return completes with true once delivered, false when nothing was sent or every attempt failed
     */
    public CompletableFuture<Boolean> notifyFinished(AppSnapshot snapshot, List<Finding> findings) {
        try {
            if (snapshot == null || !snapshot.complete() || !worthNotifying(findings)) {
                return CompletableFuture.completedFuture(false);
            }
            String key = snapshot.appId() + "\u0000" + snapshot.attemptId();
            synchronized (sent) {
                if (!sent.add(key)) {
                    return CompletableFuture.completedFuture(false);
                }
            }
            String body = payload(snapshot, findings, uiUrl);
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            pending.incrementAndGet();
            try {
                executor.execute(() -> {
                    try {
                        done.complete(deliver(body, snapshot.appId()));
                    } catch (Throwable t) {
                        done.complete(false);
                    } finally {
                        pending.decrementAndGet();
                    }
                });
            } catch (RejectedExecutionException e) {
                pending.decrementAndGet();
                logFailure("webhook notification for " + snapshot.appId() + " dropped (notifier closed or busy)");
                done.complete(false);
            }
            return done;
        } catch (Throwable t) {
            logFailure("cannot queue the webhook notification (" + t + ")");
            return CompletableFuture.completedFuture(false);
        }
    }

    private boolean deliver(String body, String appId) {
        long wait = backoffMs;
        String last = null;
        for (int i = 1; i <= attempts; i++) {
            try {
                last = post(body);
                if (last == null) {
                    return true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                last = "interrupted";
                break;
            } catch (Exception e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            if (i < attempts) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                wait *= 2;
            }
        }
        logFailure("webhook " + redact(url) + " failed for " + appId + " after " + attempts + " attempt(s) (" + last
                + ")");
        return false;
    }

    /**
     * One attempt: POSTs the body, and POSTs it again where a redirect on the same host points (a few hops at
     * most). A redirect to another host is not followed: the alert would go somewhere nobody configured.
     *
     * @return null once a 2xx answered, else why not
     */
    private String post(String body) throws Exception {
        URI target = url;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            HttpRequest req = HttpRequest.newBuilder(target).timeout(requestTimeout)
                    .header("Content-Type", "application/json")
                    .header("User-Agent", "sparkscope-webhook")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
            HttpResponse<Void> resp = client.send(req, HttpResponse.BodyHandlers.discarding());
            int code = resp.statusCode();
            if (code / 100 == 2) {
                return null;
            }
            String location = resp.headers().firstValue("Location").orElse(null);
            if (code / 100 != 3 || location == null) {
                return "HTTP " + code;
            }
            URI next;
            try {
                next = target.resolve(location.trim());
            } catch (IllegalArgumentException e) {
                return "HTTP " + code + " with an unreadable Location";
            }
            if (next.getHost() == null || !next.getHost().equalsIgnoreCase(target.getHost())) {
                return "HTTP " + code + " redirect to another host (" + next.getHost() + "), not followed";
            }
            target = next;
        }
        return "more than " + MAX_REDIRECTS + " redirects";
    }

    private void logFailure(String message) {
        if (failureLogged.compareAndSet(false, true)) {
            warn.accept("Sparkscope: " + message + "; further webhook failures are not logged");
        }
    }

    /** The URL without user info or query (which may hold tokens). */
    static String redact(URI u) {
        return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "") + u.getPath();
    }

    /** The JSON body for one application. */
    public static String payload(AppSnapshot s, List<Finding> findings, String uiUrl) {
        ObjectNode root = JSON.createObjectNode();
        root.put("appId", s.appId());
        root.put("attemptId", s.attemptId());
        root.put("appName", s.appName());
        root.put("status", s.status());
        root.put("durationMs", s.durationMs());
        ArrayNode list = root.putArray("findings");
        for (Finding f : findings) {
            ObjectNode o = list.addObject();
            o.put("heuristic", f.heuristic());
            o.put("severity", f.severity().name());
            o.put("title", f.title());
            o.put("message", f.message());
        }
        String base = uiUrl == null || uiUrl.isBlank() ? null : uiUrl.trim().replaceAll("/+$", "");
        root.put("link", base == null ? null : base + "/apps/" + enc(s.appId())
                + (s.attemptId() == null || s.attemptId().isEmpty() ? "" : "/" + enc(s.attemptId())));
        return root.toString();
    }

    private static String enc(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Waits at most {@code timeoutMs} for queued notifications to finish. */
    public boolean awaitIdle(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (pending.get() > 0) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Stops taking notifications; ones already queued still run on the daemon thread. */
    @Override
    public void close() {
        executor.shutdown();
    }
}
