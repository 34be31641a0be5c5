package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.StageTimelines;
import io.sparkscope.store.query.StageTimelineData;

/**
 * {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}/timeline}: the stage's task timeline as
 * server-rendered SVG (no JavaScript, drawn by {@link TimelineSvg}), with the notes that say what was sampled or
 * simplified, the phase legend, where the shown tasks' time went and the executors' lanes. The markup is timeline.jte.
 */
final class TimelineView {
    private TimelineView() {
    }

    static String render(StageTimelines.Loaded l) {
        StageTimelineData d = l.data();
        TaskTimeline t = l.timeline();
        String appTitle = d.appName() == null || d.appName().isEmpty() ? d.appId() : d.appName();
        TimelineSvg svg = t.bars().isEmpty() ? null : TimelineSvg.draw(t);
        Html h = new Html(16 * 1024);
        JtetimelineGenerated.render(new PageOutput(h), null, l, appTitle,
                svg == null ? null : PageOutput.markup(out -> out.raw(svg.markup())),
                svg == null ? null : drawingNote(t, svg));
        return h.toString();
    }

    // --- text ----------------------------------------------------------------------------------------------------

    /** What the drawing shows and simplified: merged slivers, hover text on the longest bars only. */
    static String drawingNote(TaskTimeline t, TimelineSvg svg) {
        StringBuilder sb = new StringBuilder();
        sb.append("Each bar spans the driver's launch → finish; executor-side phases are drawn right before getting"
                + " result, scheduler delay (the driver-side remainder) at the start.");
        if (svg.mergedGroups() > 0) {
            sb.append(' ').append(Fmt.count(svg.mergedBars())).append(" bars narrower than a pixel are merged into ")
                    .append(Fmt.count(svg.mergedGroups())).append(" dashed groups showing their summed phases.");
        }
        if (svg.titled() < t.bars().size()) {
            sb.append(" Hover text on the ").append(Fmt.count(svg.titled())).append(" longest bars only.");
        }
        return sb.toString();
    }
}
