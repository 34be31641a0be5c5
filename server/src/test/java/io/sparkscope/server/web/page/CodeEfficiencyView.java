package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.text.Units;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.StoredCost;
import io.sparkscope.store.query.AppEfficiency;

import static io.sparkscope.core.report.EfficiencyText.hours;
import static io.sparkscope.core.report.EfficiencyText.money;

/**
 * EfficiencyView as it was written in code before efficiency.jte, kept verbatim as the reference the template's
 * section is compared with (EfficiencyTemplateTest). The application page's efficiency section: core-hours and GB-hours held against used, the share held while only
 * the driver worked, the waste, and the cost at the operator's prices with its formula written out. Without prices
 * it shows the figures and says how to set them; without figures it says "not computed" (never 0).
 */
final class CodeEfficiencyView {
    private static final String HOW_TO_PRICE = EfficiencyView.HOW_TO_PRICE;

    private CodeEfficiencyView() {
    }

    static void render(Html h, AppEfficiency e, Prices prices) {
        h.raw("<section class=\"efficiency\" id=\"efficiency\"><h2>Efficiency</h2>");
        if (e == null) {
            h.raw("<p class=\"muted\" id=\"efficiency-not-computed\">Not computed: this application was stored before"
                    + " Sparkscope kept efficiency figures. <code>sparkscope reanalyze</code> computes them.</p>"
                    + "</section>");
            return;
        }
        h.raw("<table class=\"grid\" id=\"efficiency-table\"><thead><tr><th></th><th class=\"num\">Held</th>"
                + "<th class=\"num\">Used</th><th class=\"num\">Wasted</th><th class=\"num\">Held while only the"
                + " driver worked</th></tr></thead><tbody>");
        h.raw("<tr id=\"eff-cores\" data-allocated=\"").a(e.coreHoursAllocated()).raw("\" data-wasted=\"")
                .a(e.coreHoursWasted()).raw("\"><th>Core-hours</th><td class=\"num\">").t(hours(e.coreHoursAllocated()))
                .raw("</td><td class=\"num\">").t(hours(e.coreHoursUsed())).raw(" <span class=\"muted\">(task time)"
                        + "</span></td><td class=\"num\">").t(hours(e.coreHoursWasted())).raw(" idle (")
                .t(Units.percent(e.coreWasteShare())).raw(")</td><td class=\"num\">").t(hours(e.coreHoursDriverAlone()))
                .raw(" (").t(Units.percent(e.coreDriverAloneShare())).raw(")</td></tr>");
        h.raw("<tr id=\"eff-memory\" data-allocated=\"").a(e.gbHoursAllocated()).raw("\"><th>GB-hours</th>"
                + "<td class=\"num\">").t(hours(e.gbHoursAllocated())).raw("</td>");
        if (e.memoryMeasured()) {
            double share = e.gbHoursAllocated() > 0 ? e.gbHoursWasted() / e.gbHoursAllocated() : 0;
            h.raw("<td class=\"num\">").t(hours(e.gbHoursPeakUsed())).raw(" <span class=\"muted\">(at peak)</span>"
                    + "</td><td class=\"num\">").t(hours(e.gbHoursWasted())).raw(" unused (").t(Units.percent(share))
                    .raw(")</td>");
        } else {
            h.raw("<td class=\"num muted\" colspan=\"2\">not measured</td>");
        }
        h.raw("<td class=\"num\">").t(hours(e.gbHoursDriverAlone())).raw(" (").t(Units.percent(e.memoryDriverAloneShare()))
                .raw(")</td></tr></tbody></table>");
        h.raw("<p class=\"hint\">Held: each executor's lifetime × its cores, and × its container memory (heap,"
                + " overhead, off-heap, PySpark). Used: task time, and the peak memory Spark measured. Only the driver"
                + " worked for ").t(Fmt.duration(e.driverAloneMs())).raw(" of the run (no task running anywhere).");
        if (!e.memoryMeasured()) {
            h.raw(" Spark measured no executor's memory: set spark.eventLog.logStageExecutorMetrics=true (and"
                    + " spark.executor.processTreeMetrics.enabled=true for process memory) to measure it.");
        }
        h.raw("</p>");
        cost(h, e, prices);
        h.raw("</section>");
    }

    private static void cost(Html h, AppEfficiency e, Prices p) {
        Cost c = StoredCost.of(e, p);
        if (c == null) {
            h.raw("<p class=\"muted\" id=\"cost-how-to\">No prices set, so no cost: ").t(HOW_TO_PRICE)
                    .raw(".</p>");
            return;
        }
        String cur = p.currency();
        h.raw("<p id=\"cost-formula\" data-cost=\"").a(c.allocated()).raw("\"><strong>Cost:</strong> ")
                .t(hours(e.coreHoursAllocated()) + " core-h × " + money(p.perCoreHour(), cur) + " + "
                        + hours(e.gbHoursAllocated()) + " GB-h × " + money(p.perGbHour(), cur) + " = ")
                .raw("<strong>").t(money(c.allocated(), cur)).raw("</strong></p>");
        h.raw("<p id=\"waste-formula\" data-waste=\"").a(c.wasted()).raw("\"><strong>Wasted:</strong> ")
                .t(hours(e.coreHoursWasted()) + " idle core-h × " + money(p.perCoreHour(), cur));
        if (e.memoryMeasured()) {
            h.t(" + " + hours(e.gbHoursWasted()) + " unused GB-h × " + money(p.perGbHour(), cur));
        }
        h.t(" = ").raw("<strong>").t(money(c.wasted(), cur)).raw("</strong> (").t(Units.percent(c.wastedShare()))
                .raw(" of the cost")
                .t(e.memoryMeasured() ? "" : "; memory not measured, so none of it counted as waste").raw(")");
        if (c.driverAlone() > 0) {
            h.raw("; ").t(money(c.driverAlone(), cur)).raw(" paid while only the driver worked");
        }
        h.raw(".</p>");
    }
}
