package io.sparkscope.server.web.page;

import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.store.query.AppHeader;

import java.util.List;

/**
 * CompareView as it was written in code before compare.jte, kept verbatim as the reference the template's pages are
 * compared with (CompareTemplateTest). {@code /compare}: one column per run, the first is the baseline; changed cells
 * carry class "diff".
 */
final class CodeCompareView {
    private CodeCompareView() {
    }

    static String form(String typed) {
        Html h = Layout.start("Compare", "Compare");
        h.raw("<h1>Compare runs</h1><div class=\"panel\"><p>Pick runs with the checkboxes on the ")
                .raw("<a href=\"/apps\">search page</a>, or type two or more application ids (appId or appId/attemptId),"
                        + " separated by commas. The first is the baseline.</p>"
                        + "<form method=\"get\" action=\"/compare\"><input type=\"text\" name=\"apps\" size=\"60\" value=\"")
                .a(typed == null ? "" : typed).raw("\" placeholder=\"app-1, app-2\"> <button class=\"btn primary\">Compare</button>"
                        + "</form></div>");
        return Layout.end(h);
    }

    static String render(Comparison c) {
        Html h = Layout.start("Compare", "Compare");
        List<AppHeader> apps = c.apps();
        h.raw("<h1>Compare ").t(apps.size()).raw(" runs</h1><p class=\"muted\">The first run is the baseline;"
                + " highlighted: metrics changed by more than 20 % against it, configuration values that differ.</p>");
        h.raw("<div class=\"table-scroll\"><table class=\"grid compare runs-").t(apps.size())
                .raw("\" id=\"compare-table\"><thead><tr><th></th>");
        for (int i = 0; i < apps.size(); i++) {
            AppHeader a = apps.get(i);
            h.raw("<th class=\"run ").raw(Fmt.severityClass(a.worstSeverity())).raw("\">");
            Layout.severity(h, a.worstSeverity());
            h.raw(" ").link(Urls.app(a.appId(), a.attemptId()), a.name() == null ? a.appId() : a.name())
                    .raw("<div class=\"muted\">").t(a.pathKey()).raw("<br>").t(Fmt.time(a.startTime()))
                    .raw(i == 0 ? "<br><em>baseline</em>" : "").raw("</div></th>");
        }
        h.raw("</tr></thead>");
        section(h, "Metrics", apps.size());
        for (Comparison.MetricRow m : c.metrics()) {
            h.raw("<tr><th>").t(m.name()).raw("</th>");
            for (int i = 0; i < m.values().size(); i++) {
                long v = m.values().get(i);
                boolean diff = m.changed().get(i);
                h.raw("<td class=\"num").raw(diff ? " diff" : "").raw("\">").t(format(m.unit(), v));
                if (i > 0 && diff) {
                    h.raw(" <span class=\"delta\">").t(Fmt.change(m.values().get(0), v)).raw("</span>");
                }
                h.raw("</td>");
            }
            h.raw("</tr>");
        }
        section(h, "Findings", apps.size());
        if (c.findings().isEmpty()) {
            h.raw("<tr><th class=\"muted\">none</th>").raw("<td></td>".repeat(apps.size())).raw("</tr>");
        }
        for (Comparison.FindingRow f : c.findings()) {
            h.raw("<tr><th>").t(f.heuristic()).raw("</th>");
            for (String s : f.severities()) {
                h.raw("<td>");
                if (s != null) {
                    Layout.severity(h, s);
                } else {
                    h.raw("<span class=\"muted\">—</span>");
                }
                h.raw("</td>");
            }
            h.raw("</tr>");
        }
        section(h, "Configuration (key settings, then every other differing key)", apps.size());
        for (Comparison.ConfigRow r : c.config()) {
            h.raw("<tr class=\"config-row").raw(r.differs() ? " differs" : "").raw("\" data-key=\"").a(r.key())
                    .raw("\"><th>").t(r.key()).raw("</th>");
            for (String v : r.values()) {
                h.raw("<td class=\"value").raw(r.differs() ? " diff" : "").raw(v == null ? " muted" : "").raw("\">")
                        .t(v == null ? "(unset)" : v).raw("</td>");
            }
            h.raw("</tr>");
        }
        if (!c.runSpecificKeys().isEmpty() || c.configNotShown() > 0) {
            h.raw("<tr class=\"config-left-out\" id=\"config-left-out\"><td colspan=\"").t(apps.size() + 1)
                    .raw("\" class=\"muted\">");
            if (c.configNotShown() > 0) {
                h.t(Fmt.count(c.configNotShown(), "more differing key") + " not shown. ");
            }
            if (!c.runSpecificKeys().isEmpty()) {
                h.t("Left out, as every run has its own value: " + String.join(", ", c.runSpecificKeys()) + ".");
            }
            h.raw("</td></tr>");
        }
        section(h, "Stages (matched by job and stage position)", apps.size());
        for (Comparison.StageMatch m : c.stages()) {
            h.raw("<tr class=\"stage-match\"><th>").t(m.position()).raw(m.namesDiffer() ? " <span class=\"warn\">names differ</span>" : "")
                    .raw("</th>");
            Comparison.StageCell first = m.cells().get(0);
            for (int i = 0; i < m.cells().size(); i++) {
                Comparison.StageCell cell = m.cells().get(i);
                if (cell == null) {
                    h.raw("<td class=\"muted\">—</td>");
                    continue;
                }
                String change = i == 0 || first == null ? "" : Fmt.change(first.durationMs(), cell.durationMs());
                h.raw("<td class=\"").raw(cell.changed() ? "diff" : "").raw("\"><div class=\"stage-name\">").t(cell.key())
                        .raw(" ").t(cell.name()).raw("</div><div>").t(Fmt.duration(cell.durationMs()))
                        .raw(change.isEmpty() ? "" : " <span class=\"delta\">").t(change)
                        .raw(change.isEmpty() ? "" : "</span>").raw(" · ")
                        .t(Fmt.count(cell.numTasks(), "task")).raw(cell.numFailedTasks() > 0 ? " · " : "")
                        .t(cell.numFailedTasks() > 0 ? cell.numFailedTasks() + " failed" : "")
                        .raw("</div><div class=\"muted\">spill ").t(Fmt.bytes(cell.spillBytes())).raw(" · shuffle ")
                        .t(Fmt.bytes(cell.shuffleBytes())).raw("</div></td>");
            }
            h.raw("</tr>");
        }
        if (c.stagesNotShown() > 0) {
            h.raw("<tr id=\"stages-left-out\"><td colspan=\"").t(apps.size() + 1).raw("\" class=\"muted\">")
                    .t("The first " + Fmt.count(Comparison.MAX_STAGE_ROWS) + " stage positions; "
                            + Fmt.count(c.stagesNotShown(), "more position") + " not shown.")
                    .raw("</td></tr>");
        }
        h.raw("</table></div>");
        return Layout.end(h);
    }

    private static void section(Html h, String title, int n) {
        h.raw("<tbody><tr class=\"section\"><th colspan=\"").t(n + 1).raw("\">").t(title).raw("</th></tr>");
    }

    static String format(Comparison.Unit unit, long v) {
        return switch (unit) {
            case MS -> Fmt.duration(v);
            case BYTES -> Fmt.bytes(v);
            case COUNT -> Fmt.count(v);
        };
    }
}
