package io.sparkscope.server.web.page;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.QueryPage;
import io.sparkscope.store.query.AppHeader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Structured Streaming in the UI: the application page's list of queries, and {@code
 * /apps/{appId}[/{attemptId}]/queries/{queryId}}, one query's page: its numbers, its findings, rate, latency and state
 * charts over time (chart.js, drawn by /static/streaming.js from the JSON embedded in the page, the same as its API
 * route), its runs, its sources and sink, and its latest batches as a table, so everything but the charts works
 * without JavaScript. A running query's page updates itself ({@link Layout#live}). The markup is query.jte and
 * queryList.jte.
 */
final class StreamingView {
    /** Batches the table at the bottom of a query page lists (newest first). */
    static final int TABLE_BATCHES = 50;

    private StreamingView() {
    }

    /** A figure of the query page's cards: its element id, its number for scripts, its text and what it is. */
    record Card(String id, double raw, String value, String label) {
    }

    /** The application page's section: one row per query (its runs together), linking to the query's page. */
    static void queryList(Html h, AppHeader a, List<StreamingQuerySummary> runs) {
        Map<String, List<StreamingQuerySummary>> byQuery = new LinkedHashMap<>();
        for (StreamingQuerySummary r : runs) {
            byQuery.computeIfAbsent(r.queryId(), k -> new ArrayList<>()).add(r);
        }
        JtequeryListGenerated.render(new PageOutput(h), null, a, byQuery);
    }

    static String render(QueryPage q, String json, int refreshSeconds) {
        // the batches of all runs in batch order, gathered once for the cards, the state chart and the table
        List<QueryPage.RunBatch> all = q.batches();
        Html h = new Html(16 * 1024);
        JtequeryGenerated.render(new PageOutput(h), null, q, all,
                PageOutput.markup(out -> out.raw(Html.jsonForScript(json))), refreshSeconds);
        return h.toString();
    }

    /** The query's cards, in the order shown: totals, the latest batch's figures, the latest run's, the trigger. */
    static List<Card> cards(QueryPage q, List<QueryPage.RunBatch> all) {
        StreamingQuerySummary latest = q.latestRun();
        long batches = 0;
        long rows = 0;
        long dropped = 0;
        for (StreamingQuerySummary r : q.runs()) {
            batches += r.totals().batches();
            rows += r.totals().inputRows();
            dropped += r.totals().rowsDroppedByWatermark();
        }
        StreamingBatch last = all.isEmpty() ? null : all.get(all.size() - 1).batch();
        StreamingTotals t = latest.totals();
        List<Card> out = new ArrayList<>();
        out.add(new Card("card-batches", batches, Fmt.count(batches), "Batches (" + q.runs().size()
                + (q.runs().size() == 1 ? " run)" : " runs)")));
        out.add(new Card("card-input-rows", rows, Fmt.count(rows), "Input rows"));
        if (last != null) {
            out.add(new Card("card-last-batch", last.batchId(), Long.toString(last.batchId()), "Latest batch, "
                    + Fmt.time(last.timestamp())));
            out.add(new Card("card-input-rate", last.inputRowsPerSecond(), rate(last.inputRowsPerSecond()),
                    "Input rows/s (latest batch)"));
            out.add(new Card("card-processed-rate", last.processedRowsPerSecond(),
                    rate(last.processedRowsPerSecond()), "Processed rows/s (latest batch)"));
            out.add(new Card("card-last-duration", last.durationMs(), Fmt.duration(last.durationMs()),
                    "Latest batch took"));
            if (last.stateRows() >= 0) {
                out.add(new Card("card-state-rows", last.stateRows(), Fmt.count(last.stateRows()), "Rows in state"));
                out.add(new Card("card-state-memory", last.stateMemoryBytes(), Fmt.bytes(last.stateMemoryBytes()),
                        "State memory"));
            }
            if (last.watermark() >= 0) {
                out.add(new Card("card-watermark", last.watermark(), last.watermark() == 0 ? "not yet"
                        : Fmt.time(last.watermark()), "Watermark"));
            }
        }
        out.add(new Card("card-mean-duration", t.meanBatchDurationMs(), t.batches() == 0 ? "—"
                : Fmt.duration(Math.round(t.meanBatchDurationMs())), "Mean batch (latest run)"));
        if (t.longestBehind().batches() > 0) {
            out.add(new Card("card-behind", t.longestBehind().batches(), Fmt.count(t.longestBehind().batches()),
                    "Longest run of batches behind (latest run)"));
        }
        if (dropped > 0) {
            out.add(new Card("card-dropped", dropped, Fmt.count(dropped), "Late rows dropped by the watermark"));
        }
        out.add(new Card("card-trigger", latest.triggerIntervalMs(), trigger(latest), "Trigger"));
        return out;
    }

    /** The name of the latest run that has one, or null. */
    static String latestName(List<StreamingQuerySummary> runs) {
        for (int i = runs.size() - 1; i >= 0; i--) {
            if (runs.get(i).name() != null && !runs.get(i).name().isBlank()) {
                return runs.get(i).name();
            }
        }
        return null;
    }

    /** How the run is triggered, in words. */
    static String trigger(StreamingQuerySummary r) {
        if (r.triggerKind() == null) {
            return "not known (only a live recording can read it)";
        }
        if (r.triggerIntervalMs() == 0) {
            return r.triggerKind() + ", as fast as possible";
        }
        return r.triggerIntervalMs() > 0 ? r.triggerKind() + " every " + Fmt.duration(r.triggerIntervalMs())
                : r.triggerKind();
    }

    /** The worst severity of the query's findings, null for none. */
    static String worst(List<Finding> findings) {
        String worst = null;
        for (Finding f : findings) {
            if (f.severity().name().equals("HIGH")) {
                return "HIGH";
            }
            worst = "LOW";
        }
        return worst;
    }

    /** Rows per second as shown, "—" when unknown. */
    static String rate(double r) {
        if (r < 0 || !Double.isFinite(r)) {
            return "—";
        }
        return r >= 100 ? Fmt.count(Math.round(r)) : String.format(Locale.ROOT, "%.1f", r);
    }

    /** A count, "—" when Spark did not report it (-1). */
    static String known(long v) {
        return v < 0 ? "—" : Fmt.count(v);
    }

    /** An error's first line, cut at 200 characters. */
    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 199) + "…" : line;
    }
}
