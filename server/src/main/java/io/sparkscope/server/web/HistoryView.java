package io.sparkscope.server.web;

/**
 * {@code /history?name=…}: a chart.js line chart (drawn by /static/history.js from the JSON embedded in the page)
 * plus the same runs as a table, so the page works without JavaScript except the chart.
 */
final class HistoryView {
    private HistoryView() {
    }

    static String form() {
        Html h = Layout.start("History", "History");
        h.raw("<h1>History</h1><div class=\"panel\"><form method=\"get\" action=\"/history\"><label>Application name "
                + "<input type=\"text\" name=\"name\" size=\"50\"></label> <button class=\"btn primary\">Show</button>"
                + "</form><p class=\"muted\">Or open an application and use “History of this name”.</p></div>");
        return Layout.end(h);
    }

    static String render(RunHistory hist, String json) {
        Html h = Layout.start("History of " + hist.name(), "History");
        h.raw("<h1>History of <span id=\"history-name\">").t(hist.name()).raw("</span></h1>");
        if (hist.runs().isEmpty()) {
            h.raw("<p class=\"empty\">No run of an application with this exact name.</p>");
            return Layout.end(h);
        }
        h.raw("<p class=\"muted\">").t(hist.runs().size()).raw(" runs, oldest first. Marked ▲: more than ")
                .t(RunHistory.SLOW_FACTOR).raw("× the median duration of the previous runs. Click a point to open the run.</p>");
        h.raw("<div class=\"chart-box\"><canvas id=\"history-chart\" aria-label=\"run durations\"></canvas></div>");
        h.raw("<script type=\"application/json\" id=\"history-data\">").raw(Html.jsonForScript(json)).raw("</script>");
        h.raw("<script src=\"/webjars/chart.js/4.5.1/dist/chart.umd.min.js\" defer></script>"
                + "<script src=\"/static/history.js\" defer></script>");
        h.raw("<table class=\"grid\" id=\"history-table\"><thead><tr><th>Run</th><th>Start</th><th class=\"num\">Duration</th>"
                + "<th class=\"num\">Task time</th><th class=\"num\">Spill</th><th>Worst</th><th></th></tr></thead><tbody>");
        for (RunHistory.Point p : hist.runs()) {
            var r = p.run();
            h.raw("<tr").raw(p.slow() ? " class=\"slow\"" : "").raw("><td>").link(Urls.app(r.appId(), r.attemptId()), r.pathKey())
                    .raw("</td><td>").t(Fmt.time(r.startTime())).raw("</td><td class=\"num\">").t(Fmt.duration(r.durationMs()))
                    .raw("</td><td class=\"num\">").t(Fmt.duration(r.totalTaskTimeMs())).raw("</td><td class=\"num\">")
                    .t(Fmt.bytes(r.memoryBytesSpilled() + r.diskBytesSpilled())).raw("</td><td>");
            Layout.severity(h, r.worstSeverity());
            h.raw("</td><td>");
            if (p.slow()) {
                h.raw("<span class=\"warn\">▲ slow: median of previous ").t(Fmt.duration(p.previousMedianMs())).raw("</span>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
        return Layout.end(h);
    }
}
