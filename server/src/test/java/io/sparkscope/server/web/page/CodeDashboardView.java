package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.WasteQuery;

/**
 * DashboardView as it was written in code before dashboard.jte, kept verbatim as the reference the template's page
 * is compared with (DashboardTemplateTest).
 */
final class CodeDashboardView {
    private CodeDashboardView() {
    }

    static String render(DashboardQuery.Dashboard d) {
        return render(d, null, Prices.NONE);
    }

    /** @param waste the week's waste, or null to leave the panel out */
    static String render(DashboardQuery.Dashboard d, WasteQuery.Result waste, Prices prices) {
        Html h = Layout.start("Dashboard", "Dashboard");
        h.raw("<h1>Dashboard</h1><section class=\"cards\">");
        card(h, "Applications", Fmt.count(d.applications()));
        card(h, "Executors", Fmt.count(d.executors()));
        card(h, "Jobs", Fmt.count(d.jobs()));
        card(h, "Stages", Fmt.count(d.stages()));
        card(h, "Tasks", Fmt.count(d.tasks()));
        h.raw("</section><section class=\"two-col\"><div class=\"panel\"><h2>Health</h2><table class=\"grid\">"
                + "<thead><tr><th>Started in</th><th>");
        Layout.severity(h, "HIGH");
        h.raw("</th><th>");
        Layout.severity(h, "LOW");
        h.raw("</th><th>");
        Layout.severity(h, null);
        h.raw("</th></tr></thead><tbody>");
        health(h, "last day", "1d", d.lastDay());
        health(h, "last week", "1w", d.lastWeek());
        h.raw("</tbody></table>");
        h.raw("<h2>Newest application</h2>");
        if (d.newest().isPresent()) {
            AppListRow a = d.newest().get();
            h.raw("<p>");
            Layout.severity(h, a.worstSeverity());
            h.raw(" ").link(Urls.app(a.appId(), a.attemptId()), a.name() == null ? a.appId() : a.name())
                    .raw(" <span class=\"muted\">").t(a.appId()).raw(" · ").t(Fmt.time(a.startTime())).raw("</span></p>");
        } else {
            h.raw("<p class=\"muted\">No application recorded yet. Import event logs with "
                    + "<code>sparkscope import</code> or run Spark with the listener.</p>");
        }
        h.raw("</div><div class=\"panel\" id=\"top-findings\"><h2>Costliest findings</h2>"
                + "<p class=\"hint\">Root causes by the time fixing them would save, summed over the stored"
                + " applications (knock-on findings count with their cause).</p>");
        if (d.topFindings().isEmpty()) {
            h.raw("<p class=\"muted\">No findings.</p>");
        } else {
            h.raw("<table class=\"grid\"><thead><tr><th>Heuristic</th><th>Worst</th><th class=\"num\">Wall time"
                    + " saved</th><th class=\"num\">Task time saved</th><th class=\"num\">Applications</th>"
                    + "</tr></thead><tbody>");
            for (DashboardQuery.TopFinding f : d.topFindings()) {
                h.raw("<tr data-heuristic=\"").a(f.heuristic()).raw("\"><td>")
                        .link("/apps?heuristic=" + Urls.enc(f.heuristic()), f.heuristic()).raw("</td><td>");
                Layout.severity(h, f.severity());
                h.raw("</td><td class=\"num\">").t(f.wallMsSaved() > 0 ? Fmt.duration(f.wallMsSaved()) : "—")
                        .raw("</td><td class=\"num\">").t(f.taskMsSaved() > 0 ? Fmt.coreHours(f.taskMsSaved()) : "—")
                        .raw("</td><td class=\"num\">").t(Fmt.count(f.apps())).raw("</td></tr>");
            }
            h.raw("</tbody></table>");
        }
        h.raw("</div></section>");
        if (waste != null) {
            WasteView.render(h, waste, prices);
        }
        return Layout.end(h);
    }

    private static void card(Html h, String label, String value) {
        h.raw("<div class=\"card\"><div class=\"card-value\">").t(value).raw("</div><div class=\"card-label\">")
                .t(label).raw("</div></div>");
    }

    private static void health(Html h, String label, String since, DashboardQuery.Health x) {
        h.raw("<tr><td>").t(label).raw("</td><td>")
                .link("/apps?since=" + since + "&severity=high", Fmt.count(x.red())).raw("</td><td>")
                .link("/apps?since=" + since + "&severity=low", Fmt.count(x.yellow())).raw("</td><td>")
                .link("/apps?since=" + since + "&severity=none", Fmt.count(x.green())).raw("</td></tr>");
    }
}
