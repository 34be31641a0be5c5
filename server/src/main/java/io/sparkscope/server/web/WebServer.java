package io.sparkscope.server.web;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import io.javalin.http.staticfiles.Location;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.server.web.api.ApiJson;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.StageTimelines;
import io.sparkscope.server.web.page.AppView;
import io.sparkscope.server.web.page.CompareView;
import io.sparkscope.server.web.page.DashboardView;
import io.sparkscope.server.web.page.HistoryView;
import io.sparkscope.server.web.page.Layout;
import io.sparkscope.server.web.page.SearchView;
import io.sparkscope.server.web.page.TimelineView;
import io.sparkscope.server.web.page.WhatIfView;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.HistoryQuery;
import io.sparkscope.store.query.StageRow;
import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.servlet.FilterHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The web UI and JSON API. Handlers only parse parameters (→ {@link Params}/{@link SearchParams}), call one query
 * class of {@code io.sparkscope.store.query} and hand the result to a view or to {@link ApiJson}.
 */
public final class WebServer {
    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);
    static final String TOKEN_COOKIE = "sparkscope_token";
    private static final int HISTORY_LIMIT = 500;
    private static final int MAX_COMPARE = 6;
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

    /**
     * @param historyServerUrl base URL of a Spark History Server for "open in SHS" links, or null
     * @param authToken        when set, every request needs it (Bearer header, ?token= or the cookie it sets)
     */
    /**
     * @param maxConcurrentRequests requests handled at once; the rest wait in arrival order (0 = no limit)
     */
    public record Options(String historyServerUrl, String authToken, int maxConcurrentRequests) {
        public Options(String historyServerUrl, String authToken) {
            this(historyServerUrl, authToken, defaultConcurrency());
        }

        /**
         * Two requests per core. Past that, more requests in flight only share the same CPUs and database (time
         * slicing): every request gets slower and the slowest pages far slower, while waiting in line keeps each
         * request's time close to the average (measured in BENCHMARKS.md, "Web UI latency").
         */
        public static int defaultConcurrency() {
            return 2 * Runtime.getRuntime().availableProcessors();
        }
    }

    private final DataSource dataSource;
    private final Options options;
    private final LongSupplier clock;
    private final List<String> heuristicIds;
    /** The search page counts matches only this far past its offset, then says "1,000+" (the API counts exactly). */
    static final int SEARCH_COUNT_CAP = 1000;
    private final AppSearchQuery search;
    private final AppDetailQuery details;
    private final DashboardQuery dashboard;
    private final HistoryQuery history;
    private final SnapshotReader snapshots;
    private final StageTimelines timelines;
    private Javalin app;

    public WebServer(DataSource dataSource, Options options, LongSupplier clock) {
        this.dataSource = dataSource;
        this.options = options;
        this.clock = clock;
        this.heuristicIds = HeuristicEngine.load().heuristics().stream().map(Heuristic::id).sorted().toList();
        this.search = new AppSearchQuery(dataSource);
        this.details = new AppDetailQuery(dataSource);
        this.dashboard = new DashboardQuery(dataSource);
        this.history = new HistoryQuery(dataSource);
        this.snapshots = new SnapshotReader(dataSource);
        this.timelines = new StageTimelines(dataSource);
    }

    /** Thrown by {@link #start} when the port is taken: the message is one line for the command line. */
    public static final class PortInUse extends RuntimeException {
        public PortInUse(String message) {
            super(message, null, false, false);
        }
    }

    /** Starts on host:port (port 0 = any free port) and returns the bound port. */
    public int start(String host, int port) {
        app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.staticFiles.add(sf -> {
                sf.hostedPath = "/static";
                sf.directory = "/web/static";
                sf.location = Location.CLASSPATH;
            });
            cfg.staticFiles.enableWebjars();
            cfg.http.prefer405over404 = false;
            if (options.maxConcurrentRequests() > 0) {
                AdmissionFilter admission = new AdmissionFilter(options.maxConcurrentRequests());
                cfg.jetty.modifyServletContextHandler(h -> h.addFilter(new FilterHolder(admission), "/*",
                        EnumSet.of(DispatcherType.REQUEST)));
            }
        });
        routes(app);
        try {
            app.start(host, port);
        } catch (RuntimeException e) {
            if (isBind(e)) {
                app.stop();
                throw new PortInUse("port " + port + " on " + host + " is already in use; choose another with --port <n>"
                        + " (or stop the process using it)");
            }
            throw e;
        }
        return app.port();
    }

    private static boolean isBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException || t.getClass().getSimpleName().equals("JavalinBindException")) {
                return true;
            }
        }
        return false;
    }

    public void stop() {
        if (app != null) {
            app.stop();
        }
    }

    private void routes(Javalin app) {
        app.before(this::securityAndAuth);
        app.get("/healthz", ctx -> {
            boolean up = HistoryQuery.reachable(dataSource);
            ctx.status(up ? 200 : 503).contentType("application/json")
                    .result(up ? "{\"status\":\"ok\"}" : "{\"status\":\"database unreachable\"}");
        });
        app.get("/", ctx -> html(ctx, DashboardView.render(dashboard.load(clock.getAsLong()))));
        app.get("/apps", ctx -> {
            SearchParams p = SearchParams.parse(ctx, clock.getAsLong(), false);
            html(ctx, SearchView.render(p, search.search(p.filter(), SEARCH_COUNT_CAP), heuristicIds));
        });
        app.get("/apps/{appId}/stages/{stageId}/{stageAttemptId}/timeline",
                ctx -> html(ctx, TimelineView.render(timelines.load(ctx, null))));
        app.get("/apps/{appId}/{attemptId}/stages/{stageId}/{stageAttemptId}/timeline",
                ctx -> html(ctx, TimelineView.render(timelines.load(ctx, ctx.pathParam("attemptId")))));
        app.get("/apps/{appId}", ctx -> appPage(ctx, null));
        // Before the attempt route: Javalin takes the first match, so "what-if" is never read as an attempt id.
        app.get("/apps/{appId}/what-if", ctx -> whatIfPage(ctx, null));
        app.get("/apps/{appId}/{attemptId}", ctx -> appPage(ctx, ctx.pathParam("attemptId")));
        app.get("/apps/{appId}/{attemptId}/what-if", ctx -> whatIfPage(ctx, ctx.pathParam("attemptId")));
        app.get("/compare", ctx -> {
            List<AppDetailQuery.Ref> refs = compareRefs(ctx, true);
            if (refs.isEmpty()) {
                html(ctx, CompareView.form(null));
                return;
            }
            html(ctx, CompareView.render(compare(refs)));
        });
        app.get("/history", ctx -> {
            String name = Params.text(ctx, "name");
            if (name == null) {
                html(ctx, HistoryView.form());
                return;
            }
            RunHistory h = RunHistory.of(name, history.runs(name, HISTORY_LIMIT));
            html(ctx, HistoryView.render(h, ApiJson.write(ApiJson.history(h)), predictForm(ctx, name, h)));
        });

        app.get("/api/v1/apps", ctx -> {
            SearchParams p = SearchParams.parse(ctx, clock.getAsLong(), true);
            AppSearchQuery.Result r = search.search(p.filter());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("total", r.total());
            m.put("limit", p.filter().limit());
            m.put("offset", p.filter().offset());
            m.put("apps", r.rows().stream().map(ApiJson::listRow).toList());
            json(ctx, m);
        });
        // Fixed sub-resources first: Javalin takes the first matching route, so "stages" is never read as an attempt.
        app.get("/api/v1/apps/{appId}/stages/{stageId}/{stageAttemptId}/timeline",
                ctx -> json(ctx, ApiJson.timeline(timelines.load(ctx, null))));
        app.get("/api/v1/apps/{appId}/{attemptId}/stages/{stageId}/{stageAttemptId}/timeline",
                ctx -> json(ctx, ApiJson.timeline(timelines.load(ctx, ctx.pathParam("attemptId")))));
        app.get("/api/v1/apps/{appId}/stages", ctx -> json(ctx, stages(ctx, load(ctx, null))));
        app.get("/api/v1/apps/{appId}/findings", ctx -> json(ctx, ApiJson.findings(load(ctx, null).findings())));
        app.get("/api/v1/apps/{appId}/what-if", ctx -> json(ctx, ApiJson.whatIf(whatIf(ctx, null))));
        app.get("/api/v1/apps/{appId}/{attemptId}", ctx -> json(ctx, ApiJson.detail(load(ctx, ctx.pathParam("attemptId")))));
        app.get("/api/v1/apps/{appId}", ctx -> json(ctx, ApiJson.detail(load(ctx, null))));
        app.get("/api/v1/apps/{appId}/{attemptId}/stages",
                ctx -> json(ctx, stages(ctx, load(ctx, ctx.pathParam("attemptId")))));
        app.get("/api/v1/apps/{appId}/{attemptId}/findings",
                ctx -> json(ctx, ApiJson.findings(load(ctx, ctx.pathParam("attemptId")).findings())));
        app.get("/api/v1/apps/{appId}/{attemptId}/what-if",
                ctx -> json(ctx, ApiJson.whatIf(whatIf(ctx, ctx.pathParam("attemptId")))));
        app.get("/api/v1/compare", ctx -> {
            List<AppDetailQuery.Ref> refs = compareRefs(ctx, false);
            json(ctx, ApiJson.comparison(compare(refs)));
        });
        app.get("/api/v1/history", ctx -> {
            String name = Params.text(ctx, "name");
            if (name == null) {
                throw WebException.badParam("name", "required: the application name");
            }
            json(ctx, ApiJson.history(RunHistory.of(name, history.runs(name, HISTORY_LIMIT))));
        });

        app.get("/api/v1/predict", ctx -> {
            String name = Params.text(ctx, "name");
            if (name == null) {
                throw WebException.badParam("name", "required: the application name");
            }
            Long bytes = Params.longValue(ctx, "inputBytes", 1, RunPrediction.MAX_INPUT_BYTES);
            if (bytes == null) {
                throw WebException.badParam("inputBytes", "required: the input size in bytes to predict the run time for");
            }
            json(ctx, ApiJson.prediction(RunPrediction.of(dataSource, history, name, bytes)));
        });

        app.exception(WebException.class, (e, ctx) -> error(ctx, e.status(), e.getMessage(), e.parameter()));
        app.exception(SQLException.class, (e, ctx) -> {
            LOG.warn("database error on {}: {}", ctx.path(), e.getMessage());
            error(ctx, 503, "the database is not answering; try again shortly", null);
        });
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("error on {}", ctx.path(), e);
            error(ctx, 500, "internal error; the server log has the details", null);
        });
        app.error(404, ctx -> {
            if (ctx.attribute("handled-error") == null) {
                error(ctx, 404, "no such page: " + ctx.path(), null);
            }
        });
    }

    /** The history page's prediction form: what was asked, and the prediction or why there is none. */
    private HistoryView.PredictForm predictForm(Context ctx, String name, RunHistory h) throws SQLException {
        String raw = ctx.queryParam("inputBytes");
        if (raw == null || raw.isBlank() || h.runs().isEmpty()) {
            return new HistoryView.PredictForm(raw, null, null);
        }
        try {
            long bytes = Params.longValue(ctx, "inputBytes", 1, RunPrediction.MAX_INPUT_BYTES);
            return new HistoryView.PredictForm(raw, RunPrediction.of(dataSource, history, name, bytes), null);
        } catch (WebException e) {
            return new HistoryView.PredictForm(raw, null, e.getMessage());
        }
    }

    private void appPage(Context ctx, String attemptId) throws SQLException {
        AppDetail d = load(ctx, attemptId);
        AppView.StageSort sort = Params.enumValue(ctx, "stageSort", AppView.StageSort.class);
        String order = Params.text(ctx, "stageOrder");
        if (order != null && !order.equals("asc") && !order.equals("desc")) {
            throw WebException.badParam("stageOrder", "'" + order + "' is not one of asc, desc");
        }
        boolean desc = sort == null ? false : !"asc".equals(order);
        html(ctx, AppView.render(d, options.historyServerUrl(), sort == null ? AppView.StageSort.ID : sort, desc));
    }

    private void whatIfPage(Context ctx, String attemptId) throws SQLException {
        AppWhatIf w = whatIf(ctx, attemptId);
        html(ctx, WhatIfView.render(w, ApiJson.write(ApiJson.whatIf(w))));
    }

    /**
     * The executor what-if of one application: parameters first (a 400 before any database work), then the header
     * (the attempt resolved as on the app page, 404 when unknown) and the whole snapshot read back for the simulation.
     */
    private AppWhatIf whatIf(Context ctx, String attemptId) throws SQLException {
        TaskOrder order = Params.enumValue(ctx, "order", TaskOrder.class);
        List<Integer> executors = executorCounts(ctx);
        AppHeader header = load(ctx, attemptId).header();
        AppSnapshot snapshot = snapshots.read(header.appId(), header.attemptId()).orElseThrow(() ->
                WebException.notFound("application " + header.pathKey() + " vanished from the database"));
        return AppWhatIf.of(header, snapshot, order == null ? TaskOrder.LONGEST_FIRST : order, executors);
    }

    /** {@code executors=2,4,16}: whole numbers in 1…{@link AppWhatIf#MAX_EXECUTORS}, or null when absent. */
    private static List<Integer> executorCounts(Context ctx) {
        String raw = Params.text(ctx, "executors");
        if (raw == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        for (String part : raw.split(",")) {
            String v = part.strip();
            if (v.isEmpty()) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw WebException.badParam("executors", "'" + v + "' is not a whole number");
            }
            if (n < 1 || n > AppWhatIf.MAX_EXECUTORS) {
                throw WebException.badParam("executors", n + " is outside 1…" + AppWhatIf.MAX_EXECUTORS);
            }
            out.add(n);
        }
        if (out.isEmpty()) {
            throw WebException.badParam("executors", "give executor counts, comma-separated, e.g. 2,4,16");
        }
        if (out.size() > AppWhatIf.MAX_COUNTS) {
            throw WebException.badParam("executors", "at most " + AppWhatIf.MAX_COUNTS + " counts at once");
        }
        return out;
    }

    private AppDetail load(Context ctx, String attemptId) throws SQLException {
        String appId = Params.checkId("appId", ctx.pathParam("appId"));
        Params.checkId("attemptId", attemptId);
        return details.load(new AppDetailQuery.Ref(appId, attemptId), clock.getAsLong())
                .orElseThrow(() -> WebException.notFound("no application " + appId
                        + (attemptId == null ? "" : " attempt " + attemptId) + " in the database"));
    }

    private List<Object> stages(Context ctx, AppDetail d) {
        double[] q = TaskDistributions.SPARK_DEFAULT_QUANTILES;
        String raw = Params.text(ctx, "quantiles");
        if (raw != null) {
            String[] parts = raw.split(",");
            q = new double[parts.length];
            for (int i = 0; i < parts.length; i++) {
                try {
                    q[i] = Double.parseDouble(parts[i].trim());
                } catch (NumberFormatException e) {
                    throw WebException.badParam("quantiles", "'" + parts[i].trim() + "' is not a number");
                }
                if (!(q[i] >= 0 && q[i] <= 1)) {
                    throw WebException.badParam("quantiles", parts[i].trim() + " is outside [0, 1]");
                }
            }
        }
        List<Object> out = new ArrayList<>();
        for (StageRow s : d.stages()) {
            String missing = ApiJson.missingQuantile(s, q);
            if (missing != null) {
                throw WebException.badParam("quantiles", "quantile " + missing + " was not stored for stage " + s.key());
            }
            out.add(ApiJson.stage(s, q));
        }
        return out;
    }

    /** {@code apps=a,b} or repeated {@code apps=a&apps=b}; each "appId" or "appId/attemptId". */
    private List<AppDetailQuery.Ref> compareRefs(Context ctx, boolean allowEmpty) {
        List<AppDetailQuery.Ref> refs = new ArrayList<>();
        for (String v : ctx.queryParams("apps")) {
            for (String part : v.split(",")) {
                String s = part.strip();
                if (s.isEmpty()) {
                    continue;
                }
                int slash = s.indexOf('/');
                String id = slash < 0 ? s : s.substring(0, slash);
                String attempt = slash < 0 ? null : s.substring(slash + 1);
                Params.checkId("apps", id);
                Params.checkId("apps", attempt);
                refs.add(new AppDetailQuery.Ref(id, attempt));
            }
        }
        if (refs.isEmpty() && allowEmpty) {
            return refs;
        }
        if (refs.size() < 2) {
            throw WebException.badParam("apps", "give two or more application ids, comma-separated");
        }
        if (refs.size() > MAX_COMPARE) {
            throw WebException.badParam("apps", "at most " + MAX_COMPARE + " runs side by side");
        }
        return refs;
    }

    private Comparison compare(List<AppDetailQuery.Ref> refs) throws SQLException {
        AppDetailQuery.Loaded l = details.load(refs, clock.getAsLong(), false);
        if (!l.missing().isEmpty()) {
            throw WebException.notFound("no application " + String.join(", ",
                    l.missing().stream().map(Object::toString).toList()) + " in the database");
        }
        return Comparison.of(l.apps());
    }

    // --- plumbing -------------------------------------------------------------------------------------------------

    private void securityAndAuth(Context ctx) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Referrer-Policy", "same-origin");
        String token = options.authToken();
        if (token == null) {
            return;
        }
        String auth = ctx.header("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) && same(auth.substring(7).strip(), token)) {
            return;
        }
        if (same(ctx.cookie(TOKEN_COOKIE), token)) {
            return;
        }
        String query = ctx.queryParam("token");
        if (same(query, token)) {
            Cookie c = new Cookie(TOKEN_COOKIE, token);
            c.setHttpOnly(true);
            c.setPath("/");
            c.setSameSite(SameSite.STRICT);
            ctx.cookie(c);
            if (!isApi(ctx) && "GET".equals(ctx.method().name())) {
                // Keep the token out of the address bar, history and Referer: the cookie carries it from now on.
                ctx.redirect(withoutToken(ctx));
                ctx.skipRemainingHandlers();
            }
            return;
        }
        ctx.header("WWW-Authenticate", "Bearer realm=\"sparkscope\"");
        throw new WebException(401, null, "this Sparkscope server needs its access token: send "
                + "'Authorization: Bearer <token>' or open any page once with ?token=<token>");
    }

    private static String withoutToken(Context ctx) {
        Map<String, String> keep = new LinkedHashMap<>();
        ctx.queryParamMap().forEach((k, v) -> {
            if (!k.equals("token") && !v.isEmpty()) {
                keep.put(k, v.get(0));
            }
        });
        return Urls.withQuery(ctx.path(), keep);
    }

    private static boolean same(String given, String expected) {
        if (given == null) {
            return false;
        }
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean isApi(Context ctx) {
        return ctx.path().startsWith("/api/");
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }

    private static void json(Context ctx, Object value) {
        ctx.contentType("application/json").result(ApiJson.write(value));
    }

    private static void error(Context ctx, int status, String message, String parameter) {
        ctx.attribute("handled-error", true);
        ctx.status(status);
        if (isApi(ctx) || ctx.path().equals("/healthz")) {
            json(ctx, ApiJson.error(status, message, parameter));
        } else {
            String title = switch (status) {
                case 400 -> "Bad request";
                case 401 -> "Access token needed";
                case 404 -> "Not found";
                case 503 -> "Database unavailable";
                default -> "Error";
            };
            html(ctx, Layout.error(status, title, message));
        }
    }

    static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
