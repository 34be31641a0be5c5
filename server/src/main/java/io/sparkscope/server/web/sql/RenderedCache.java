package io.sparkscope.server.web.sql;

import io.javalin.http.Context;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.zip.GZIPOutputStream;

/**
 * Rendered SQL views (an execution's page, the SQL tab, an execution's JSON) of completed applications, kept with the
 * version of the stored rows they show and served again while the database still gives that version. A completed
 * application's SQL views change only when it is written again (a re-import, a reanalyze), while rendering the page
 * of a plan of a thousand operators reads and formats megabytes; checking the version is one small statement.
 *
 * <p>Bounded by the bytes kept ({@code maxBytes}, bodies and their gzip forms together); the least recently served
 * go first, and a body larger than the whole bound is not kept. Requests for a rendering not kept yet wait for the
 * one request that renders it instead of rendering it each (sixteen users opening the same big plan at once render
 * it once). Renderings without a version (running applications, whose pages change by themselves) are never kept.
 */
public final class RenderedCache {
    /** The default bound: some fifty pages of thousand-operator plans, thousands of ordinary ones. */
    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    /** Bodies shorter than this are sent as they are, as Javalin does with its own compression. */
    static final int GZIP_FROM = 1500;
    /** What a kept entry costs beyond its bytes (key, entry, map node), for the bound's sake. */
    private static final int ENTRY_OVERHEAD = 200;

    /**
     * Which rendering: the view ("page", "list", "api", …), the application row, the execution (-1 for none), and
     * the request's options that change the body.
     */
    public record Key(String view, long appPk, long executionId, String variant) {
    }

    /** A rendered body and the version it shows; null version: it must not be kept. */
    public record Rendered(byte[] body, String version) {
    }

    /** How an answer was made: served from what was kept, rendered (and kept), or rendered and not to be kept. */
    public enum Outcome { HIT, MISS, BYPASS }

    /** A body to send, its gzip form when the client takes it and the cache made one, and how it was made. */
    public record Answer(byte[] body, byte[] gzip, Outcome outcome) {
    }

    /** Renders the view from the database. */
    public interface Render {
        Rendered render() throws SQLException;
    }

    private record Entry(String version, byte[] body, byte[] gzip) {
        long bytes() {
            return body.length + (gzip == null ? 0 : gzip.length) + ENTRY_OVERHEAD;
        }
    }

    private record Flight(Key key, String version) {
    }

    private final long maxBytes;
    private final Map<Key, Entry> kept = new LinkedHashMap<>(64, 0.75f, true);
    private long keptBytes;
    private final ConcurrentHashMap<Flight, CompletableFuture<Entry>> rendering = new ConcurrentHashMap<>();

    /** @param maxBytes bytes kept at most; 0 keeps nothing (every request renders) */
    public RenderedCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("the SQL cache bound must be ≥ 0 bytes, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * The body for {@code key} at {@code version}: the kept one when it shows that version, else rendered (once for
     * all requests asking at the same time) and kept when the rendering says its version.
     *
     * @param version the stored rows' version now; null renders without keeping (a running application)
     * @param gzip    whether the client accepts gzip: a kept body then also keeps its compressed form
     */
    public Answer get(Key key, String version, boolean gzip, Render render) throws SQLException {
        if (version == null || maxBytes == 0) {
            return new Answer(render.render().body(), null, Outcome.BYPASS);
        }
        Entry e;
        synchronized (kept) {
            e = kept.get(key);
        }
        Outcome outcome = Outcome.HIT;
        if (e == null || !e.version().equals(version)) {
            e = renderOnce(key, version, render);
            outcome = e.version() == null ? Outcome.BYPASS : Outcome.MISS;
        }
        if (!gzip || e.body().length < GZIP_FROM) {
            return new Answer(e.body(), null, outcome);
        }
        if (e.gzip() == null) {
            Entry compressed = new Entry(e.version(), e.body(), gzip(e.body()));
            if (compressed.version() != null) {
                keep(key, e, compressed);
            }
            e = compressed;
        }
        return new Answer(e.body(), e.gzip(), outcome);
    }

    private Entry renderOnce(Key key, String version, Render render) throws SQLException {
        Flight flight = new Flight(key, version);
        CompletableFuture<Entry> mine = new CompletableFuture<>();
        CompletableFuture<Entry> running = rendering.putIfAbsent(flight, mine);
        if (running != null) {
            return await(running);
        }
        try {
            Rendered r = render.render();
            // The rendering read the rows in its own transaction: a rewrite in between gives it a newer version
            // than the one asked for, and that is the version its body shows.
            Entry e = new Entry(r.version(), r.body(), null);
            if (r.version() != null) {
                keep(key, null, e);
            }
            mine.complete(e);
            return e;
        } catch (SQLException | RuntimeException | Error t) {
            mine.completeExceptionally(t);
            throw t;
        } finally {
            rendering.remove(flight, mine);
        }
    }

    private static Entry await(CompletableFuture<Entry> running) throws SQLException {
        try {
            return running.get();
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the page being rendered", ie);
        } catch (ExecutionException ee) {
            Throwable cause = ee.getCause();
            if (cause instanceof SQLException s) {
                throw s;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Keeps {@code e} for {@code key}, replacing what is kept there (when {@code expected} is not null, only if that
     * is still kept: a newer rendering is not replaced by an older one's compressed form), then drops the least
     * recently served entries until the bound holds.
     */
    private void keep(Key key, Entry expected, Entry e) {
        if (e.bytes() > maxBytes) {
            return;
        }
        synchronized (kept) {
            Entry had = kept.get(key);
            if (expected != null && had != expected) {
                return;
            }
            if (had != null) {
                keptBytes -= had.bytes();
            }
            kept.put(key, e);
            keptBytes += e.bytes();
            var eldest = kept.entrySet().iterator();
            while (keptBytes > maxBytes && eldest.hasNext()) {
                Entry out = eldest.next().getValue();
                keptBytes -= out.bytes();
                eldest.remove();
            }
        }
    }

    /** Bytes kept now (bodies, their gzip forms and a fixed overhead per entry). */
    public long keptBytes() {
        synchronized (kept) {
            return keptBytes;
        }
    }

    public long maxBytes() {
        return maxBytes;
    }

    private static byte[] gzip(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 6 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out, 1 << 16)) {
            z.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Sends an answer: its gzip form (saying so, so Javalin does not compress it again) when there is one, else the
     * body, which Javalin compresses as usual for clients that take it. {@code X-Sparkscope-Cache} says whether it
     * was served from what was kept ({@code hit}), rendered and kept ({@code miss}) or not to be kept
     * ({@code bypass}).
     */
    public static void send(Context ctx, String contentType, Answer a) {
        ctx.contentType(contentType).header("X-Sparkscope-Cache", a.outcome().name().toLowerCase(Locale.ROOT));
        if (a.gzip() != null) {
            ctx.header("Content-Encoding", "gzip").header("Vary", "Accept-Encoding").result(a.gzip());
        } else {
            ctx.result(a.body());
        }
    }

    /** Whether the request's Accept-Encoding takes gzip (named, and not with q=0). */
    public static boolean acceptsGzip(Context ctx) {
        String header = ctx.header("Accept-Encoding");
        if (header == null) {
            return false;
        }
        for (String part : header.split(",")) {
            String[] p = part.split(";");
            if (!p[0].strip().equalsIgnoreCase("gzip")) {
                continue;
            }
            for (int i = 1; i < p.length; i++) {
                String param = p[i].strip().toLowerCase(Locale.ROOT);
                if (param.startsWith("q=")) {
                    try {
                        return Double.parseDouble(param.substring(2)) > 0;
                    } catch (NumberFormatException e) {
                        return false;
                    }
                }
            }
            return true;
        }
        return false;
    }
}
