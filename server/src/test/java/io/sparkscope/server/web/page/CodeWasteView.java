package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.StoredCost;
import io.sparkscope.store.query.WasteQuery;

import static io.sparkscope.core.report.EfficiencyText.hours;
import static io.sparkscope.core.report.EfficiencyText.money;

/**
 * WasteView as it was written in code before waste.jte, kept verbatim as the reference the template's panel is
 * compared with (WasteTemplateTest). The dashboard's waste panel: what the applications started this week held and did not use, in all, and the most
 * wasteful of them (by wasted money at the operator's prices, by idle core-hours without).
 */
final class CodeWasteView {
    private CodeWasteView() {
    }

    static void render(Html h, WasteQuery.Result w, Prices prices) {
        boolean priced = prices.configured();
        WasteQuery.Totals t = w.totals();
        h.raw("<section class=\"panel\" id=\"waste\"><h2>Most wasteful applications this week</h2>");
        h.raw("<p id=\"waste-total\" data-core-hours=\"").a(t.coreHoursWasted()).raw("\">Started in the last 7 days: ")
                .raw("<strong>").t(hours(t.coreHoursWasted())).raw(" idle core-hours</strong> of ")
                .t(hours(t.coreHoursAllocated())).raw(" held, <strong>").t(hours(t.gbHoursWasted()))
                .raw(" unused GB-hours</strong> of ").t(hours(t.gbHoursAllocated())).raw(" held (where Spark measured"
                        + " memory)");
        if (priced) {
            double wasted = t.coreHoursWasted() * prices.perCoreHour() + t.gbHoursWasted() * prices.perGbHour();
            double held = t.coreHoursAllocated() * prices.perCoreHour() + t.gbHoursAllocated() * prices.perGbHour();
            h.raw(": <strong id=\"waste-total-cost\">").t(money(wasted, prices.currency())).raw("</strong> of ")
                    .t(money(held, prices.currency()));
        }
        h.raw(".");
        if (t.notComputed() > 0) {
            h.raw(" <span class=\"muted\" id=\"waste-not-computed\">").t(Fmt.count(t.notComputed(), "application"))
                    .raw(" of the week not computed (stored before the figures existed; <code>sparkscope"
                            + " reanalyze</code> fills them).</span>");
        }
        h.raw("</p>");
        if (!priced) {
            h.raw("<p class=\"hint\">Ranked by idle core-hours: no prices set (").t(EfficiencyView.HOW_TO_PRICE)
                    .raw(").</p>");
        }
        if (w.top().isEmpty()) {
            h.raw("<p class=\"muted\">No application with efficiency figures started this week.</p></section>");
            return;
        }
        h.raw("<table class=\"grid\" id=\"wasteful\"><thead><tr><th>Application</th><th>Start</th>"
                + "<th class=\"num\">Idle core-h</th><th class=\"num\">Unused GB-h</th>")
                .raw(priced ? "<th class=\"num\">Wasted</th>" : "").raw("</tr></thead><tbody>");
        for (WasteQuery.Wasteful a : w.top()) {
            var e = a.efficiency();
            h.raw("<tr data-app=\"").a(a.appId()).raw("\"><td>");
            Layout.severity(h, a.worstSeverity());
            h.raw(" ").link(Urls.app(a.appId(), a.attemptId()), a.name() == null || a.name().isEmpty() ? a.appId()
                    : a.name()).raw("</td><td>").t(Fmt.time(a.startTime())).raw("</td><td class=\"num\">")
                    .t(hours(e.coreHoursWasted())).raw("</td><td class=\"num\">")
                    .t(e.memoryMeasured() ? hours(e.gbHoursWasted()) : "not measured").raw("</td>");
            if (priced) {
                Cost c = StoredCost.of(e, prices);
                h.raw("<td class=\"num\">").t(money(c.wasted(), prices.currency())).raw("</td>");
            }
            h.raw("</tr>");
        }
        h.raw("</tbody></table><p><a href=\"/apps?sort=waste&amp;since=1w\">All of this week by idle core-hours</a>"
                + "</p></section>");
    }
}
