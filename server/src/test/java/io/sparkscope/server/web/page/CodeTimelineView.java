package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.ExecutorLanes;
import io.sparkscope.core.analysis.timeline.TaskPhase;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.StageTimelines;
import io.sparkscope.store.query.StageTimelineData;

import java.util.Locale;

/**
 * TimelineView as it was written in code before timeline.jte, kept verbatim (but for the drawing note it shares with TimelineView) as the
 * reference the template's page is
 * compared with (TimelineTemplateTest). {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}/timeline}: the stage's task timeline as
 * server-rendered SVG (no JavaScript, drawn by {@link TimelineSvg}), with the notes that say what was sampled or
 * simplified, the phase legend, where the shown tasks' time went and the executors' lanes.
 */
final class CodeTimelineView {
    private CodeTimelineView() {
    }

    static String render(StageTimelines.Loaded l) {
        StageTimelineData d = l.data();
        TaskTimeline t = l.timeline();
        String appTitle = d.appName() == null || d.appName().isEmpty() ? d.appId() : d.appName();
        Html h = Layout.start("Stage " + d.stageId() + "." + d.stageAttemptId() + " timeline · " + appTitle,
                "Applications");
        h.raw("<article class=\"timeline-page\"><p class=\"muted\"><a id=\"back-to-app\" href=\"")
                .a(Urls.app(d.appId(), d.attemptId()) + "#stages").raw("\">← ").t(appTitle).raw("</a></p>");
        h.raw("<h1>Stage <span id=\"stage-key\">").t(d.stageId() + "." + d.stageAttemptId())
                .raw("</span> · task timeline</h1><p class=\"muted\">").t(d.stageName()).raw(" · ")
                .t(d.status().toLowerCase(Locale.ROOT)).raw(" · ").t(Fmt.count(d.numTasks(), "task"));
        if (!t.bars().isEmpty()) {
            h.raw(" · first launch ").t(Fmt.time(t.startTime())).raw(", window ")
                    .t(Fmt.duration(t.endTime() - t.startTime()));
        }
        h.raw("</p>");

        notices(h, t);
        legend(h);
        if (t.bars().isEmpty()) {
            h.raw("<p class=\"empty\" id=\"timeline-empty\">No task of this stage attempt was recorded in detail"
                    + " (none has ended yet, or it was skipped).</p>");
        } else {
            TimelineSvg svg = TimelineSvg.draw(t);
            h.raw(svg.markup());
            h.raw("<p class=\"hint\" id=\"timeline-drawing\">").t(TimelineView.drawingNote(t, svg)).raw(" <a href=\"")
                    .a("/api/v1" + Urls.stageTimeline(d.appId(), d.attemptId(), d.stageId(), d.stageAttemptId()))
                    .raw("\">JSON with every bar</a>.</p>");
            phaseTable(h, t);
            executorTable(h, t);
        }
        h.raw("</article>");
        return Layout.end(h);
    }

    // --- text ----------------------------------------------------------------------------------------------------

    private static void notices(Html h, TaskTimeline t) {
        if (t.failedBars() > 0 || t.killedBars() > 0) {
            h.raw("<p class=\"notice\" id=\"timeline-failed\">").t(StageTimelines.outcomeSentence(t)).raw("</p>");
        }
        if (t.sampled()) {
            h.raw("<p class=\"notice\" id=\"timeline-sampled\">").t(StageTimelines.sampledSentence(t)).raw("</p>");
        }
        if (t.overflow()) {
            h.raw("<p class=\"notice artifact\" id=\"timeline-artifact\">").t(StageTimelines.artifactSentence(t)).raw("</p>");
        }
    }


    static void legend(Html h) {
        h.raw("<ul class=\"legend\" id=\"timeline-legend\">");
        for (TaskPhase p : TaskPhase.values()) {
            h.raw("<li data-phase=\"").a(p.cssName()).raw("\">");
            swatch(h, "ph-" + p.cssName());
            h.t(p.label).raw(" <span class=\"side\">").t(p.driverSide ? "driver" : "executor").raw("</span></li>");
        }
        h.raw("<li>");
        swatch(h, "ph-unknown");
        h.raw("no metrics reported</li><li data-outcome=\"failed\">");
        // the hatching pattern is defined once, in the timeline's own SVG
        h.raw("<svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\""
                + " class=\"failed\"/></svg>");
        h.raw(" failed attempt (its work is lost)</li><li data-outcome=\"killed\">");
        swatch(h, "killed");
        h.raw(" killed attempt</li><li>");
        swatch(h, "crowded");
        h.raw(" launched while its slot was busy on the driver's clock (drawn over the bar before)</li></ul>");
    }

    private static void swatch(Html h, String cls) {
        h.raw("<svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" rx=\"2\" class=\"")
                .a(cls).raw("\"/></svg>");
    }

    private static void phaseTable(Html h, TaskTimeline t) {
        long[] totals = t.phaseTotals();
        long sum = 0;
        for (long v : totals) {
            sum += v;
        }
        h.raw("<h2>Where the shown tasks' time went</h2><table class=\"grid small\" id=\"phase-totals\"><thead><tr>"
                + "<th>Phase</th><th>Side</th><th class=\"num\">Total</th><th class=\"num\">Share</th></tr></thead><tbody>");
        for (TaskPhase p : TaskPhase.values()) {
            h.raw("<tr><td>").t(p.label).raw("</td><td>").t(p.driverSide ? "driver" : "executor")
                    .raw("</td><td class=\"num\">").t(Fmt.duration(totals[p.ordinal()])).raw("</td><td class=\"num\">")
                    .t(Fmt.percent(sum == 0 ? 0 : (double) totals[p.ordinal()] / sum)).raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }

    private static void executorTable(Html h, TaskTimeline t) {
        h.raw("<h2>Executors</h2><table class=\"grid small\" id=\"timeline-executors\"><thead><tr><th>Executor</th>"
                + "<th>Host</th><th class=\"num\">Cores (task slots)</th><th class=\"num\">Tasks shown</th>"
                + "<th class=\"num\">Most at once (driver timestamps)</th>"
                + "<th class=\"num\">Most at once (executor-side time)</th>"
                + "<th class=\"num\">Drawn over a busy slot</th></tr></thead><tbody>");
        for (ExecutorLanes e : t.executors()) {
            h.raw("<tr").raw(e.overflow() ? " class=\"overflow\"" : "").raw(" data-executor=\"").a(e.executorId())
                    .raw("\"><td>").t(e.executorId()).raw("</td><td>").t(e.host()).raw("</td><td class=\"num\">")
                    .t(e.slots() > 0 ? Integer.toString(e.slots()) : "unknown").raw("</td><td class=\"num\">")
                    .t(Fmt.count(e.tasks())).raw("</td><td class=\"num").raw(e.overflow() ? " bad" : "").raw("\">")
                    .t(e.maxConcurrent()).t(e.overflow() ? " ⚠" : "").raw("</td><td class=\"num\">")
                    .t(e.executorSideMaxConcurrent()).raw("</td><td class=\"num\">").t(Fmt.count(e.crowded()))
                    .raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
}
