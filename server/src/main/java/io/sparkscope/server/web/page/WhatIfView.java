package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.AppHeader;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code /apps/{appId}[/{attemptId}]/what-if}: the executor what-if as a chart.js line chart (drawn by
 * /static/whatif.js from the JSON embedded in the page) and the same points as a table, so everything but the chart
 * works without JavaScript; then the model's error at the actual count and the caveats as sentences. A page of its
 * own because the simulation reads the whole snapshot back: the app page (100 ms p95 target) only links here.
 * The markup is whatIf.jte.
 */
final class WhatIfView {
    private WhatIfView() {
    }

    /** {@code /apps/{appId}[/{attemptId}]/what-if}. */
    static String url(String appId, String attemptId) {
        return Urls.app(appId, attemptId) + "/what-if";
    }

    /** A figure of the page's cards: its element id, what it is, its value as shown. */
    record Card(String id, String label, String value) {
    }

    static String render(AppWhatIf w, String json) {
        AppHeader a = w.header();
        String title = a.name() == null || a.name().isEmpty() ? a.appId() : a.name();
        Html h = new Html(16 * 1024);
        JtewhatIfGenerated.render(new PageOutput(h), null, w, title,
                PageOutput.markup(out -> out.raw(Html.jsonForScript(json))));
        return h.toString();
    }

    /** The cards, in the order shown: the run's shape, its actual and simulated times, their bounds. */
    static List<Card> cards(AppWhatIf w) {
        WhatIfResult r = w.result();
        String shape = r.local() ? r.actualSlots() + " driver cores (local mode)"
                : r.actualExecutors() + " executors × " + r.coresPerExecutor() + " cores = " + r.actualSlots() + " slots";
        return List.of(new Card("actual-shape", "The run had", shape),
                new Card("actual-ms", "Actual wall time", Fmt.duration(r.actualDurationMs())),
                new Card("estimated-actual-ms", "Simulated at " + r.actualExecutors() + " " + w.unit(),
                        Fmt.duration(r.estimatedActualMs())),
                new Card("critical-path-ms", "Critical path (no count does better)", Fmt.duration(r.criticalPathMs())),
                new Card("ideal-ms", "Ideal at " + r.actualSlots() + " slots", Fmt.duration(r.idealMs())),
                new Card("driver-ms", "Driver-only time", Fmt.duration(r.driverTimeMs())),
                new Card("task-ms", "Task time replayed", Fmt.duration(r.taskTimeMs())));
    }

    /** The counts the user asked for, as the form shows them again ("" for the default ones). */
    static String counts(AppWhatIf w) {
        return w.requested() == null ? "" : w.requested().stream().map(String::valueOf)
                .collect(Collectors.joining(","));
    }

    static String signed(long ms) {
        return (ms < 0 ? "−" : "+") + Fmt.duration(Math.abs(ms));
    }

    static String signedPercent(double share) {
        return String.format(Locale.ROOT, "%+.1f %%", share * 100).replace('-', '−');
    }
}
