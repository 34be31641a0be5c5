package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.report.EfficiencyText;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.StoredCost;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The search page as it was written in code before search.jte, kept as the reference the template's page must equal
 * byte for byte ({@link SearchTemplateTest}) and as the baseline of {@link PageRenderBench}. Unchanged but for the
 * page's size estimate, which it takes from {@link SearchView} instead of a copy.
 */
final class CodeSearchView {
    private CodeSearchView() {
    }

    static String render(SearchParams p, AppSearchQuery.Result r, List<String> heuristics) {
        return render(p, r, heuristics, Layout.DEFAULT_REFRESH_SECONDS, Prices.NONE);
    }

    /**
     * @param refreshSeconds how often the list of running applications ({@code ?status=running}) updates itself
     * @param prices         the operator's prices, for each application's wasted amount
     */
    static String render(SearchParams p, AppSearchQuery.Result r, List<String> heuristics, int refreshSeconds,
                         Prices prices) {
        return page(p, r, heuristics, refreshSeconds, prices).toString();
    }

    /** As {@link #render(SearchParams, AppSearchQuery.Result, List, int, Prices)}: the page as its builder, to send. */
    static Html page(SearchParams p, AppSearchQuery.Result r, List<String> heuristics, int refreshSeconds,
                     Prices prices) {
        Map<String, String> q = p.query();
        boolean runningOnly = "running".equals(q.get("status"));
        Html h = Layout.start(runningOnly ? "Running now" : "Applications", runningOnly ? "Running now" : "Applications",
                SearchView.capacity(r.rows()));
        h.raw("<div class=\"search\"><aside class=\"filters\"><form method=\"get\" action=\"/apps\" id=\"filter-form\">"
                + "<h2>Filters</h2>");
        input(h, "appId", "Application id", q.get("appId"), "text");
        input(h, "name", "Name contains", q.get("name"), "text");
        input(h, "user", "User", q.get("user"), "text");
        h.raw("<fieldset><legend>Started</legend>");
        input(h, "startedFrom", "from", q.get("startedFrom"), "text");
        input(h, "startedTo", "to", q.get("startedTo"), "text");
        h.raw("<div class=\"quick\">");
        for (SearchParams.Since s : SearchParams.Since.values()) {
            boolean on = s.param.equals(q.get("since"));
            h.raw("<a class=\"btn small").raw(on ? " on" : "").raw("\" href=\"")
                    .a(Urls.withQuery("/apps", Urls.with(q, "since", on ? null : s.param, "page", null)))
                    .raw("\">").t(s.label).raw("</a>");
        }
        h.raw("</div>");
        if (q.get("since") != null) {
            h.raw("<input type=\"hidden\" name=\"since\" value=\"").a(q.get("since")).raw("\">");
        }
        h.raw("</fieldset><fieldset><legend>Ended</legend>");
        input(h, "endedFrom", "from", q.get("endedFrom"), "text");
        input(h, "endedTo", "to", q.get("endedTo"), "text");
        h.raw("<p class=\"hint\">ISO-8601 (2026-11-29 or 2026-11-29T10:00Z) or epoch ms, UTC</p></fieldset>");
        h.raw("<fieldset id=\"scheduler-filters\"><legend>Scheduler</legend>");
        input(h, "dag", "Airflow DAG", q.get("dag"), "text");
        input(h, "task", "Task", q.get("task"), "text");
        input(h, "parentJob", "OpenLineage job", q.get("parentJob"), "text");
        input(h, "parentRun", "Run id", q.get("parentRun"), "text");
        h.raw("</fieldset>");
        select(h, "severity", "Severity", q.get("severity"), List.of("high", "low", "none"),
                List.of("HIGH", "LOW", "OK (no finding)"));
        List<String> hs = new java.util.ArrayList<>(heuristics);
        if (q.get("heuristic") != null && !hs.contains(q.get("heuristic"))) {
            hs.add(q.get("heuristic"));
        }
        select(h, "heuristic", "Heuristic", q.get("heuristic"), hs, hs);
        select(h, "status", "Status", q.get("status"), List.of("running", "complete", "incomplete"),
                List.of("running", "complete", "incomplete (no end, silent > 1 h)"));
        if (q.get("sort") != null) {
            h.raw("<input type=\"hidden\" name=\"sort\" value=\"").a(q.get("sort")).raw("\">");
        }
        if (q.get("order") != null) {
            h.raw("<input type=\"hidden\" name=\"order\" value=\"").a(q.get("order")).raw("\">");
        }
        h.raw("<div class=\"actions\"><button type=\"submit\" class=\"btn primary\" id=\"apply\">Search</button>"
                + " <a class=\"btn\" href=\"/apps\">Clear</a></div></form></aside><section class=\"results\">");

        long total = r.total();
        if (runningOnly) {
            // The list itself changes while applications start and end: the whole answer is the version.
            Layout.live(h, Urls.withQuery("/api/v1/apps", Urls.with(q, "page", null)), null, null, refreshSeconds,
                    "these applications are running");
        }
        h.raw("<div id=\"live-results\" data-live-region>");
        h.raw("<div class=\"results-head\"><h1>").t(runningOnly ? "Running now" : "Applications")
                .raw("</h1><span class=\"muted\" id=\"result-count\">")
                .t(Fmt.count(total)).raw(r.totalIsLowerBound() ? "+" : "")
                .t(total == 1 && !r.totalIsLowerBound() ? " application" : " applications").raw("</span>");
        // In the results' head rather than the filters, so the filter form keeps its height (its button in view).
        h.raw(" <a class=\"btn small").raw(runningOnly ? " on" : "").raw("\" id=\"running-now\" href=\"")
                .a(Urls.withQuery("/apps", Urls.with(q, "status", runningOnly ? null : "running", "page", null)))
                .raw("\">running now</a>");
        h.raw("<span class=\"sort\">Sort: ");
        sortLink(h, q, "start", "desc", "newest");
        sortLink(h, q, "start", "asc", "oldest");
        sortLink(h, q, "duration", "desc", "longest");
        sortLink(h, q, "duration", "asc", "shortest");
        sortLink(h, q, "saving", "desc", "largest saving");
        sortLink(h, q, "waste", "desc", "most idle core-hours");
        // Beside its sort rather than in the filters, so the filter form keeps its height (its button in view); it
        // still belongs to that form.
        h.raw("<label class=\"min-waste\">at least <input type=\"text\" name=\"minWaste\" id=\"f-minWaste\""
                + " form=\"filter-form\" size=\"4\" value=\"").a(q.get("minWaste") == null ? "" : q.get("minWaste"))
                .raw("\" aria-label=\"at least this many idle core-hours\"> idle core-h</label>");
        h.raw("</span><form id=\"compare-form\" method=\"get\" action=\"/compare\">"
                + "<button type=\"submit\" class=\"btn\" id=\"compare-selected\">Compare selected</button></form></div>");
        if (r.rows().isEmpty()) {
            h.raw("<p class=\"empty\">No application matches these filters.</p>");
        }
        for (AppListRow a : r.rows()) {
            panel(h, a, prices);
        }
        pager(h, p, r, total, r.totalIsLowerBound());
        h.raw("</div></section></div>");
        return Layout.finish(h);
    }

    // The fragments written once per application (50 a page), converted to bytes once.
    private static final Html.Markup PANEL_OPEN = Html.markup("<article class=\"app-panel ");
    private static final Html.Markup PANEL_SEVERITY = Html.markup("\" data-severity=\"");
    private static final Html.Markup PANEL_PICK = Html.markup("\"><div class=\"panel-head\"><label class=\"pick\">"
            + "<input type=\"checkbox\" name=\"apps\" form=\"compare-form\" value=\"");
    private static final Html.Markup PICK_END = Html.markup("\" title=\"Pick to compare\"></label>");
    private static final Html.Markup PILL_OPEN = Html.markup("<span class=\"pill ");
    private static final Html.Markup TAG_END = Html.markup("\">");
    private static final Html.Markup SPAN_END = Html.markup("</span>");
    private static final Html.Markup NAME_OPEN = Html.markup(" <a class=\"app-name\" href=\"");
    private static final Html.Markup NAME_END = Html.markup("</a> <span class=\"app-id\">");
    private static final Html.Markup STATUS_OPEN = Html.markup("</span><span class=\"status status-");
    private static final Html.Markup FACTS_USER = Html.markup("</span></div><dl class=\"facts\"><dt>User</dt>"
            + "<dd class=\"user\">");
    private static final Html.Markup FACTS_START = Html.markup("</dd><dt>Start</dt><dd>");
    private static final Html.Markup FACTS_END = Html.markup("</dd><dt>End</dt><dd>");
    private static final Html.Markup FACTS_DURATION = Html.markup("</dd><dt>Duration</dt><dd>");
    private static final Html.Markup FACTS_COUNTS = Html.markup("</dd><dt>Jobs / stages / tasks</dt><dd>");
    private static final Html.Markup SLASH = Html.markup(" / ");
    private static final Html.Markup DD_END = Html.markup("</dd>");
    private static final Html.Markup SAVING_OPEN = Html.markup("<dt>Could save</dt><dd class=\"saving\" data-ms=\"");
    private static final Html.Markup FACTS_CLOSE = Html.markup("</dl>");
    private static final Html.Markup BANNERS_OPEN = Html.markup("<div class=\"banners\">");
    private static final Html.Markup BANNER_HIGH = Html.markup("<span class=\"banner banner-high\" title=\"");
    private static final Html.Markup BANNER_LOW = Html.markup("<span class=\"banner banner-low\" title=\"");
    private static final Html.Markup DOT = Html.markup(" · ");
    private static final Html.Markup COLON = Html.markup(": ");
    private static final Html.Markup BANNERS_CLOSE = Html.markup("</div>");
    private static final Html.Markup PANEL_CLOSE = Html.markup("</article>");
    private static final Html.Markup WASTE_NONE = Html.markup("<dt>Wasted</dt><dd class=\"waste muted\">not computed</dd>");
    private static final Html.Markup WASTE_OPEN = Html.markup("<dt>Wasted</dt><dd class=\"waste\" data-core-hours=\"");
    private static final Html.Markup IDLE_CORE_H = Html.markup(" idle core-h");
    private static final Html.Markup UNUSED_GB_H = Html.markup(" unused GB-h");
    private static final Html.Markup COST_OPEN = Html.markup(" · <span class=\"waste-cost\">");
    private static final Html.Markup COST_OF = Html.markup("</span> of ");

    private static void panel(Html h, AppListRow a, Prices prices) {
        String key = a.attemptId() == null ? a.appId() : a.appId() + "/" + a.attemptId();
        String severityClass = Fmt.severityClass(a.worstSeverity());
        h.raw(PANEL_OPEN).raw(severityClass).raw(PANEL_SEVERITY).raw(Fmt.severityWord(a.worstSeverity()))
                .raw(PANEL_PICK).a(key).raw(PICK_END);
        // as Layout.severity writes it
        h.raw(PILL_OPEN).raw(severityClass).raw(TAG_END).t(Fmt.severityWord(a.worstSeverity())).raw(SPAN_END);
        String status = a.status().name().toLowerCase(Locale.ROOT);
        h.raw(NAME_OPEN).a(Urls.app(a.appId(), a.attemptId())).raw(TAG_END)
                .t(a.name() == null || a.name().isEmpty() ? "(no name)" : a.name()).raw(NAME_END);
        h.t(key).raw(STATUS_OPEN).raw(status).raw(TAG_END).t(status);
        h.raw(FACTS_USER).t(a.sparkUser()).raw(FACTS_START)
                .t(Fmt.time(a.startTime())).raw(FACTS_END).t(a.endTime() > 0 ? Fmt.time(a.endTime()) : "—")
                .raw(FACTS_DURATION).t(Fmt.duration(a.durationMs())).raw(FACTS_COUNTS)
                .t(Fmt.count(a.numJobs())).raw(SLASH).t(Fmt.count(a.numStages())).raw(SLASH).t(Fmt.count(a.numTasks()))
                .raw(DD_END);
        if (a.savingMs() > 0) {
            h.raw(SAVING_OPEN).t(a.savingMs()).raw(TAG_END).t(Fmt.duration(a.savingMs())).raw(DD_END);
        }
        waste(h, a.efficiency(), prices);
        h.raw(FACTS_CLOSE);
        if (!a.findings().isEmpty()) {
            h.raw(BANNERS_OPEN);
            for (Finding f : a.findings()) {
                h.raw(f.severity() == Severity.HIGH ? BANNER_HIGH : BANNER_LOW).a(f.message()).raw(TAG_END)
                        .t(f.severity().name()).raw(DOT).t(f.heuristic()).raw(COLON).t(f.title()).raw(SPAN_END);
            }
            h.raw(BANNERS_CLOSE);
        }
        h.raw(PANEL_CLOSE);
    }

    /** Idle core-hours, unused GB-hours and, with prices, what they cost; "not computed" for a row without them. */
    private static void waste(Html h, AppEfficiency e, Prices prices) {
        if (e == null) {
            h.raw(WASTE_NONE);
            return;
        }
        // six decimals (a second of one core is 0.000278 h): machine-readable without Double.toString per row
        h.raw(WASTE_OPEN).a(Units.fixed(e.coreHoursWasted(), 6)).raw(TAG_END)
                .t(EfficiencyText.hours(e.coreHoursWasted())).raw(IDLE_CORE_H);
        if (e.memoryMeasured()) {
            h.raw(DOT).t(EfficiencyText.hours(e.gbHoursWasted())).raw(UNUSED_GB_H);
        }
        Cost c = StoredCost.of(e, prices);
        if (c != null) {
            h.raw(COST_OPEN).t(EfficiencyText.money(c.wasted(), prices.currency()))
                    .raw(COST_OF).t(EfficiencyText.money(c.allocated(), prices.currency()));
        }
        h.raw(DD_END);
    }

    private static void input(Html h, String name, String label, String value, String type) {
        h.raw("<label class=\"field\"><span>").t(label).raw("</span><input type=\"").raw(type).raw("\" name=\"")
                .raw(name).raw("\" id=\"f-").raw(name).raw("\" value=\"").a(value == null ? "" : value).raw("\"></label>");
    }

    private static void select(Html h, String name, String label, String value, List<String> values,
                               List<String> labels) {
        h.raw("<label class=\"field\"><span>").t(label).raw("</span><select name=\"").raw(name).raw("\" id=\"f-")
                .raw(name).raw("\"><option value=\"\">any</option>");
        for (int i = 0; i < values.size(); i++) {
            h.raw("<option value=\"").a(values.get(i)).raw("\"")
                    .raw(values.get(i).equals(value) ? " selected" : "").raw(">").t(labels.get(i)).raw("</option>");
        }
        h.raw("</select></label>");
    }

    private static void sortLink(Html h, Map<String, String> q, String sort, String order, String label) {
        boolean on = sort.equals(q.getOrDefault("sort", "start")) && order.equals(q.getOrDefault("order", "desc"));
        h.raw("<a class=\"sort-link").raw(on ? " on" : "").raw("\" href=\"")
                .a(Urls.withQuery("/apps", Urls.with(q, "sort", sort, "order", order, "page", null)))
                .raw("\">").t(label).raw("</a> ");
    }

    private static void pager(Html h, SearchParams p, AppSearchQuery.Result r, long total, boolean more) {
        long pages = Math.max(1, (total + SearchParams.PAGE_SIZE - 1) / SearchParams.PAGE_SIZE);
        if (pages <= 1 && !more) {
            return;
        }
        SearchView.Pager links = SearchView.pager(p, r); // where the links point (keyset cursors) is decided there
        h.raw("<nav class=\"pager\">");
        if (p.page() > 1) {
            h.raw("<a class=\"btn\" rel=\"prev\" href=\"").a(links.previous()).raw("\">← previous</a>");
        }
        h.raw(" <span>page ").t(p.page()).raw(" of ").t(pages).raw(more ? "+" : "").raw("</span> ");
        if (links.next() != null) {
            h.raw("<a class=\"btn\" rel=\"next\" href=\"").a(links.next()).raw("\">next →</a>");
        }
        h.raw("</nav>");
    }

    static String statusWord(AppFilter.Status s) {
        return s.name().toLowerCase(Locale.ROOT);
    }
}
