package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.server.web.model.SchedulerLinks;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;

import java.util.List;
import java.util.Map;

/**
 * {@code /apps/{appId}[/{attemptId}]}: metrics, findings, Structured Streaming queries, configuration, stages. A
 * RUNNING application's page updates its metrics, findings, queries and stages in place ({@link Layout#live}). The
 * markup is app.jte.
 */
final class AppView {
    /** The configuration scopes the "all configuration" table lists, in this order. */
    static final List<String> CONFIG_SCOPES = List.of("spark", "jvm", "system", "hadoop");

    private AppView() {
    }

    /** A figure of the metrics section: its value as shown and what it is. */
    record Card(String label, String value) {
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
        return render(d, streamingRuns, historyServerUrl, sort, desc, refreshSeconds, prices, Map.of());
    }

    /** @param triedWithoutHelp advice an earlier run of the job applied without it helping ({@link Diagnosis#of}) */
    static String render(AppDetail d, List<StreamingQuerySummary> streamingRuns, String historyServerUrl,
                         StageTableView.StageSort sort, boolean desc, int refreshSeconds, Prices prices,
                         Map<String, String> triedWithoutHelp) {
        return render(d, streamingRuns, historyServerUrl, sort, desc, refreshSeconds, prices, triedWithoutHelp,
                SchedulerLinks.NONE);
    }

    /** @param scheduler links to the scheduler that started the application, when its address is known */
    static String render(AppDetail d, List<StreamingQuerySummary> streamingRuns, String historyServerUrl,
                         StageTableView.StageSort sort, boolean desc, int refreshSeconds, Prices prices,
                         Map<String, String> triedWithoutHelp, SchedulerLinks scheduler) {
        AppHeader a = d.header();
        String title = a.name() == null || a.name().isEmpty() ? a.appId() : a.name();
        String shs = historyServerUrl == null ? null : historyServerUrl.replaceAll("/+$", "") + "/history/"
                + Urls.enc(a.appId()) + (a.attemptId() == null ? "" : "/" + Urls.enc(a.attemptId())) + "/jobs/";
        Html h = new Html(16 * 1024);
        JteappGenerated.render(new PageOutput(h), null, d, title, Diagnosis.of(d.findings(), a.durationMs(), triedWithoutHelp),
                PageOutput.markup(out -> HistoryLink.render(out, d)), shs,
                streamingRuns.isEmpty() ? null : PageOutput.markup(out -> StreamingView.queryList(out, a, streamingRuns)),
                PageOutput.markup(out -> StageTableView.render(out, d.stages(), d.stageOperators(), a, sort, desc)),
                refreshSeconds, prices, PageOutput.markup(out -> SchedulerView.render(out,
                        // read from its settings, so an application stored before the scheduler columns shows it too
                        Lineage.of(d.config().getOrDefault("spark", Map.of())),
                        a.jobKey() == null ? null : Urls.historyOfJob(a.jobKey()), scheduler)));
        return h.toString();
    }

    /** The metrics section's figures, in the order shown. */
    static List<Card> metrics(AppHeader a) {
        return List.of(
                new Card("Start", Fmt.time(a.startTime())),
                new Card("End", a.endTime() > 0 ? Fmt.time(a.endTime()) : "—"),
                new Card("Duration", Fmt.duration(a.durationMs())),
                new Card("Jobs (failed)", Fmt.count(a.numJobs()) + " (" + a.numFailedJobs() + ")"),
                new Card("Stages (failed)", Fmt.count(a.numStages()) + " (" + a.numFailedStages() + ")"),
                new Card("Tasks (failed)", Fmt.count(a.numTasks()) + " (" + Fmt.count(a.numFailedTasks()) + ")"),
                new Card("Executors", Fmt.count(a.numExecutors())),
                new Card("Total task time", Fmt.duration(a.totalTaskTimeMs())),
                new Card("CPU time", Fmt.duration(a.totalCpuTimeNs() / 1_000_000)),
                new Card("GC time (share)", Fmt.duration(a.totalGcTimeMs()) + " ("
                        + Fmt.percent(a.totalRunTimeMs() > 0 ? (double) a.totalGcTimeMs() / a.totalRunTimeMs() : 0)
                        + ")"),
                new Card("Spill memory / disk", Fmt.bytes(a.memoryBytesSpilled()) + " / "
                        + Fmt.bytes(a.diskBytesSpilled())),
                new Card("Shuffle read / write", Fmt.bytes(a.shuffleReadBytes()) + " / "
                        + Fmt.bytes(a.shuffleWriteBytes())),
                new Card("Input / output", Fmt.bytes(a.inputBytes()) + " / " + Fmt.bytes(a.outputBytes())));
    }
}
