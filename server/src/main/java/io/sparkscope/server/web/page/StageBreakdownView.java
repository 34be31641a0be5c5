package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.TimeBreakdown.Part;
import io.sparkscope.core.analysis.timeline.TimeBreakdown;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.store.query.StageRow;

/**
 * The application page's per-stage "where task time went": a small stacked bar (inline SVG, sized by attributes, as
 * the CSP allows no inline styles) from the stage sums the page already loaded — no task row is read — and the
 * link to the stage's task timeline.
 */
final class StageBreakdownView {
    static final int WIDTH = 130;
    static final int HEIGHT = 10;

    private StageBreakdownView() {
    }

    static TimeBreakdown of(StageRow s) {
        StageRow.Times t = s.times();
        return TimeBreakdown.of(t.schedulerDelayMs(), t.gettingResultMs(), t.deserializeMs(), s.executorRunTimeMs(),
                t.resultSerializationMs(), s.jvmGcTimeMs(), t.shuffleFetchWaitMs(), t.shuffleWriteNs());
    }

    /** The table cell: the bar (hover: the parts in ms and %) and the timeline link. */
    static void cell(Html h, StageRow s, String appId, String attemptId) {
        TimeBreakdown b = of(s);
        long total = b.totalMs();
        h.raw("<td class=\"breakdown\">");
        if (total > 0) {
            h.raw("<svg class=\"breakdown\" width=\"").t(WIDTH).raw("\" height=\"").t(HEIGHT)
                    .raw("\" role=\"img\" aria-label=\"where task time went\"><title>").t(title(b)).raw("</title>");
            double x = 0;
            for (Part p : Part.values()) {
                long ms = b.ms(p);
                if (ms <= 0) {
                    continue;
                }
                double w = WIDTH * (double) ms / total;
                h.raw("<rect class=\"pt-").raw(p.cssName()).raw("\" x=\"").raw(TimelineSvg.fmt(x))
                        .raw("\" y=\"0\" width=\"").raw(TimelineSvg.fmt(w)).raw("\" height=\"").t(HEIGHT)
                        .raw("\"/>");
                x += w;
            }
            h.raw("</svg> ");
            if (b.driverSideKnown() && b.driverSideShare() >= 0.2) {
                h.raw("<span class=\"warn\" title=\"scheduler delay + getting result\">driver ")
                        .t(Fmt.percent(b.driverSideShare())).raw("</span> ");
            }
        }
        h.raw("<a class=\"timeline-link\" href=\"").a(Urls.stageTimeline(appId, attemptId, s.stageId(), s.attemptId()))
                .raw("\">timeline</a></td>");
    }

    static String title(TimeBreakdown b) {
        long total = b.totalMs();
        StringBuilder sb = new StringBuilder();
        for (Part p : Part.values()) {
            if ((p == Part.SCHEDULER_DELAY || p == Part.GETTING_RESULT) && !b.driverSideKnown()) {
                continue;
            }
            sb.append(sb.length() == 0 ? "" : "\n").append(p.label).append(": ").append(Fmt.duration(b.ms(p)))
                    .append(" (").append(Fmt.percent(total == 0 ? 0 : (double) b.ms(p) / total)).append(')');
        }
        if (!b.driverSideKnown()) {
            sb.append("\nscheduler delay and getting result unknown (stored by an older Sparkscope)");
        }
        if (b.insideRunScaled()) {
            sb.append("\nGC and shuffle times overlap; scaled to fit the run time");
        }
        return sb.toString();
    }

    /** The legend under the stage table's heading. */
    static void legend(Html h) {
        h.raw("<ul class=\"legend\" id=\"breakdown-legend\"><li class=\"side\">Where task time went:</li>");
        for (Part p : Part.values()) {
            h.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" rx=\"2\""
                    + " class=\"pt-").raw(p.cssName()).raw("\"/></svg>").t(p.label).raw("</li>");
        }
        h.raw("</ul>");
    }
}
