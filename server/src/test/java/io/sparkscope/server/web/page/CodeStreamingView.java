package io.sparkscope.server.web.page;

import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.QueryPage;
import io.sparkscope.store.query.AppHeader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * StreamingView as it was written in code before query.jte and queryList.jte, kept verbatim (but for the text helpers it shares with StreamingView) as the reference the
 * templates' pages are compared with (StreamingTemplateTest). Structured Streaming in the UI: the application page's list of queries, and {@code
 * /apps/{appId}[/{attemptId}]/queries/{queryId}}, one query's page: its numbers, its findings, rate, latency and state
 * charts over time (chart.js, drawn by /static/streaming.js from the JSON embedded in the page, the same as its API
 * route), its runs, its sources and sink, and its latest batches as a table, so everything but the charts works
 * without JavaScript. A running query's page updates itself ({@link Layout#live}).
 */
final class CodeStreamingView {
    /** Batches the table at the bottom of a query page lists (newest first). */
    static final int TABLE_BATCHES = 50;

    private CodeStreamingView() {
    }

    /** The application page's section: one row per query (its runs together), linking to the query's page. */
    static void queryList(Html h, AppHeader a, List<StreamingQuerySummary> runs) {
        Map<String, List<StreamingQuerySummary>> byQuery = new LinkedHashMap<>();
        for (StreamingQuerySummary r : runs) {
            byQuery.computeIfAbsent(r.queryId(), k -> new ArrayList<>()).add(r);
        }
        h.raw("<section><h2 id=\"queries\">Structured Streaming queries (").t(byQuery.size())
                .raw(")</h2><table class=\"grid\" id=\"query-table\"><thead><tr><th>Query</th><th>Status</th>"
                        + "<th class=\"num\">Runs</th><th class=\"num\">Batches</th><th class=\"num\">Input rows</th>"
                        + "<th class=\"num\">Processed rows/s</th><th class=\"num\">Mean batch</th><th>Trigger</th>"
                        + "<th>Latest batch ended</th></tr></thead><tbody>");
        for (Map.Entry<String, List<StreamingQuerySummary>> e : byQuery.entrySet()) {
            List<StreamingQuerySummary> rs = e.getValue();
            StreamingQuerySummary latest = rs.get(rs.size() - 1);
            long batches = 0;
            long rows = 0;
            long batchMs = 0;
            long lastEnd = -1;
            for (StreamingQuerySummary r : rs) {
                batches += r.totals().batches();
                rows += r.totals().inputRows();
                batchMs += r.totals().batchDurationMs();
                lastEnd = Math.max(lastEnd, r.totals().lastBatchEndTime());
            }
            String label = StreamingView.latestName(rs);
            h.raw("<tr data-query-id=\"").a(e.getKey()).raw("\"><td><a class=\"query-link\" href=\"")
                    .a(Urls.query(a.appId(), a.attemptId(), e.getKey())).raw("\">").t(label == null ? e.getKey() : label)
                    .raw("</a>");
            if (label != null) {
                h.raw(" <span class=\"muted query-id\">").t(e.getKey()).raw("</span>");
            }
            h.raw("</td><td>");
            status(h, latest);
            h.raw("</td><td class=\"num\">").t(rs.size()).raw("</td><td class=\"num\">").t(Fmt.count(batches))
                    .raw("</td><td class=\"num\">").t(Fmt.count(rows)).raw("</td><td class=\"num\">")
                    .t(batchMs > 0 ? StreamingView.rate(rows * 1000.0 / batchMs) : "—").raw("</td><td class=\"num\">")
                    .t(batches > 0 ? Fmt.duration(batchMs / batches) : "—").raw("</td><td>").t(StreamingView.trigger(latest))
                    .raw("</td><td>").t(Fmt.time(lastEnd)).raw("</td></tr>");
        }
        h.raw("</tbody></table></section>");
    }

    static String render(QueryPage q, String json, int refreshSeconds) {
        AppHeader a = q.header();
        StreamingQuerySummary latest = q.latestRun();
        Html h = Layout.start("Query " + q.label(), "Applications");
        h.raw("<article class=\"query-detail\"><div class=\"detail-head\"><h1>");
        Layout.severity(h, StreamingView.worst(q.findings()));
        h.raw(" Query <span id=\"query-title\">").t(q.label()).raw("</span></h1><p class=\"muted\">")
                .raw("<span class=\"query-id\">").t(q.queryId()).raw("</span> · application ")
                .link(Urls.app(a.appId(), a.attemptId()), a.name() == null || a.name().isEmpty() ? a.pathKey() : a.name())
                .raw(" <span class=\"app-id\">").t(a.pathKey()).raw("</span> · <span id=\"query-status\" data-live-region>");
        status(h, latest);
        h.raw("</span></p>");
        if (q.live()) {
            Layout.live(h, Urls.appApi(a.appId(), a.attemptId()), "lastEventTime",
                    a.lastEventTime() + "/" + a.status().name(), refreshSeconds, "the query is running");
        }
        h.raw("</div>");

        h.raw("<div id=\"live-query-cards\" data-live-region>");
        cards(h, q);
        h.raw("</div><div id=\"live-query-findings\" data-live-region>");
        findings(h, q.findings());
        h.raw("</div>");

        boolean state = q.batches().stream().anyMatch(b -> b.batch().stateRows() >= 0);
        h.raw("<section><h2>Input and processing rate</h2><p class=\"hint\">Rows per second per batch: arriving (the"
                + " batch's rows over the time since the previous trigger started) and processed (its rows over its own"
                + " duration). Processing below input for many batches in a row means the query falls behind.</p>"
                + "<div class=\"chart-box\"><canvas id=\"rate-chart\" aria-label=\"input and processed rows per second"
                + " over time\"></canvas></div></section>");
        h.raw("<section><h2>Batch duration by phase</h2><p class=\"hint\">Each batch's time split into Spark's"
                + " phases (<code>durationMs</code>): <code>addBatch</code> is the query's own work, the others are"
                + " offsets, planning and the checkpoint's logs; \"other\" is what no phase accounts for.");
        if (latest.triggerIntervalMs() > 0) {
            h.raw(" The line is the ").t(Fmt.duration(latest.triggerIntervalMs())).raw(" trigger.");
        }
        h.raw("</p><div class=\"chart-box\"><canvas id=\"duration-chart\" aria-label=\"batch duration by phase\">"
                + "</canvas></div></section>");
        if (state) {
            h.raw("<section><h2>State</h2><p class=\"hint\">Rows held by the stateful operators after each batch,"
                    + " and the memory their state stores use. State that only grows has no watermark, timeout or"
                    + " TTL to bound it.</p><div class=\"chart-box\"><canvas id=\"state-chart\" aria-label=\"state"
                    + " rows and memory over time\"></canvas></div></section>");
        }
        h.raw("<script type=\"application/json\" id=\"query-data\" data-live-region>").raw(Html.jsonForScript(json))
                .raw("</script>");
        h.raw("<script src=\"/webjars/chart.js/4.5.1/dist/chart.umd.min.js\" defer></script>"
                + "<script src=\"/static/streaming.js\" defer></script>");

        h.raw("<div id=\"live-runs\" data-live-region>");
        runs(h, q);
        h.raw("</div><div id=\"live-sources\" data-live-region>");
        sources(h, latest);
        h.raw("</div><div id=\"live-batches\" data-live-region>");
        batches(h, q);
        h.raw("</div></article>");
        return Layout.end(h);
    }

    private static void cards(Html h, QueryPage q) {
        StreamingQuerySummary latest = q.latestRun();
        long batches = 0;
        long rows = 0;
        long dropped = 0;
        for (StreamingQuerySummary r : q.runs()) {
            batches += r.totals().batches();
            rows += r.totals().inputRows();
            dropped += r.totals().rowsDroppedByWatermark();
        }
        StreamingBatch last = lastBatch(q);
        StreamingTotals t = latest.totals();
        h.raw("<section><div class=\"cards\">");
        card(h, "card-batches", batches, Fmt.count(batches), "Batches (" + q.runs().size()
                + (q.runs().size() == 1 ? " run)" : " runs)"));
        card(h, "card-input-rows", rows, Fmt.count(rows), "Input rows");
        if (last != null) {
            card(h, "card-last-batch", last.batchId(), Long.toString(last.batchId()), "Latest batch, "
                    + Fmt.time(last.timestamp()));
            card(h, "card-input-rate", last.inputRowsPerSecond(), StreamingView.rate(last.inputRowsPerSecond()),
                    "Input rows/s (latest batch)");
            card(h, "card-processed-rate", last.processedRowsPerSecond(), StreamingView.rate(last.processedRowsPerSecond()),
                    "Processed rows/s (latest batch)");
            card(h, "card-last-duration", last.durationMs(), Fmt.duration(last.durationMs()), "Latest batch took");
            if (last.stateRows() >= 0) {
                card(h, "card-state-rows", last.stateRows(), Fmt.count(last.stateRows()), "Rows in state");
                card(h, "card-state-memory", last.stateMemoryBytes(), Fmt.bytes(last.stateMemoryBytes()),
                        "State memory");
            }
            if (last.watermark() >= 0) {
                card(h, "card-watermark", last.watermark(), last.watermark() == 0 ? "not yet" : Fmt.time(last.watermark()),
                        "Watermark");
            }
        }
        card(h, "card-mean-duration", t.meanBatchDurationMs(), t.batches() == 0 ? "—"
                : Fmt.duration(Math.round(t.meanBatchDurationMs())), "Mean batch (latest run)");
        if (t.longestBehind().batches() > 0) {
            card(h, "card-behind", t.longestBehind().batches(), Fmt.count(t.longestBehind().batches()),
                    "Longest run of batches behind (latest run)");
        }
        if (dropped > 0) {
            card(h, "card-dropped", dropped, Fmt.count(dropped), "Late rows dropped by the watermark");
        }
        card(h, "card-trigger", latest.triggerIntervalMs(), StreamingView.trigger(latest), "Trigger");
        h.raw("</div>");
        if (q.runs().stream().anyMatch(r -> r.batchesNotKept() > 0)) {
            h.raw("<p class=\"hint\" id=\"batches-not-kept\">The listener keeps each run's latest batches"
                    + " (<code>spark.sparkscope.streaming.batchesPerQuery</code>); the totals cover every batch, the"
                    + " charts and table those kept");
            if (q.batchLimit() < Integer.MAX_VALUE) {
                h.raw(", at most ").t(q.batchLimit()).raw(" per run here (<code>?batches=</code>)");
            }
            h.raw(".</p>");
        }
        h.raw("</section>");
    }

    private static void card(Html h, String id, double raw, String value, String label) {
        h.raw("<div class=\"card\" id=\"").a(id).raw("\" data-value=\"").a(Double.isFinite(raw) ? raw : -1)
                .raw("\"><div class=\"card-value\">").t(value).raw("</div><div class=\"card-label\">").t(label)
                .raw("</div></div>");
    }

    private static void findings(Html h, List<Finding> findings) {
        if (findings.isEmpty()) {
            return;
        }
        h.raw("<section><h2>Findings</h2>");
        for (Finding f : findings) {
            h.raw("<div class=\"finding ").raw(f.severity().name().equals("HIGH") ? "sev-high" : "sev-low")
                    .raw("\" data-heuristic=\"").a(f.heuristic()).raw("\"><h3>");
            Layout.severity(h, f.severity().name());
            h.raw(" ").t(f.title()).raw("</h3><p>").t(f.message()).raw("</p><p class=\"advice\">").t(f.recommendation())
                    .raw("</p></div>");
        }
        h.raw("</section>");
    }

    private static void runs(Html h, QueryPage q) {
        h.raw("<section><h2>Runs</h2><p class=\"hint\">A run is one start of the query; a restart from the same"
                + " checkpoint keeps the query id and continues its batch ids.</p><table class=\"grid\""
                + " id=\"run-table\"><thead><tr><th>Run id</th><th>Status</th><th>Started</th><th>Ended</th>"
                + "<th class=\"num\">Batches</th><th class=\"num\">Input rows</th><th class=\"num\">Mean batch</th>"
                + "<th class=\"num\">Longest batch</th><th>Trigger</th><th>Error</th></tr></thead><tbody>");
        for (StreamingQuerySummary r : q.runs()) {
            StreamingTotals t = r.totals();
            h.raw("<tr data-run-id=\"").a(r.runId()).raw("\"><td class=\"run-id\">").t(r.runId()).raw("</td><td>");
            status(h, r);
            h.raw("</td><td>").t(Fmt.time(r.startTime())).raw("</td><td>").t(Fmt.time(r.endTime()))
                    .raw("</td><td class=\"num\">").t(Fmt.count(t.batches())).raw("</td><td class=\"num\">")
                    .t(Fmt.count(t.inputRows())).raw("</td><td class=\"num\">")
                    .t(t.batches() == 0 ? "—" : Fmt.duration(Math.round(t.meanBatchDurationMs())))
                    .raw("</td><td class=\"num\">").t(t.batches() == 0 ? "—" : Fmt.duration(t.maxBatchDurationMs()))
                    .raw("</td><td>").t(StreamingView.trigger(r)).raw("</td><td class=\"error\">");
            if (r.exception() != null) {
                h.raw("<details><summary>").t(StreamingView.firstLine(r.exception())).raw("</summary><pre>").t(r.exception())
                        .raw("</pre></details>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></section>");
    }

    private static void sources(Html h, StreamingQuerySummary latest) {
        StreamingBatch last = latest.lastBatch();
        h.raw("<section><h2>Sources and sink</h2><table class=\"grid\" id=\"source-table\"><thead><tr><th>Source</th>"
                + "<th>Start offset</th><th>End offset</th><th>Latest offset</th><th class=\"num\">Rows</th>"
                + "<th class=\"num\">Input rows/s</th><th class=\"num\">Processed rows/s</th><th>Metrics</th></tr>"
                + "</thead><tbody>");
        if (last != null) {
            for (StreamingProgress.Source s : last.sources()) {
                h.raw("<tr><td class=\"source\">").t(s.description()).raw("</td><td class=\"offset\">")
                        .t(s.startOffset() == null ? "—" : s.startOffset()).raw("</td><td class=\"offset\">")
                        .t(s.endOffset() == null ? "—" : s.endOffset()).raw("</td><td class=\"offset\">")
                        .t(s.latestOffset() == null ? "—" : s.latestOffset()).raw("</td><td class=\"num\">")
                        .t(Fmt.count(s.numInputRows())).raw("</td><td class=\"num\">").t(StreamingView.rate(s.inputRowsPerSecond()))
                        .raw("</td><td class=\"num\">").t(StreamingView.rate(s.processedRowsPerSecond())).raw("</td><td>");
                s.metrics().forEach((k, v) -> h.raw("<span class=\"metric\">").t(k).raw(" = ").t(v).raw("</span> "));
                h.raw("</td></tr>");
            }
        }
        h.raw("</tbody></table><p>Sink: <span id=\"sink\">").t(latest.sinkDescription() == null ? "—"
                : latest.sinkDescription()).raw("</span>");
        if (last != null && !last.stateOperators().isEmpty()) {
            h.raw("</p><table class=\"grid\" id=\"state-table\"><thead><tr><th>Stateful operator</th>"
                    + "<th class=\"num\">Rows</th><th class=\"num\">Updated</th><th class=\"num\">Removed</th>"
                    + "<th class=\"num\">Memory</th><th class=\"num\">Dropped by watermark</th>"
                    + "<th class=\"num\">Partitions</th></tr></thead><tbody>");
            int i = 0;
            for (StreamingProgress.StateOperator op : last.stateOperators()) {
                h.raw("<tr><td>").t(i++).raw(op.operatorName() == null ? "" : " ").t(op.operatorName() == null ? ""
                        : op.operatorName()).raw("</td><td class=\"num\">").t(StreamingView.known(op.numRowsTotal()))
                        .raw("</td><td class=\"num\">").t(StreamingView.known(op.numRowsUpdated())).raw("</td><td class=\"num\">")
                        .t(StreamingView.known(op.numRowsRemoved())).raw("</td><td class=\"num\">")
                        .t(op.memoryUsedBytes() < 0 ? "—" : Fmt.bytes(op.memoryUsedBytes()))
                        .raw("</td><td class=\"num\">").t(StreamingView.known(op.numRowsDroppedByWatermark()))
                        .raw("</td><td class=\"num\">").t(StreamingView.known(op.numShufflePartitions())).raw("</td></tr>");
            }
            h.raw("</tbody></table>");
        } else {
            h.raw("</p>");
        }
        h.raw("</section>");
    }

    private static void batches(Html h, QueryPage q) {
        List<QueryPage.RunBatch> all = q.batches();
        h.raw("<section><h2>Latest batches</h2><table class=\"grid\" id=\"batch-table\"><thead><tr>"
                + "<th class=\"num\">Batch</th><th>Started</th><th class=\"num\">Duration</th>"
                + "<th class=\"num\">Input rows</th><th class=\"num\">Input rows/s</th>"
                + "<th class=\"num\">Processed rows/s</th><th class=\"num\">Output rows</th>"
                + "<th class=\"num\">State rows</th><th>Watermark</th></tr></thead><tbody>");
        for (int i = all.size() - 1; i >= Math.max(0, all.size() - TABLE_BATCHES); i--) {
            StreamingBatch b = all.get(i).batch();
            h.raw("<tr data-batch-id=\"").a(b.batchId()).raw("\"").raw(b.behind() ? " class=\"behind\"" : "")
                    .raw("><td class=\"num\">").t(b.batchId()).raw("</td><td>").t(Fmt.time(b.timestamp()))
                    .raw("</td><td class=\"num\">").t(Fmt.duration(b.durationMs())).raw("</td><td class=\"num\">")
                    .t(Fmt.count(b.numInputRows())).raw("</td><td class=\"num\">").t(StreamingView.rate(b.inputRowsPerSecond()))
                    .raw("</td><td class=\"num\">").t(StreamingView.rate(b.processedRowsPerSecond())).raw("</td><td class=\"num\">")
                    .t(StreamingView.known(b.numOutputRows())).raw("</td><td class=\"num\">").t(StreamingView.known(b.stateRows()))
                    .raw("</td><td>").t(b.watermark() < 0 ? "—" : b.watermark() == 0 ? "not yet" : Fmt.time(b.watermark()))
                    .raw("</td></tr>");
        }
        h.raw("</tbody></table></section>");
    }

    private static StreamingBatch lastBatch(QueryPage q) {
        List<QueryPage.RunBatch> all = q.batches();
        return all.isEmpty() ? null : all.get(all.size() - 1).batch();
    }

    private static void status(Html h, StreamingQuerySummary r) {
        String s = r.status().name().toLowerCase(Locale.ROOT);
        String cls = switch (r.status()) {
            case RUNNING -> "status-running";
            case STOPPED -> "status-complete";
            case FAILED -> "status-failed";
        };
        h.raw("<span class=\"status ").raw(cls).raw("\">").t(s).raw("</span>");
    }






}
