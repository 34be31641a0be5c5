package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.report.EfficiencyText;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Fmt;
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

/** {@code /apps}: filters on the left (a GET form, so every search is a shareable URL), one panel per application. */
final class SearchView {
    private SearchView() {
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
        Map<String, String> q = p.query();
        boolean runningOnly = "running".equals(q.get("status"));
        Html h = Layout.start(runningOnly ? "Running now" : "Applications", runningOnly ? "Running now" : "Applications");
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
        pager(h, p, total, r.totalIsLowerBound());
        h.raw("</div></section></div>");
        return Layout.end(h);
    }

    private static void panel(Html h, AppListRow a, Prices prices) {
        String key = a.attemptId() == null ? a.appId() : a.appId() + "/" + a.attemptId();
        h.raw("<article class=\"app-panel ").raw(Fmt.severityClass(a.worstSeverity())).raw("\" data-severity=\"")
                .raw(Fmt.severityWord(a.worstSeverity())).raw("\">");
        h.raw("<div class=\"panel-head\"><label class=\"pick\"><input type=\"checkbox\" name=\"apps\" form=\"compare-form\""
                + " value=\"").a(key).raw("\" title=\"Pick to compare\"></label>");
        Layout.severity(h, a.worstSeverity());
        h.raw(" <a class=\"app-name\" href=\"").a(Urls.app(a.appId(), a.attemptId())).raw("\">")
                .t(a.name() == null || a.name().isEmpty() ? "(no name)" : a.name()).raw("</a>");
        h.raw(" <span class=\"app-id\">").t(key).raw("</span>");
        h.raw("<span class=\"status status-").raw(a.status().name().toLowerCase(Locale.ROOT)).raw("\">")
                .t(a.status().name().toLowerCase(Locale.ROOT)).raw("</span></div>");
        h.raw("<dl class=\"facts\"><dt>User</dt><dd class=\"user\">").t(a.sparkUser()).raw("</dd><dt>Start</dt><dd>")
                .t(Fmt.time(a.startTime())).raw("</dd><dt>End</dt><dd>").t(a.endTime() > 0 ? Fmt.time(a.endTime()) : "—")
                .raw("</dd><dt>Duration</dt><dd>").t(Fmt.duration(a.durationMs())).raw("</dd><dt>Jobs / stages / tasks</dt><dd>")
                .t(Fmt.count(a.numJobs())).t(" / ").t(Fmt.count(a.numStages())).t(" / ").t(Fmt.count(a.numTasks()))
                .raw("</dd>");
        if (a.savingMs() > 0) {
            h.raw("<dt>Could save</dt><dd class=\"saving\" data-ms=\"").t(a.savingMs()).raw("\">")
                    .t(Fmt.duration(a.savingMs())).raw("</dd>");
        }
        waste(h, a.efficiency(), prices);
        h.raw("</dl>");
        if (!a.findings().isEmpty()) {
            h.raw("<div class=\"banners\">");
            for (Finding f : a.findings()) {
                h.raw("<span class=\"banner ").raw(f.severity() == Severity.HIGH ? "banner-high" : "banner-low")
                        .raw("\" title=\"").a(f.message()).raw("\">").t(f.severity().name()).raw(" · ").t(f.heuristic()).raw(": ")
                        .t(f.title()).raw("</span>");
            }
            h.raw("</div>");
        }
        h.raw("</article>");
    }

    /** Idle core-hours, unused GB-hours and, with prices, what they cost; "not computed" for a row without them. */
    private static void waste(Html h, AppEfficiency e, Prices prices) {
        h.raw("<dt>Wasted</dt>");
        if (e == null) {
            h.raw("<dd class=\"waste muted\">not computed</dd>");
            return;
        }
        // six decimals (a second of one core is 0.000278 h): machine-readable without Double.toString per row
        h.raw("<dd class=\"waste\" data-core-hours=\"").a(Units.fixed(e.coreHoursWasted(), 6)).raw("\">")
                .t(EfficiencyText.hours(e.coreHoursWasted())).raw(" idle core-h");
        if (e.memoryMeasured()) {
            h.raw(" · ").t(EfficiencyText.hours(e.gbHoursWasted())).raw(" unused GB-h");
        }
        Cost c = StoredCost.of(e, prices);
        if (c != null) {
            h.raw(" · <span class=\"waste-cost\">").t(EfficiencyText.money(c.wasted(), prices.currency()))
                    .raw("</span> of ").t(EfficiencyText.money(c.allocated(), prices.currency()));
        }
        h.raw("</dd>");
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

    private static void pager(Html h, SearchParams p, long total, boolean more) {
        long pages = Math.max(1, (total + SearchParams.PAGE_SIZE - 1) / SearchParams.PAGE_SIZE);
        if (pages <= 1 && !more) {
            return;
        }
        h.raw("<nav class=\"pager\">");
        if (p.page() > 1) {
            h.raw("<a class=\"btn\" rel=\"prev\" href=\"")
                    .a(Urls.withQuery("/apps", Urls.with(p.query(), "page", String.valueOf(p.page() - 1)))).raw("\">← previous</a>");
        }
        h.raw(" <span>page ").t(p.page()).raw(" of ").t(pages).raw(more ? "+" : "").raw("</span> ");
        if (p.page() < pages || more) {
            h.raw("<a class=\"btn\" rel=\"next\" href=\"")
                    .a(Urls.withQuery("/apps", Urls.with(p.query(), "page", String.valueOf(p.page() + 1)))).raw("\">next →</a>");
        }
        h.raw("</nav>");
    }

    static String statusWord(AppFilter.Status s) {
        return s.name().toLowerCase(Locale.ROOT);
    }
}
