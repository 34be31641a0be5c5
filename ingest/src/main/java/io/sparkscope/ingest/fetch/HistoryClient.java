package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.text.Units;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Spark History Server's REST API ({@code /api/v1/…}) over {@link HttpClient}: connect and request timeouts, retries
 * with exponential backoff where another try can help (no answer, connection reset, 5xx), and a one-line
 * {@link HistoryServerException} naming the URL where it cannot (4xx, or retries used up). Thread-safe: one client
 * serves the whole fetch pool.
 *
 * <p>A misbehaving server cannot hold a fetch or fill a disk: the request timeout bounds the whole answer, body
 * included (a server that sends its headers and then trickles is cut off); each body is capped
 * ({@code --max-body-mb}); redirects are followed only on the same host, since the fetched data is stored as the
 * History Server's.
 */
public final class HistoryClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Enough of an error body to show Spark's one-line reason ("no such app: …"), never a whole HTML page. */
    private static final int ERROR_BODY_CHARS = 2048;

    private final String serverUrl;
    private final String apiBase;
    private final HttpClient http;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final int retries;
    private final long backoffMs;
    private final long maxBodyBytes;

    /** The default cap on one answer's body: far above any listing or event-log zip seen, far below a full disk. */
    public static final long DEFAULT_MAX_BODY_BYTES = 4L << 30;
    /** Same-host redirects followed per request, at most. */
    private static final int MAX_REDIRECTS = 5;
    /** Closes the body of an answer that outlives its deadline, which unblocks the thread reading it. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sparkscope-fetch-deadline");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param serverUrl      the History Server's address as a user gives it, e.g. {@code http://shs:18080} (a path
     *                       prefix, as behind a gateway, is kept)
     * @param retries        further attempts after a failed one (0 = try once)
     * @param backoffMs      wait before the first retry; doubled for each further one
     * @throws IllegalArgumentException when the URL is not an absolute http(s) URL
     */
    public HistoryClient(String serverUrl, Duration connectTimeout, Duration requestTimeout, int retries,
                         long backoffMs) {
        this(serverUrl, connectTimeout, requestTimeout, retries, backoffMs, DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * @param requestTimeout the longest one answer may take, from sending the request to its body's last byte
     * @param maxBodyBytes   the largest body accepted; a larger one fails the request (not retried)
     */
    public HistoryClient(String serverUrl, Duration connectTimeout, Duration requestTimeout, int retries,
                         long backoffMs, long maxBodyBytes) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("the body cap must be >= 1 byte, got " + maxBodyBytes);
        }
        this.maxBodyBytes = maxBodyBytes;
        this.serverUrl = normalise(serverUrl);
        this.apiBase = this.serverUrl + "/api/v1/";
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
        this.retries = Math.max(0, retries);
        this.backoffMs = Math.max(0, backoffMs);
        // HTTP/1.1, as the History Server's Jetty serves it: no h2c upgrade offer, which some proxies mishandle.
        // Redirects are followed by hand (see send), only on the same host.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** {@code scheme://host[:port][/prefix]} without a trailing slash: also the key of the remembered fetch state. */
    public String serverUrl() {
        return serverUrl;
    }

    static String normalise(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("expected a URL like http://host:18080");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: '" + url + "'");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("expected an http:// or https:// URL like http://host:18080, got '"
                    + url + "'");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("expected the History Server's address without ?query or #fragment, got '"
                    + url + "'");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        // Users paste the API root too; the client adds /api/v1 itself.
        if (path.endsWith("/api/v1")) {
            path = path.substring(0, path.length() - "/api/v1".length());
        }
        return scheme + "://" + uri.getRawAuthority() + path;
    }

    /** One path segment, percent-encoded (application ids come from the server, but nothing is spliced raw). */
    static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The absolute URL of an API path relative to {@code /api/v1/}. */
    public String url(String relative) {
        return apiBase + relative;
    }

    /** GET an API path and parse its JSON. */
    public JsonNode getJson(String relative) {
        return get(relative, "application/json", (uri, response, in) -> {
            expectNot(uri, response, "text/html");
            try {
                return JSON.readTree(in);
            } catch (JsonProcessingException e) {
                // Not retried: the same server will answer the same thing.
                throw new HistoryServerException(response.statusCode(), uri + " did not answer JSON: "
                        + firstLine(e.getOriginalMessage()));
            }
        });
    }

    /**
     * GET an API path answering a JSON array and hand each element to {@code each} as it is read: a listing of a
     * million applications never sits in memory as one tree.
     */
    public void forEachInArray(String relative, Consumer<JsonNode> each) {
        get(relative, "application/json", (uri, response, in) -> {
            expectNot(uri, response, "text/html");
            try (JsonParser p = JSON.getFactory().createParser(in)) {
                if (p.nextToken() != JsonToken.START_ARRAY) {
                    throw new HistoryServerException(response.statusCode(), uri + " did not answer a JSON array");
                }
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (p.currentToken() == null) {
                        throw new HistoryServerException(response.statusCode(), uri + " answered a JSON array cut "
                                + "short");
                    }
                    JsonNode element = p.readValueAsTree();
                    each.accept(element);
                }
            } catch (JsonProcessingException e) {
                throw new HistoryServerException(response.statusCode(), uri + " did not answer JSON: "
                        + firstLine(e.getOriginalMessage()));
            }
            return null;
        });
    }

    /** GET an API path into a file (replaced if present), e.g. the event-log zip of {@code …/logs}. */
    public void download(String relative, Path target) {
        get(relative, "application/octet-stream", (uri, response, in) -> {
            expectNot(uri, response, "text/html");
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            return null;
        });
    }

    /** A web page where data was expected: a wrong address (a UI, a login page), not a History Server API. */
    private static void expectNot(URI uri, HttpResponse<?> response, String type) {
        String actual = response.headers().firstValue("Content-Type").orElse("");
        if (actual.toLowerCase(Locale.ROOT).startsWith(type)) {
            throw new HistoryServerException(response.statusCode(), uri + " answered " + response.statusCode()
                    + " with a web page (" + actual + "), not Spark's REST API: is this a History Server address?");
        }
    }

    @FunctionalInterface
    private interface BodyReader<T> {
        T read(URI uri, HttpResponse<?> response, InputStream in) throws IOException;
    }

    private <T> T get(String relative, String accept, BodyReader<T> reader) {
        URI uri = URI.create(url(relative));
        for (int attempt = 0; ; attempt++) {
            boolean last = attempt >= retries;
            long deadline = System.nanoTime() + requestTimeout.toNanos();
            AtomicBoolean expired = new AtomicBoolean();
            try {
                HttpResponse<InputStream> response = send(uri, accept, deadline);
                URI answered = response.uri();
                // Past the headers, the request timeout no longer applies: this closes the body at the deadline.
                InputStream raw = response.body();
                ScheduledFuture<?> cut = DEADLINES.schedule(() -> {
                    expired.set(true);
                    try {
                        raw.close();
                    } catch (IOException ignored) {
                        // closing is all that is wanted; the reader sees its stream closed
                    }
                }, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                try (InputStream in = new CappedInputStream(raw, maxBodyBytes, answered)) {
                    int status = response.statusCode();
                    if (status >= 200 && status < 300) {
                        checkLength(response, answered);
                        // A body cut mid-way is an IOException too, and is retried like a refused connection.
                        return reader.read(answered, response, in);
                    }
                    String failure = answered + " answered " + status + reason(status) + detail(response, in);
                    if (status >= 500 && !last) {
                        pause(attempt);
                        continue;
                    }
                    throw new HistoryServerException(status, status >= 500 && retries > 0
                            ? failure + " (after " + (attempt + 1) + " attempts)" : failure);
                } finally {
                    cut.cancel(false);
                }
            } catch (IOException e) {
                String why = expired.get() ? "no complete answer within " + seconds(requestTimeout) : describe(e);
                if (last) {
                    throw new HistoryServerException(0, "cannot reach " + uri + ": " + why
                            + (retries > 0 ? " (after " + (attempt + 1) + " attempts)" : ""));
                }
                pause(attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HistoryServerException(0, "interrupted while fetching " + uri);
            } catch (UnresolvedAddressException e) {
                // Thrown unwrapped by some JDKs for an unknown host: retrying will not make it known.
                throw new HistoryServerException(0, "cannot reach " + uri + ": unknown host");
            }
        }
    }

    /**
     * Sends the GET and follows redirects that stay on the same host (a gateway adding a slash, http to https). A
     * redirect elsewhere is refused: what comes back would be stored as this History Server's data.
     */
    private HttpResponse<InputStream> send(URI uri, String accept, long deadline)
            throws IOException, InterruptedException {
        URI target = uri;
        for (int hop = 0; ; hop++) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new HttpTimeoutException("request timed out");
            }
            HttpRequest request = HttpRequest.newBuilder(target).timeout(Duration.ofNanos(left))
                    .header("Accept", accept).GET().build();
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            int status = response.statusCode();
            String location = response.headers().firstValue("Location").orElse(null);
            if (status < 300 || status >= 400 || status == 304 || location == null) {
                return response;
            }
            response.body().close();
            URI next;
            try {
                next = target.resolve(location.strip());
            } catch (IllegalArgumentException e) {
                throw new HistoryServerException(status, target + " answered " + status
                        + " with an unreadable Location: " + firstLine(location));
            }
            if (next.getHost() == null || !next.getHost().equalsIgnoreCase(target.getHost())) {
                throw new HistoryServerException(status, target + " redirected to another host (" + next.getScheme()
                        + "://" + next.getRawAuthority() + "); not followed: give that address as --history-server "
                        + "if it is the History Server");
            }
            if (hop >= MAX_REDIRECTS) {
                throw new HistoryServerException(status, uri + " redirected more than " + MAX_REDIRECTS + " times");
            }
            target = next;
        }
    }

    /** A declared length over the cap fails before a byte is read. */
    private void checkLength(HttpResponse<?> response, URI uri) {
        long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
        if (declared > maxBodyBytes) {
            throw tooLarge(uri, "declares " + Units.size(declared));
        }
    }

    HistoryServerException tooLarge(URI uri, String what) {
        return new HistoryServerException(0, uri + ": the answer " + what + ", over the " + Units.size(maxBodyBytes)
                + " allowed for one answer (--max-body-mb); raise it if this application's data really is that large");
    }

    /** Counts what is read and fails, without a retry, once more than the cap has come. */
    private final class CappedInputStream extends java.io.FilterInputStream {
        private final long cap;
        private final URI uri;
        private long read;

        CappedInputStream(InputStream in, long cap, URI uri) {
            super(in);
            this.cap = cap;
            this.uri = uri;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            count(k);
            return k;
        }

        private void count(long n) {
            read += n;
            if (read > cap) {
                throw tooLarge(uri, "is larger");
            }
        }
    }

    private void pause(int attempt) {
        long wait = backoffMs << Math.min(attempt, 16);
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HistoryServerException(0, "interrupted while waiting to retry");
        }
    }

    private String describe(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "no connection within " + seconds(connectTimeout);
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within " + seconds(requestTimeout);
        }
        if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
            return "connection refused";
        }
        if (e.getCause() instanceof UnresolvedAddressException || e instanceof java.net.UnknownHostException) {
            return "unknown host";
        }
        String msg = e.getMessage();
        return e.getClass().getSimpleName() + (msg == null || msg.isBlank() ? "" : ": " + firstLine(msg));
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1e3);
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> " Bad Request";
            case 401 -> " Unauthorized (the History Server wants authentication; fetch sends none)";
            case 403 -> " Forbidden (the History Server's ACLs refuse this user)";
            case 404 -> " Not Found";
            case 500 -> " Internal Server Error";
            case 502 -> " Bad Gateway";
            case 503 -> " Service Unavailable";
            case 504 -> " Gateway Timeout";
            default -> "";
        };
    }

    /** Spark's plain-text reason ("no such app: x"), or nothing for an HTML error page. */
    private static String detail(HttpResponse<?> response, InputStream in) throws IOException {
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        if (!type.startsWith("text/plain") && !type.startsWith("application/json")) {
            return "";
        }
        byte[] head = in.readNBytes(ERROR_BODY_CHARS);
        String line = firstLine(new String(head, StandardCharsets.UTF_8));
        return line.isEmpty() ? "" : ": " + line;
    }

    static String firstLine(String s) {
        String t = s.strip();
        int nl = t.indexOf('\n');
        t = nl < 0 ? t : t.substring(0, nl).strip();
        return t.length() > 300 ? t.substring(0, 300) + " …" : t;
    }
}
