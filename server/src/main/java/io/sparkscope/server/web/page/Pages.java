package io.sparkscope.server.web.page;

import io.javalin.http.Context;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.server.web.api.ApiJson;
import io.sparkscope.server.web.api.StreamingJson;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.QueryPage;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.SchedulerLinks;
import io.sparkscope.server.web.model.JobTuning;
import io.sparkscope.server.web.model.Kept;
import io.sparkscope.server.web.model.TuneFile;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.StreamingQueries;

import java.sql.SQLException;
import java.util.List;

/**
 * The HTML pages' handlers: each parses its parameters ({@link Params}), makes one {@link WebData} call and renders
 * the result with its view. The pages with a chart embed the same JSON as their API route.
 */
public final class Pages {
    /** The search page counts matches only this far past its offset, then says "1,000+" (the API counts exactly). */
    static final int SEARCH_COUNT_CAP = 1000;

    private final WebData data;
    private final List<String> heuristicIds;
    private final String historyServerUrl;
    private final Prices prices;
    /**
     * The history pages' chart data, for as long as their data is kept ({@link WebData#history(String, int)}): a
     * third of a history page's cost was writing the same 100 runs as JSON again.
     */
    private final Kept<RunHistory, String> keptHistoryJson = Kept.byIdentity(64, Kept.TIME);
    /** Set once before the server starts ({@link #schedulerLinks(SchedulerLinks)}). */
    private volatile SchedulerLinks schedulerLinks = SchedulerLinks.NONE;

    /**
     * @param heuristicIds     the search form's heuristic choices
     * @param historyServerUrl base URL of a Spark History Server for "open in SHS" links, or null
     * @param prices           the operator's prices: pages show costs with them, resources only without
     */
    public Pages(WebData data, List<String> heuristicIds, String historyServerUrl, Prices prices) {
        this.data = data;
        this.heuristicIds = List.copyOf(heuristicIds);
        this.historyServerUrl = historyServerUrl;
        this.prices = prices == null ? Prices.NONE : prices;
    }

    /** Links to the scheduler that started an application (the Airflow DAG's page), when its address is known. */
    public void schedulerLinks(SchedulerLinks links) {
        this.schedulerLinks = links == null ? SchedulerLinks.NONE : links;
    }

    public void dashboard(Context ctx) throws SQLException {
        DashboardQuery.Dashboard shown = data.dashboard();
        html(ctx, DashboardView.render(shown, data.waste(prices, shown), prices));
    }

    public void search(Context ctx) throws SQLException {
        SearchParams p = SearchParams.parse(ctx, data.now(), false);
        html(ctx, SearchView.page(p, data.search(p.filter(), SEARCH_COUNT_CAP), heuristicIds,
                Params.refreshSeconds(ctx, Layout.DEFAULT_REFRESH_SECONDS), prices));
    }

    /** One application; {@code ?stageSort=&stageOrder=} sort its stage table (descending unless asked otherwise). */
    public void app(Context ctx) throws SQLException {
        AppDetail d = data.app(Params.appRef(ctx));
        StageTableView.StageSort sort = Params.enumValue(ctx, "stageSort", StageTableView.StageSort.class);
        String order = Params.oneOf(ctx, "stageOrder", "asc", "desc");
        boolean desc = sort != null && !"asc".equals(order);
        int refresh = Params.refreshSeconds(ctx, Layout.DEFAULT_REFRESH_SECONDS);
        html(ctx, AppView.render(d, data.streamingRuns(d.header()), historyServerUrl,
                sort == null ? StageTableView.StageSort.ID : sort, desc, refresh, prices,
                data.triedWithoutHelp(d), schedulerLinks));
    }

    /** One Structured Streaming query; {@code ?batches=} how many of each run's newest batches to show. */
    public void query(Context ctx) throws SQLException {
        int batches = Params.intValue(ctx, "batches", QueryPage.DEFAULT_BATCHES, 1, StreamingQueries.MAX_BATCHES);
        int refresh = Params.refreshSeconds(ctx, Layout.DEFAULT_REFRESH_SECONDS);
        QueryPage q = data.query(Params.appRef(ctx), Params.queryId(ctx), batches);
        html(ctx, StreamingView.render(q, StreamingJson.queryJson(q), refresh));
    }

    public void whatIf(Context ctx) throws SQLException {
        TaskOrder order = Params.enumValue(ctx, "order", TaskOrder.class);
        List<Integer> executors = Params.wholeNumbers(ctx, "executors", 1, AppWhatIf.MAX_EXECUTORS,
                AppWhatIf.MAX_COUNTS, AppWhatIf.EXECUTORS_HOW_TO);
        AppWhatIf w = data.whatIf(Params.appRef(ctx), order, executors, prices);
        html(ctx, WhatIfView.render(w, ApiJson.whatIfJson(w)));
    }

    public void timeline(Context ctx) throws SQLException {
        AppDetailQuery.Ref ref = Params.appRef(ctx);
        html(ctx, TimelineView.render(data.timeline(ref, Params.stageNumber(ctx, "stageId"),
                Params.stageNumber(ctx, "stageAttemptId"))));
    }

    /** The runs of {@code ?apps=} side by side, or the form to name them. */
    public void compare(Context ctx) throws SQLException {
        List<AppDetailQuery.Ref> refs = Params.appRefs(ctx, "apps", true, Comparison.MAX_RUNS);
        html(ctx, refs.isEmpty() ? CompareView.form(null) : CompareView.render(data.compare(refs)));
    }

    /**
     * The runs of one job ({@code ?job=}, or {@code ?name=} when one job has runs of that name) and the run time
     * predicted for {@code ?inputBytes=} when asked; several jobs of that name: the list to choose from; neither: the
     * recurring jobs.
     */
    public void history(Context ctx) throws SQLException {
        String job = Params.text(ctx, "job");
        String name = Params.text(ctx, "name");
        if (job == null && name == null) {
            html(ctx, HistoryView.jobs(data.recurringJobs()));
            return;
        }
        WebData.JobLookup lookup = data.lookup(job, name);
        if (lookup.jobKey() == null) {
            html(ctx, HistoryView.noSingleJob(lookup));
            return;
        }
        int runs = Params.intValue(ctx, "runs", WebData.HISTORY_PAGE_RUNS, 1, WebData.HISTORY_LIMIT);
        RunHistory h = data.history(lookup.jobKey(), runs);
        // a full page may have older runs: link to the most the page shows
        String more = h.runs().size() >= runs && runs < WebData.HISTORY_LIMIT
                ? (job != null ? Urls.historyOfJob(job) : Urls.history(name)) + "&runs=" + WebData.HISTORY_LIMIT : null;
        String json = keptHistoryJson.get(h, () -> ApiJson.historyJson(h, prices));
        html(ctx, HistoryView.render(h, json, predictForm(ctx, h), prices,
                data.schedulerOfJob(lookup.jobKey()), schedulerLinks, more));
    }

    /**
     * {@code /tune?job=…}: the job's recommended settings as a properties file to download (the history page links
     * here); a 404 page naming the key when the job has no stored run.
     */
    public void tune(Context ctx) throws SQLException {
        String job = Params.text(ctx, "job");
        if (job == null) {
            throw WebException.badParam("job", "required: the job key, as /history shows it");
        }
        JobTuning t = data.tune(job, prices);
        ctx.header("Content-Disposition", "inline; filename=\"" + TuneFile.fileName(job) + "\"");
        ctx.contentType("text/plain; charset=utf-8").result(TuneFile.properties(t));
    }

    /** The prediction form's state: what was asked, and the prediction or why there is none (shown, not a 400). */
    private HistoryView.PredictForm predictForm(Context ctx, RunHistory h) throws SQLException {
        String raw = ctx.queryParam("inputBytes");
        if (raw == null || raw.isBlank() || h.runs().isEmpty()) {
            return new HistoryView.PredictForm(raw, null, null);
        }
        try {
            long bytes = Params.size(ctx, "inputBytes", 1, RunPrediction.MAX_INPUT_BYTES);
            return new HistoryView.PredictForm(raw, data.predict(h.job().key(), bytes), null);
        } catch (WebException e) {
            return new HistoryView.PredictForm(raw, null, e.getMessage());
        }
    }

    /** An error as a page: the status, a title for it and the one-line message. */
    public static void error(Context ctx, int status, String message) {
        String title = switch (status) {
            case 400 -> "Bad request";
            case 401 -> "Access token needed";
            case 404 -> "Not found";
            case 503 -> "Database unavailable";
            default -> "Error";
        };
        html(ctx, Layout.error(status, title, message));
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }

    /**
     * A page sent as the bytes its builder holds: they are ASCII (the builder writes every other character as a
     * reference), so they are its UTF-8 as they stand; no String of 100 kB is made and encoded again.
     */
    static void html(Context ctx, Html page) {
        ctx.contentType("text/html; charset=utf-8").result(page.stream());
    }
}
