package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.KeyConfig;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppHeader;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * AppView (with HistoryLink) as it was written in code before app.jte and historyLink.jte, kept verbatim as the
 * reference the template's page is compared with (AppTemplateTest). {@code /apps/{appId}[/{attemptId}]}: metrics, findings, Structured Streaming queries, configuration, stages. A
 * RUNNING application's page updates its metrics, findings, queries and stages in place ({@link Layout#live}).
 */
final class CodeAppView {
    private CodeAppView() {
    }

    static String render(AppDetail d, String historyServerUrl, StageTableView.StageSort sort, boolean desc) {
        return render(d, List.of(), historyServerUrl, sort, desc, Layout.DEFAULT_REFRESH_SECONDS, Prices.NONE);
    }

    /**
     * @param streamingRuns  the application's Structured Streaming query runs (without batches), listed by query
     * @param refreshSeconds how often the page of a RUNNING application updates itself
     * @param prices         the operator's prices for the efficiency section's cost
     */
    static String render(AppDetail d, List<StreamingQuerySummary> streamingRuns, String historyServerUrl,
                         StageTableView.StageSort sort, boolean desc, int refreshSeconds, Prices prices) {
        AppHeader a = d.header();
        String title = a.name() == null || a.name().isEmpty() ? a.appId() : a.name();
        Html h = Layout.start(title, "Applications");
        h.raw("<article class=\"app-detail ").raw(Fmt.severityClass(a.worstSeverity())).raw("\"><div class=\"detail-head\"><h1>");
        Layout.severity(h, a.worstSeverity());
        h.raw(" <span id=\"app-title\">").t(title).raw("</span></h1><p class=\"muted\"><span class=\"app-id\">")
                .t(a.pathKey()).raw("</span> · user <span class=\"user\">").t(a.sparkUser()).raw("</span> · Spark ")
                .t(a.sparkVersion()).raw(" · <span id=\"app-status\" data-live-region class=\"status status-")
                .raw(a.status().name().toLowerCase(Locale.ROOT))
                .raw("\">").t(a.status().name().toLowerCase(Locale.ROOT)).raw("</span></p>");
        if (a.status() == AppFilter.Status.RUNNING) {
            Layout.live(h, Urls.appApi(a.appId(), a.attemptId()), "lastEventTime", a.lastEventTime() + "/"
                    + a.status().name(), refreshSeconds, "the application is running");
        }
        h.raw("<div class=\"buttons\">");
        historyLink(h, d);
        h.raw(" <a class=\"btn\" id=\"whatif-link\" href=\"")
                .a(WhatIfView.url(a.appId(), a.attemptId()))
                .raw("\">What-if: other executor counts</a> <form class=\"inline\" method=\"get\" action=\"/compare\">"
                        + "<input type=\"hidden\" name=\"apps\" value=\"").a(a.pathKey())
                .raw("\"><input type=\"text\" name=\"apps\" placeholder=\"other application id\" aria-label=\"other application id\">"
                        + " <button class=\"btn\" type=\"submit\">Compare</button></form>");
        if (historyServerUrl != null) {
            String shs = historyServerUrl.replaceAll("/+$", "") + "/history/" + Urls.enc(a.appId())
                    + (a.attemptId() == null ? "" : "/" + Urls.enc(a.attemptId())) + "/jobs/";
            h.raw(" <a class=\"btn\" id=\"shs-link\" href=\"").a(shs).raw("\">Spark History Server</a>");
        }
        h.raw("</div></div>");
        AppTabs.render(h, a.appId(), a.attemptId(), AppTabs.Tab.OVERVIEW);

        Diagnosis diagnosis = Diagnosis.of(d.findings(), a.durationMs());
        h.raw("<div id=\"live-fix-first\" data-live-region>");
        FixFirstView.render(h, diagnosis);
        h.raw("</div><div id=\"live-metrics\" data-live-region>");
        metrics(h, a);
        h.raw("</div><div id=\"live-efficiency\" data-live-region>");
        EfficiencyView.render(h, a.efficiency(), prices);
        h.raw("</div><div id=\"live-findings\" data-live-region>");
        FindingsView.render(h, diagnosis, a.appId(), a.attemptId());
        h.raw("</div>");
        if (!streamingRuns.isEmpty()) {
            h.raw("<div id=\"live-queries\" data-live-region>");
            StreamingView.queryList(h, a, streamingRuns);
            h.raw("</div>");
        }
        config(h, d.config());
        h.raw("<div id=\"live-stages\" data-live-region>");
        StageTableView.render(h, d.stages(), d.stageOperators(), a, sort, desc);
        h.raw("</div>");
        h.raw("</article>");
        return Layout.end(h);
    }

    private static void metrics(Html h, AppHeader a) {
        h.raw("<section><h2>Metrics</h2><div class=\"cards\">");
        card(h, "Start", Fmt.time(a.startTime()));
        card(h, "End", a.endTime() > 0 ? Fmt.time(a.endTime()) : "—");
        card(h, "Duration", Fmt.duration(a.durationMs()));
        card(h, "Jobs (failed)", Fmt.count(a.numJobs()) + " (" + a.numFailedJobs() + ")");
        card(h, "Stages (failed)", Fmt.count(a.numStages()) + " (" + a.numFailedStages() + ")");
        card(h, "Tasks (failed)", Fmt.count(a.numTasks()) + " (" + Fmt.count(a.numFailedTasks()) + ")");
        card(h, "Executors", Fmt.count(a.numExecutors()));
        card(h, "Total task time", Fmt.duration(a.totalTaskTimeMs()));
        card(h, "CPU time", Fmt.duration(a.totalCpuTimeNs() / 1_000_000));
        card(h, "GC time (share)", Fmt.duration(a.totalGcTimeMs()) + " ("
                + Fmt.percent(a.totalRunTimeMs() > 0 ? (double) a.totalGcTimeMs() / a.totalRunTimeMs() : 0) + ")");
        card(h, "Spill memory / disk", Fmt.bytes(a.memoryBytesSpilled()) + " / " + Fmt.bytes(a.diskBytesSpilled()));
        card(h, "Shuffle read / write", Fmt.bytes(a.shuffleReadBytes()) + " / " + Fmt.bytes(a.shuffleWriteBytes()));
        card(h, "Input / output", Fmt.bytes(a.inputBytes()) + " / " + Fmt.bytes(a.outputBytes()));
        h.raw("</div></section>");
    }

    private static void card(Html h, String label, String value) {
        h.raw("<div class=\"card\"><div class=\"card-value\">").t(value).raw("</div><div class=\"card-label\">")
                .t(label).raw("</div></div>");
    }

    private static void config(Html h, Map<String, Map<String, String>> config) {
        Map<String, String> spark = config.getOrDefault("spark", Map.of());
        h.raw("<section><h2>Key configuration</h2><table class=\"grid kv\" id=\"key-config\"><tbody>");
        for (String k : KeyConfig.KEYS) {
            String v = spark.get(k);
            h.raw("<tr><th>").t(k).raw("</th><td").raw(v == null ? " class=\"muted\"" : "").raw(">")
                    .t(v == null ? "(default)" : v).raw("</td></tr>");
        }
        h.raw("</tbody></table>");
        int n = config.values().stream().mapToInt(Map::size).sum();
        h.raw("<details class=\"all-config\" id=\"all-config\"><summary>All configuration (").t(n)
                .raw(" entries)</summary><input type=\"search\" class=\"config-filter\" id=\"config-filter\""
                        + " placeholder=\"filter keys and values\" aria-label=\"filter configuration\">"
                        + "<table class=\"grid kv\" id=\"config-table\"><thead><tr><th>Scope</th><th>Key</th><th>Value</th>"
                        + "</tr></thead><tbody>");
        for (String scope : List.of("spark", "jvm", "system", "hadoop")) {
            for (Map.Entry<String, String> e : config.getOrDefault(scope, Map.of()).entrySet()) {
                h.raw("<tr><td class=\"muted\">").t(scope).raw("</td><td>").t(e.getKey()).raw("</td><td class=\"value\">")
                        .t(e.getValue()).raw("</td></tr>");
            }
        }
        h.raw("</tbody></table></details></section>");
    }

    private static void historyLink(Html h, AppDetail d) {
        AppHeader a = d.header();
        if (a.jobKey() != null) {
            h.raw("<a class=\"btn\" id=\"history-link\" href=\"").a(Urls.historyOfJob(a.jobKey()))
                    .raw("\" title=\"").a(a.jobKey()).raw("\">History of this job</a>");
            return;
        }
        Map<String, Map<String, String>> config = d.config();
        JobKey key = JobKey.of(a.name(), a.sparkUser(), config.getOrDefault("spark", Map.of()),
                config.getOrDefault("system", Map.of()));
        if (key.recurring()) {
            // stored before job keys existed: reanalyze gives it one; until then its name finds the job
            h.raw("<a class=\"btn\" id=\"history-link\" href=\"").a(Urls.history(a.name()))
                    .raw("\">History of this name</a>");
            return;
        }
        h.raw("<span class=\"btn disabled\" id=\"history-none\" title=\"").a("Interactive session (" + key.reason()
                + "): compared with no other run. Set " + JobKey.CONFIG_KEY + " to give it a history.")
                .raw("\">No history: interactive session</span>");
    }
}
