package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.WhatIfCost;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.analysis.whatif.WhatIfCaveat;
import io.sparkscope.core.analysis.whatif.WhatIfPoint;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.report.EfficiencyText;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.AppHeader;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * WhatIfView as it was written in code before whatIf.jte, kept verbatim as the reference the template's page is
 * compared with (WhatIfTemplateTest). {@code /apps/{appId}[/{attemptId}]/what-if}: the executor what-if as a chart.js line chart (drawn by
 * /static/whatif.js from the JSON embedded in the page) and the same points as a table, so everything but the chart
 * works without JavaScript; then the model's error at the actual count and the caveats as sentences. A page of its
 * own because the simulation reads the whole snapshot back: the app page (100 ms p95 target) only links here.
 */
final class CodeWhatIfView {
    private CodeWhatIfView() {
    }

    /** {@code /apps/{appId}[/{attemptId}]/what-if}. */
    static String url(String appId, String attemptId) {
        return Urls.app(appId, attemptId) + "/what-if";
    }

    static String render(AppWhatIf w, String json) {
        AppHeader a = w.header();
        WhatIfResult r = w.result();
        String title = a.name() == null || a.name().isEmpty() ? a.appId() : a.name();
        Html h = Layout.start("What-if · " + title, "Applications");
        h.raw("<article class=\"whatif\"><h1>");
        Layout.severity(h, a.worstSeverity());
        h.raw(" What-if: <span id=\"app-title\">").t(title).raw("</span></h1><p class=\"muted\"><span class=\"app-id\">")
                .t(a.pathKey()).raw("</span> · ").link(Urls.app(a.appId(), a.attemptId()), "back to the application")
                .raw("</p>");
        h.raw("<p>How long this run would have taken with other numbers of ").t(w.unit()).raw(": the observed task "
                + "durations are replayed into ").t(r.local() ? "one slot per core" : "executors × cores slots")
                .raw(", each job's stages after their parents, while the time no stage was running tasks (driver-only "
                        + "time) stays as it was. A model, not a measurement: see its error at the actual count below.</p>");

        if (w.incompleteTaskData()) {
            long all = w.keptTasks() + r.reconstructedTasks();
            h.raw("<p class=\"notice\" id=\"incomplete-tasks\"><strong>Incomplete task data.</strong> The stored "
                    + "snapshot keeps only the slowest tasks of each stage (and every failed one) one by one: ")
                    .t(Fmt.count(r.reconstructedTasks())).raw(" of the ").t(Fmt.count(all))
                    .raw(" task durations replayed here were rebuilt from their stage's duration quantiles. Totals and "
                            + "the slowest tasks are exact; the sizes and order of the other tasks are estimates, so "
                            + "the curve is less certain, most of all at high executor counts.</p>");
        }

        cards(h, w);
        modelError(h, w);
        conclusion(h, w);

        h.raw("<div class=\"chart-box\"><canvas id=\"whatif-chart\" aria-label=\"simulated wall time by ")
                .t(w.unit()).raw("\"></canvas></div>");
        h.raw("<script type=\"application/json\" id=\"whatif-data\">").raw(Html.jsonForScript(json)).raw("</script>");
        h.raw("<script src=\"/webjars/chart.js/4.5.1/dist/chart.umd.min.js\" defer></script>"
                + "<script src=\"/static/whatif.js\" defer></script>");

        table(h, w);
        caveats(h, w);
        form(h, w);
        h.raw("</article>");
        return Layout.end(h);
    }

    private static void cards(Html h, AppWhatIf w) {
        WhatIfResult r = w.result();
        String shape = r.local() ? r.actualSlots() + " driver cores (local mode)"
                : r.actualExecutors() + " executors × " + r.coresPerExecutor() + " cores = " + r.actualSlots() + " slots";
        h.raw("<section><div class=\"cards\">");
        card(h, "actual-shape", "The run had", shape);
        card(h, "actual-ms", "Actual wall time", Fmt.duration(r.actualDurationMs()));
        card(h, "estimated-actual-ms", "Simulated at " + r.actualExecutors() + " " + w.unit(),
                Fmt.duration(r.estimatedActualMs()));
        card(h, "critical-path-ms", "Critical path (no count does better)", Fmt.duration(r.criticalPathMs()));
        card(h, "ideal-ms", "Ideal at " + r.actualSlots() + " slots", Fmt.duration(r.idealMs()));
        card(h, "driver-ms", "Driver-only time", Fmt.duration(r.driverTimeMs()));
        card(h, "task-ms", "Task time replayed", Fmt.duration(r.taskTimeMs()));
        h.raw("</div><p class=\"hint\">Critical path: driver-only time plus each job's longest chain of stages, every "
                + "stage as long as its slowest task. Ideal: driver-only time plus task time ÷ ").t(r.actualSlots())
                .raw(" slots, i.e. perfect packing on what the run had.</p></section>");
    }

    private static void card(Html h, String id, String label, String value) {
        h.raw("<div class=\"card\" id=\"").a(id).raw("\"><div class=\"card-value\">").t(value)
                .raw("</div><div class=\"card-label\">").t(label).raw("</div></div>");
    }

    private static void modelError(Html h, AppWhatIf w) {
        WhatIfResult r = w.result();
        h.raw("<p id=\"model-error\" data-error-ms=\"").a(r.errorMs()).raw("\">Model error at the actual ")
                .t(r.actualExecutors()).raw(" ").t(w.unit()).raw(": the simulation gives ")
                .t(Fmt.duration(r.estimatedActualMs())).raw(" where the run took ").t(Fmt.duration(r.actualDurationMs()))
                .raw(", <strong>").t(signed(r.errorMs())).raw(" (").t(signedPercent(r.relativeError()))
                .raw(")</strong>. Read the other estimates with at least that margin.</p>");
    }

    /** The one-line trade-off between time and cost, e.g. "2 executors: +3 % time, −48 % cost". */
    private static void conclusion(Html h, AppWhatIf w) {
        WhatIfCost c = w.cost();
        h.raw("<p id=\"whatif-conclusion\" data-verdict=\"").a(c.conclusion().verdict().name()).raw("\"><strong>")
                .t(EfficiencyText.conclusion(c, w.result().local())).raw("</strong>");
        if (c.priced()) {
            h.raw(" <span class=\"muted\">(").t(EfficiencyText.formula(c.prices()))
                    .raw(", each count's executors held for its simulated wall time)</span>");
        } else {
            h.raw(" <span class=\"muted\">(core-hours: no prices set; ").t(EfficiencyView.HOW_TO_PRICE)
                    .raw(")</span>");
        }
        h.raw("</p>");
    }

    private static void table(Html h, AppWhatIf w) {
        WhatIfResult r = w.result();
        String unit = w.unit();
        h.raw("<table class=\"grid\" id=\"whatif-table\"><thead><tr><th class=\"num\">")
                .t(unit.substring(0, 1).toUpperCase(Locale.ROOT) + unit.substring(1))
                .raw("</th><th class=\"num\">Slots</th><th class=\"num\">Simulated wall time</th>"
                        + "<th class=\"num\">vs simulated actual</th><th class=\"num\">")
                .t(w.cost().priced() ? "Cost" : "Core-hours").raw("</th><th class=\"num\">")
                .t(w.cost().priced() ? "Cost vs actual" : "Core-hours vs actual").raw("</th><th></th></tr></thead><tbody>");
        for (int i = 0; i < r.curve().size(); i++) {
            WhatIfPoint p = r.curve().get(i);
            WhatIfCost.Point c = w.cost().points().get(i);
            double change = r.estimatedActualMs() == 0 ? 0
                    : (double) (p.estimatedWallMs() - r.estimatedActualMs()) / r.estimatedActualMs();
            h.raw("<tr").raw(p.actual() ? " class=\"actual\"" : "").raw(" data-executors=\"").a(p.executors())
                    .raw("\" data-slots=\"").a(p.slots()).raw("\" data-ms=\"").a(p.estimatedWallMs())
                    .raw("\"><td class=\"num\">").t(p.executors()).raw("</td><td class=\"num\">").t(p.slots())
                    .raw("</td><td class=\"num\">").t(Fmt.duration(p.estimatedWallMs())).raw("</td><td class=\"num\">")
                    .t(p.actual() ? "—" : signedPercent(change)).raw("</td><td class=\"num cost\" data-cost=\"")
                    .a(c.cost()).raw("\">").t(w.cost().priced() ? EfficiencyText.money(c.cost(),
                            w.cost().prices().currency()) : EfficiencyText.hours(c.coreHours()))
                    .raw("</td><td class=\"num\">").t(p.actual() ? "—" : EfficiencyText.signedPercent(c.costChange()))
                    .raw("</td><td>")
                    .t(p.actual() ? "the run's own count (actual wall time " + Fmt.duration(r.actualDurationMs()) + ")" : "")
                    .raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }

    private static void caveats(Html h, AppWhatIf w) {
        List<WhatIfCaveat> cs = w.result().caveats();
        if (cs.isEmpty()) {
            return;
        }
        h.raw("<section><h2>Caveats</h2><ul id=\"whatif-caveats\">");
        for (WhatIfCaveat c : cs) {
            h.raw("<li data-code=\"").a(c.name()).raw("\">").t(AppWhatIf.describe(c, w.result())).raw("</li>");
        }
        h.raw("</ul></section>");
    }

    private static void form(Html h, AppWhatIf w) {
        WhatIfResult r = w.result();
        String counts = w.requested() == null ? "" : w.requested().stream().map(String::valueOf)
                .collect(Collectors.joining(","));
        h.raw("<section class=\"panel\" id=\"whatif-form\"><h2>Other counts</h2><form method=\"get\" action=\"")
                .a(url(w.header().appId(), w.header().attemptId())).raw("\"><label>")
                .t(w.unit().substring(0, 1).toUpperCase(Locale.ROOT) + w.unit().substring(1))
                .raw(" to simulate <input type=\"text\" name=\"executors\" size=\"28\" placeholder=\"e.g. 2,4,16,64\" value=\"")
                .a(counts).raw("\"></label> <label>task order <select name=\"order\">");
        for (TaskOrder o : TaskOrder.values()) {
            h.raw("<option value=\"").a(o.name().toLowerCase(Locale.ROOT)).raw("\"")
                    .raw(o == r.order() ? " selected" : "").raw(">")
                    .t(o == TaskOrder.LONGEST_FIRST ? "longest task first" : "launch order").raw("</option>");
        }
        h.raw("</select></label> <button class=\"btn primary\">Simulate</button></form><p class=\"hint\">Comma-separated, "
                + "up to ").t(AppWhatIf.MAX_COUNTS).raw(" counts; empty for 25 %–400 % of the run's own. Longest task "
                        + "first packs each stage as well as a list schedule can (a best case); launch order keeps "
                        + "the recorded tasks where Spark launched them.</p></section>");
    }

    static String signed(long ms) {
        return (ms < 0 ? "−" : "+") + Fmt.duration(Math.abs(ms));
    }

    static String signedPercent(double share) {
        return String.format(Locale.ROOT, "%+.1f %%", share * 100).replace('-', '−');
    }
}
