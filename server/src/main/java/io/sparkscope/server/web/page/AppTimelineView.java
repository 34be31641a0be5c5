package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.AppTimeline;
import io.sparkscope.server.web.model.Fmt;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code /apps/{appId}[/{attemptId}]/timeline}: the application's timeline tab: its executors' lifetimes on their
 * task slots, its jobs and stages as bars (drawn by {@link AppTimelineSvg}), the sentences that say what was left
 * out, and the executors' added and removed times with the reasons. The markup is appTimeline.jte.
 */
final class AppTimelineView {
    private AppTimelineView() {
    }

    static String render(AppTimeline t, AppTabs.Live live) {
        Html h = new Html(32 * 1024);
        String svg = AppTimelineSvg.draw(t);
        JteappTimelineGenerated.render(new PageOutput(h), null, t, PageOutput.markup(out -> out.raw(svg)), live);
        return h.toString();
    }

    /** What the drawing leaves out or bends, one sentence each; empty when it shows everything as it was. */
    static List<String> notes(AppTimeline t) {
        List<String> out = new ArrayList<>();
        if (t.executorsHidden() > 0) {
            out.add(Fmt.count(t.executorsHidden(), "more executor") + " not drawn (the drawing stops at "
                    + Fmt.count(AppTimeline.MAX_LANES) + " lanes).");
        }
        var d = t.data();
        if (d.moreJobs() > 0 || d.moreStages() > 0) {
            out.add("Only the first " + Fmt.count(d.jobs().size(), "job") + " and " + Fmt.count(d.stages().size(),
                    "stage attempt") + " are drawn (" + Fmt.count(d.moreJobs()) + " and " + Fmt.count(d.moreStages())
                    + " more).");
        }
        if (t.crowdedBars() > 0) {
            out.add(Fmt.count(t.crowdedBars(), "bar") + " found no free row among " + AppTimeline.MAX_ROWS
                    + " and share the last one.");
        }
        if (t.executors().stream().anyMatch(b -> b.slots() == 0)) {
            out.add("An executor whose cores Spark did not report is drawn on one lane, marked \"cores unknown\".");
        }
        return out;
    }

    static String time(long epochMs) {
        return epochMs > 0 ? Fmt.time(epochMs) : "—";
    }
}
