package io.sparkscope.server.fetch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

/**
 * Spark History Server's REST API ({@code /api/v1/…}) over {@link HttpClient}: connect and request timeouts, retries
 * with exponential backoff where another try can help (no answer, connection reset, 5xx), and a one-line
 * {@link HistoryServerException} naming the URL where it cannot (4xx, or retries used up). Thread-safe: one client
 * serves the whole fetch pool.
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

    /**
     * @param serverUrl      the History Server's address as a user gives it, e.g. {@code http://shs:18080} (a path
     *                       prefix, as behind a gateway, is kept)
     * @param retries        further attempts after a failed one (0 = try once)
     * @param backoffMs      wait before the first retry; doubled for each further one
     * @throws IllegalArgumentException when the URL is not an absolute http(s) URL
     */
    public HistoryClient(String serverUrl, Duration connectTimeout, Duration requestTimeout, int retries,
                         long backoffMs) {
        this.serverUrl = normalise(serverUrl);
        this.apiBase = this.serverUrl + "/api/v1/";
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
        this.retries = Math.max(0, retries);
        this.backoffMs = Math.max(0, backoffMs);
        // HTTP/1.1, as the History Server's Jetty serves it: no h2c upgrade offer, which some proxies mishandle.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
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
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(requestTimeout).header("Accept", accept).GET()
                .build();
        for (int attempt = 0; ; attempt++) {
            boolean last = attempt >= retries;
            try {
                HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream in = response.body()) {
                    int status = response.statusCode();
                    if (status >= 200 && status < 300) {
                        // A body cut mid-way is an IOException too, and is retried like a refused connection.
                        return reader.read(uri, response, in);
                    }
                    String failure = uri + " answered " + status + reason(status) + detail(response, in);
                    if (status >= 500 && !last) {
                        pause(attempt);
                        continue;
                    }
                    throw new HistoryServerException(status, status >= 500 && retries > 0
                            ? failure + " (after " + (attempt + 1) + " attempts)" : failure);
                }
            } catch (IOException e) {
                if (last) {
                    throw new HistoryServerException(0, "cannot reach " + uri + ": " + describe(e)
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
