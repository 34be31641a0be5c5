package io.sparkscope.server.web;

import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Handler;
import io.javalin.http.staticfiles.Location;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.server.mcp.SparkscopeMcp;
import io.sparkscope.server.metrics.ServerMetrics;
import io.sparkscope.server.web.api.Api;
import io.sparkscope.server.web.api.ExecutionApi;
import io.sparkscope.server.web.api.SparkRestApi;
import io.sparkscope.server.web.api.SqlApi;
import io.sparkscope.server.web.model.ExecutionData;
import io.sparkscope.server.web.model.SchedulerLinks;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.model.StageData;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.server.web.page.ExecutionPages;
import io.sparkscope.server.web.page.Pages;
import io.sparkscope.server.web.page.SqlPages;
import io.sparkscope.server.web.page.StagePages;
import io.sparkscope.server.web.page.TabPages;
import io.sparkscope.server.web.sql.RenderedCache;
import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.servlet.FilterHolder;

import javax.sql.DataSource;
import java.net.BindException;
import java.util.EnumSet;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The web UI and JSON API: Javalin set up and the route table. Every request passes the {@link AdmissionFilter}
 * (when a limit is set), gets the {@link SecurityHeaders} and, with a token, must pass {@link TokenAuth}; then one
 * handler of {@link Pages} or {@link Api} answers, and {@link ErrorResponses} turns whatever they throw into a
 * status and one line.
 */
public final class WebServer {
    /**
     * @param historyServerUrl      base URL of a Spark History Server for "open in SHS" links, or null
     * @param authToken             when set, every request needs it (Bearer header, ?token= or the cookie it sets)
     * @param maxConcurrentRequests requests handled at once; the rest wait in arrival order (0 = no limit)
     * @param prices                the operator's prices, for the cost pages show ({@link Prices#NONE}: figures only)
     * @param sqlCacheBytes         bytes of completed applications' rendered SQL pages and answers kept (0 = none)
     */
    public record Options(String historyServerUrl, String authToken, int maxConcurrentRequests, Prices prices,
                          long sqlCacheBytes) {
        public Options {
            prices = prices == null ? Prices.NONE : prices;
        }

        public Options(String historyServerUrl, String authToken, int maxConcurrentRequests, Prices prices) {
            this(historyServerUrl, authToken, maxConcurrentRequests, prices, RenderedCache.DEFAULT_MAX_BYTES);
        }

        public Options(String historyServerUrl, String authToken, int maxConcurrentRequests) {
            this(historyServerUrl, authToken, maxConcurrentRequests, Prices.NONE);
        }

        public Options(String historyServerUrl, String authToken) {
            this(historyServerUrl, authToken, defaultConcurrency());
        }

        /**
         * Two requests per core. Past that, more requests in flight only share the same CPUs and database (time
         * slicing): every request gets slower and the slowest pages far slower, while waiting in line keeps each
         * request's time close to the average (measured in docs/benchmarks/web-latency.md).
         */
        public static int defaultConcurrency() {
            return 2 * Runtime.getRuntime().availableProcessors();
        }
    }

    /** Thrown by {@link #start} when the port is taken: the message is one line for the command line. */
    public static final class PortInUse extends RuntimeException {
        public PortInUse(String message) {
            super(message, null, false, false);
        }
    }

    private final Options options;
    private final Pages pages;
    private final Api api;
    private final ExecutionPages executionPages;
    private final ExecutionApi executionApi;
    private final SqlPages sqlPages;
    private final SqlApi sqlApi;
    private final StagePages stagePages;
    private final SparkRestApi sparkApi;
    private final WebData data;
    private final SqlData sql;
    private SparkscopeMcp.Http mcp;
    private ServerMetrics metrics;
    private Javalin app;

    /** @param clock now in epoch ms ("running", "last day" and the search's "since" are judged against it) */
    public WebServer(DataSource dataSource, Options options, LongSupplier clock) {
        this.options = options;
        this.data = new WebData(dataSource, clock);
        List<String> heuristicIds = HeuristicEngine.load().heuristics().stream().map(Heuristic::id).sorted().toList();
        this.pages = new Pages(data, heuristicIds, options.historyServerUrl(), options.prices());
        this.api = new Api(data, options.prices());
        ExecutionData execution = new ExecutionData(dataSource);
        this.executionPages = new ExecutionPages(execution, clock);
        this.executionApi = new ExecutionApi(execution);
        this.sql = new SqlData(dataSource, options.sqlCacheBytes());
        this.sqlPages = new SqlPages(sql, clock);
        this.sqlApi = new SqlApi(sql, clock);
        this.sparkApi = new SparkRestApi(dataSource, clock);
        this.stagePages = new StagePages(new StageData(dataSource), clock);
    }

    /**
     * Times every request into {@code metrics} by its route and serves them on {@code /metrics} (behind the same
     * token as every other route). Call before {@link #start}.
     */
    public WebServer metrics(ServerMetrics metrics) {
        this.metrics = metrics;
        return this;
    }

    /**
     * Also serve the MCP server for AI agents (streamable HTTP, read-only) at {@code /mcp}, behind the same access
     * token; call before {@link #start}.
     */
    public WebServer withMcp() {
        mcp = new SparkscopeMcp(data, sql, options.prices()).http();
        return this;
    }

    /** Starts on host:port (port 0 = any free port) and returns the bound port. */
    public int start(String host, int port) {
        app = Javalin.create(this::configure);
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

    /**
     * Links to the scheduler that started an application (its Airflow DAG's page); call before {@link #start}.
     * Without it the pages show the scheduler's job and run without a link out.
     */
    public WebServer schedulerLinks(SchedulerLinks links) {
        pages.schedulerLinks(links);
        return this;
    }

    public void stop() {
        if (app != null) {
            app.stop();
        }
        if (mcp != null) {
            mcp.server().close();
        }
    }

    private void configure(JavalinConfig cfg) {
        cfg.showJavalinBanner = false;
        cfg.staticFiles.add(sf -> {
            sf.hostedPath = "/static";
            sf.directory = "/web/static";
            sf.location = Location.CLASSPATH;
        });
        cfg.staticFiles.enableWebjars();
        cfg.http.prefer405over404 = false;
        if (mcp != null) {
            cfg.jetty.modifyServletContextHandler(h -> McpEndpoint.mount(h, mcp, options.authToken()));
        }
        if (metrics != null) {
            cfg.requestLogger.http(new RequestTimer(metrics));
        }
        if (options.maxConcurrentRequests() > 0) {
            AdmissionFilter admission = new AdmissionFilter(options.maxConcurrentRequests());
            cfg.jetty.modifyServletContextHandler(h -> h.addFilter(new FilterHolder(admission), "/*",
                    EnumSet.of(DispatcherType.REQUEST)));
        }
    }

    private void routes(Javalin app) {
        app.before(SecurityHeaders::add);
        if (options.authToken() != null) {
            app.before(new TokenAuth(options.authToken()));
        }
        app.get("/healthz", api::health);
        if (metrics != null) {
            app.get("/metrics", ctx -> ctx.contentType(ServerMetrics.CONTENT_TYPE).result(metrics.scrape()));
        }

        // Javalin takes the first route that matches, so each application's sub-pages come before the application
        // itself: "what-if" or "stages" is then never read as an attempt id.
        app.get("/", pages::dashboard);
        app.get("/apps", pages::search);
        forApp(app, "/apps", "/stages/{stageId}/{stageAttemptId}/timeline", pages::timeline);
        forApp(app, "/apps", "/what-if", pages::whatIf);
        forApp(app, "/apps", "/queries/{queryId}", pages::query);
        forApp(app, "/apps", "/stages/{stageId}/{stageAttemptId}/tasks", executionPages::tasks);
        // After the stage's tasks and timeline: with an attempt id, the stage page's path is as long as theirs.
        forApp(app, "/apps", "/stages/{stageId}/{stageAttemptId}", stagePages::stage);
        forApp(app, "/apps", "/sql/{executionId}", sqlPages::execution);
        forApp(app, "/apps", "/executors/{executorId}", executionPages::executor);
        // The application's tabs (AppTabs.Tab), the overview last.
        new TabPages(pages, executionPages, sqlPages, stagePages).routes((sub, handler) -> forApp(app, "/apps", sub, handler));
        app.get("/compare/sql", sqlPages::compare);
        app.get("/compare", pages::compare);
        app.get("/history", pages::history);
        app.get("/tune", pages::tune);

        app.get("/api/v1/apps", api::apps);
        forApp(app, "/api/v1/apps", "/stages/{stageId}/{stageAttemptId}/timeline", api::timeline);
        forApp(app, "/api/v1/apps", "/stages/{stageId}/{stageAttemptId}", stagePages::stageJson);
        forApp(app, "/api/v1/apps", "/stages", api::stages);
        forApp(app, "/api/v1/apps", "/findings", api::findings);
        forApp(app, "/api/v1/apps", "/what-if", api::whatIf);
        forApp(app, "/api/v1/apps", "/queries/{queryId}", api::query);
        forApp(app, "/api/v1/apps", "/queries", api::queries);
        forApp(app, "/api/v1/apps", "/jobs/{jobId}", executionApi::job);
        forApp(app, "/api/v1/apps", "/jobs", executionApi::jobs);
        forApp(app, "/api/v1/apps", "/executors", executionApi::executors);
        forApp(app, "/api/v1/apps", "/allexecutors", executionApi::allExecutors);
        forApp(app, "/api/v1/apps", "/stages/{stageId}/{stageAttemptId}/taskList", executionApi::taskList);
        forApp(app, "/api/v1/apps", "/sql/{executionId}", sqlApi::execution);
        forApp(app, "/api/v1/apps", "/sql", sqlApi::list);
        forApp(app, "/api/v1/apps", "", api::app);
        app.get("/api/v1/compare/sql", sqlApi::compare);
        app.get("/api/v1/compare", api::compare);
        app.get("/api/v1/history", api::history);
        app.get("/api/v1/jobs", api::jobs);
        app.get("/api/v1/predict", api::predict);
        app.get("/api/v1/tune", api::tune);
        sparkRoutes(app);

        ErrorResponses.register(app);
    }

    /** Spark History Server's own routes, so its tools (and {@code sparkscope fetch}) read this server too. */
    private void sparkRoutes(Javalin app) {
        String base = "/api/v1/applications";
        app.get("/api/v1/version", sparkApi::version);
        app.get(base, sparkApi::applications);
        forApp(app, base, "/environment", sparkApi::environment);
        forApp(app, base, "/logs", sparkApi::logs);
        forApp(app, base, "/jobs/{jobId}", sparkApi.afterLookup(executionApi::job));
        forApp(app, base, "/jobs", sparkApi.afterLookup(executionApi::jobs));
        forApp(app, base, "/executors", sparkApi.afterLookup(executionApi::executors));
        forApp(app, base, "/allexecutors", sparkApi.afterLookup(executionApi::allExecutors));
        forApp(app, base, "/sql/{executionId}", sparkApi.afterLookup(sqlApi::execution));
        forApp(app, base, "/sql", sparkApi.afterLookup(sqlApi::list));
        forApp(app, base, "/stages/{stageId}/{stageAttemptId}/taskSummary", sparkApi::taskSummary);
        forApp(app, base, "/stages/{stageId}/{stageAttemptId}/taskList",
                sparkApi.afterLookup(executionApi::taskList));
        forApp(app, base, "/stages/{stageId}/{stageAttemptId}", sparkApi::stageAttempt);
        forApp(app, base, "/stages/{stageId}", sparkApi::stage);
        forApp(app, base, "/stages", sparkApi::stages);
        forApp(app, base, "", sparkApi::application);
    }

    /**
     * Registers {@code base/{appId}sub} and {@code base/{appId}/{attemptId}sub} for one handler: an attempt id is
     * optional on every application route (without it, the newest attempt), and the handler reads both through
     * {@link io.sparkscope.server.web.http.Params#appRef}.
     */
    private static void forApp(Javalin app, String base, String sub, Handler handler) {
        app.get(base + "/{appId}" + sub, handler);
        app.get(base + "/{appId}/{attemptId}" + sub, handler);
    }

    private static boolean isBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException || t.getClass().getSimpleName().equals("JavalinBindException")) {
                return true;
            }
        }
        return false;
    }
}
