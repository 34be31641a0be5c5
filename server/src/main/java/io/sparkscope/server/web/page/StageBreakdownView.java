package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.TimeBreakdown.Part;
import io.sparkscope.core.analysis.timeline.TimeBreakdown;
import io.sparkscope.server.web.text.Fmt;
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
        JtebreakdownCellGenerated.render(new PageOutput(h), null, s, appId, attemptId);
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
        JtebreakdownLegendGenerated.render(new PageOutput(h), null);
    }
}
