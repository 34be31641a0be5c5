package io.sparkscope.server.web.api;

import io.javalin.http.Context;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.QueryPage;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.StageRow;
import io.sparkscope.store.query.StreamingQueries;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON API's handlers under {@code /api/v1} (and {@code /healthz}): each parses its parameters
 * ({@link Params}), makes one {@link WebData} call and writes the answer's {@link ApiJson} shape.
 */
public final class Api {
    private final WebData data;
    private final Prices prices;

    /** @param prices the operator's prices, for the cost in the answers (NONE: figures only) */
    public Api(WebData data, Prices prices) {
        this.data = data;
        this.prices = prices == null ? Prices.NONE : prices;
    }

    public void health(Context ctx) {
        boolean up = data.reachable();
        ctx.status(up ? 200 : 503);
        json(ctx, new ApiJson.Health(up ? "ok" : "database unreachable"));
    }

    /** One page of matches; {@code ?format=csv|jsonl} writes its rows only, the total in {@code X-Total-Count}. */
    public void apps(Context ctx) throws SQLException {
        TableFormat format = format(ctx);
        SearchParams p = SearchParams.parse(ctx, data.now(), true);
        ApiJson.AppsPage page = ApiJson.AppsPage.of(p.filter().limit(), p.filter().offset(), data.search(p.filter()),
                prices);
        if (format == TableFormat.JSON) {
            json(ctx, page);
        } else {
            ctx.header("X-Total-Count", String.valueOf(page.total()));
            table(ctx, format, "apps", page.apps());
        }
    }

    public void app(Context ctx) throws SQLException {
        AppDetail d = data.app(Params.appRef(ctx));
        json(ctx, ApiJson.Detail.of(d, prices, data.triedWithoutHelp(d)));
    }

    public void findings(Context ctx) throws SQLException {
        TableFormat format = format(ctx);
        table(ctx, format, "findings", findingRows(data.appFindings(Params.appRef(ctx))));
    }

    /** Every stage attempt, its task summary at {@code ?quantiles=} (Spark's five by default) when all were stored. */
    public void stages(Context ctx) throws SQLException {
        TableFormat format = format(ctx);
        double[] q = Params.quantiles(ctx, "quantiles", TaskDistributions.SPARK_DEFAULT_QUANTILES);
        table(ctx, format, "stages", stageRows(data.appStages(Params.appRef(ctx)), q));
    }

    /** The findings answer's elements: root causes by estimated saving, each followed by its knock-ons. */
    public static List<?> findingRows(AppDetail d) {
        return FindingJson.all(Diagnosis.of(d.findings(), d.header().durationMs()));
    }

    /** The stages answer's elements; a 400 naming {@code quantiles} when one was not stored for a stage. */
    public static List<?> stageRows(AppDetail d, double[] q) {
        List<StageJson> out = new ArrayList<>();
        for (StageRow s : d.stages()) {
            String missing = StageJson.missingQuantile(s, q);
            if (missing != null) {
                throw WebException.badParam("quantiles", "quantile " + missing + " was not stored for stage " + s.key());
            }
            out.add(StageJson.of(s, q));
        }
        return out;
    }

    /** The search answer's elements ({@code apps} of one page). */
    public static List<?> appRows(AppSearchQuery.Result r, Prices prices) {
        return ApiJson.AppsPage.of(1, 0, r, prices).apps();
    }

    /** The application's Structured Streaming queries with their runs (lifecycle, trigger, totals; no batches). */
    public void queries(Context ctx) throws SQLException {
        AppHeader header = data.appHeader(Params.appRef(ctx));
        json(ctx, StreamingJson.Queries.of(header, data.streamingRuns(header)));
    }

    /** One query: its runs and their newest {@code ?batches=} batches, as its page charts them. */
    public void query(Context ctx) throws SQLException {
        int batches = Params.intValue(ctx, "batches", QueryPage.DEFAULT_BATCHES, 1, StreamingQueries.MAX_BATCHES);
        json(ctx, StreamingJson.Query.of(data.query(Params.appRef(ctx), Params.queryId(ctx), batches)));
    }

    public void whatIf(Context ctx) throws SQLException {
        TaskOrder order = Params.enumValue(ctx, "order", TaskOrder.class);
        List<Integer> executors = Params.wholeNumbers(ctx, "executors", 1, AppWhatIf.MAX_EXECUTORS,
                AppWhatIf.MAX_COUNTS, AppWhatIf.EXECUTORS_HOW_TO);
        json(ctx, ApiJson.whatIf(data.whatIf(Params.appRef(ctx), order, executors, prices)));
    }

    public void timeline(Context ctx) throws SQLException {
        var ref = Params.appRef(ctx);
        json(ctx, TimelineJson.of(data.timeline(ref, Params.stageNumber(ctx, "stageId"),
                Params.stageNumber(ctx, "stageAttemptId"))));
    }

    public void compare(Context ctx) throws SQLException {
        json(ctx, ApiJson.ComparisonJson.of(data.compare(Params.appRefs(ctx, "apps", false, Comparison.MAX_RUNS))));
    }

    /** {@code ?job=}, or {@code ?name=} of one job; an unknown job or name answers no runs (and why, for a name). */
    public void history(Context ctx) throws SQLException {
        WebData.JobLookup lookup = lookup(ctx);
        if (lookup.jobKey() == null) {
            if (!lookup.candidates().isEmpty()) {
                throw lookup.ambiguous();
            }
            json(ctx, ApiJson.HistoryJson.none(lookup));
            return;
        }
        json(ctx, ApiJson.HistoryJson.of(data.history(lookup.jobKey()), prices));
    }

    /** The jobs with at least two stored runs, the most recently run first. */
    public void jobs(Context ctx) throws SQLException {
        json(ctx, data.recurringJobs().stream().map(ApiJson.JobJson::of).toList());
    }

    public void predict(Context ctx) throws SQLException {
        WebData.JobLookup lookup = lookup(ctx);
        Long bytes = Params.size(ctx, "inputBytes", 1, RunPrediction.MAX_INPUT_BYTES);
        if (bytes == null) {
            throw WebException.badParam("inputBytes", "required: the input size to predict the run time for"
                    + " (bytes, or with a unit: 512m, 1GB, 10 GiB)");
        }
        if (lookup.jobKey() == null) {
            if (!lookup.candidates().isEmpty()) {
                throw lookup.ambiguous();
            }
            throw WebException.notFound(lookup.noJobSentence());
        }
        json(ctx, ApiJson.PredictionJson.of(data.predict(lookup.jobKey(), bytes)));
    }

    /** {@code ?job=} (or {@code ?name=} of one job): the settings for its next run; 404 when it has no stored run. */
    public void tune(Context ctx) throws SQLException {
        WebData.JobLookup lookup = lookup(ctx);
        if (lookup.jobKey() == null) {
            if (!lookup.candidates().isEmpty()) {
                throw lookup.ambiguous();
            }
            throw WebException.notFound(lookup.noJobSentence());
        }
        json(ctx, ApiJson.TuneJson.of(data.tune(lookup.jobKey(), prices)));
    }

    private WebData.JobLookup lookup(Context ctx) throws SQLException {
        String job = Params.text(ctx, "job");
        String name = Params.text(ctx, "name");
        if (job == null && name == null) {
            throw WebException.badParam("name", "required: the application name (name=), or the job key (job=)");
        }
        return data.lookup(job, name);
    }

    /** {@code ?format=}: json (the default), csv or jsonl; anything else is a 400 naming the parameter. */
    private static TableFormat format(Context ctx) {
        TableFormat f = Params.enumValue(ctx, "format", TableFormat.class);
        return f == null ? TableFormat.JSON : f;
    }

    /** A list answer in the asked format; CSV and JSON lines come as a download named after the list. */
    private static void table(Context ctx, TableFormat format, String name, List<?> rows) {
        if (format == TableFormat.JSON) {
            json(ctx, rows);
            return;
        }
        StringWriter out = new StringWriter();
        try {
            format.write(rows, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        ctx.header("Content-Disposition", "attachment; filename=\"" + name + "." + format.extension() + "\"");
        ctx.contentType(format.contentType()).result(out.toString());
    }

    /** An error as JSON: the status, the one-line message and, for a 400, the parameter at fault. */
    public static void error(Context ctx, int status, String message, String parameter) {
        json(ctx, new ApiJson.ErrorJson(status, message, parameter));
    }

    private static void json(Context ctx, Object value) {
        ctx.contentType("application/json").result(ApiJson.write(value));
    }
}
