package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.ExecutorLanes;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.analysis.timeline.TimelineBar;
import io.sparkscope.core.analysis.timeline.TimelineLane;
import io.sparkscope.server.web.text.Fmt;

import java.util.ArrayList;
import java.util.List;

/**
 * The task timeline drawn as SVG: one lane per executor task slot (striped per executor; a task launched while
 * every slot was busy on the driver's clock is drawn over the slot that freed first, never on an extra lane), a
 * time axis from the first launch, and the tasks' bars ({@link TimelineBars}).
 *
 * @param markup       the {@code <svg>} element
 * @param mergedGroups dashed groups drawn for bars narrower than a pixel
 * @param mergedBars   bars inside those groups
 * @param titled       bars with hover text
 */
record TimelineSvg(String markup, int mergedGroups, int mergedBars, int titled) {
    static final int PLOT_WIDTH = 1100;
    static final int LABEL_WIDTH = 150;
    static final int AXIS_HEIGHT = 26;

    /** Px per lane: 18 up to 40 lanes, then less so the chart stays about 720 px high, but never under 3. */
    static int laneHeight(int lanes) {
        return lanes <= 40 ? 18 : Math.max(3, Math.min(18, 720 / lanes));
    }

    static TimelineSvg draw(TaskTimeline t) {
        List<TimelineLane> lanes = t.lanes();
        int laneH = laneHeight(lanes.size());
        int barH = laneH >= 8 ? laneH - 4 : Math.max(2, laneH - 1);
        int width = LABEL_WIDTH + PLOT_WIDTH + 10;
        int height = AXIS_HEIGHT + lanes.size() * laneH + 6;
        long span = Math.max(1, t.endTime() - t.startTime());

        Html out = new Html();
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"timeline\" width=\"").t(width)
                .raw("\" height=\"").t(height).raw("\" viewBox=\"0 0 ").t(width).raw(" ").t(height)
                .raw("\" role=\"img\" aria-label=\"task timeline\" data-lanes=\"").t(lanes.size())
                .raw("\" data-bars=\"").t(t.bars().size()).raw("\" data-failed=\"").t(t.failedBars())
                .raw("\" shape-rendering=\"crispEdges\">");
        hatch(out);
        lanesAndLabels(out, t, laneH);
        axis(out, t, span, height);

        TimelineBars bars = new TimelineBars(t, barH);
        List<List<TimelineBar>> byLane = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            byLane.add(new ArrayList<>());
        }
        for (TimelineBar b : t.bars()) {
            byLane.get(b.lane()).add(b);
        }
        for (int lane = 0; lane < byLane.size(); lane++) {
            bars.lane(byLane.get(lane), AXIS_HEIGHT + lane * laneH + (laneH - barH) / 2.0);
        }
        bars.writeTo(out);
        out.raw("</svg>");
        return new TimelineSvg(out.toString(), bars.mergedGroups(), bars.mergedBars(), bars.titled());
    }

    /** The red hatching of failed attempts (a pattern, so the mark does not depend on telling colours apart). */
    private static void hatch(Html out) {
        out.raw("<defs><pattern id=\"failed-hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\""
                + " patternTransform=\"rotate(45)\"><rect class=\"failed-hatch-line\" width=\"1.5\" height=\"4\"/>"
                + "</pattern></defs>");
    }

    private static void lanesAndLabels(Html out, TaskTimeline t, int laneH) {
        int executorIndex = 0;
        for (ExecutorLanes e : t.executors()) {
            String parity = executorIndex++ % 2 == 0 ? "lane-even" : "lane-odd";
            for (int i = 0; i < e.lanes(); i++) {
                int y = AXIS_HEIGHT + (e.firstLane() + i) * laneH;
                out.raw("<rect class=\"lane ").raw(parity).raw("\" data-executor=\"").a(e.executorId())
                        .raw("\" data-slot=\"").t(i).raw("\" x=\"").t(LABEL_WIDTH).raw("\" y=\"").t(y)
                        .raw("\" width=\"").t(PLOT_WIDTH).raw("\" height=\"").t(laneH).raw("\"/>");
                if (i == 0) {
                    String who = "driver".equals(e.executorId()) ? "driver" : "executor " + e.executorId();
                    String label = who + (e.slots() > 0 ? " · " + Fmt.count(e.slots(), "slot") : "");
                    out.raw("<text class=\"lane-label\" x=\"4\" y=\"").t(y + Math.min(laneH, 14) - 3).raw("\">")
                            .t(clip(label, 25)).raw("</text>");
                }
            }
            int top = AXIS_HEIGHT + e.firstLane() * laneH;
            out.raw("<line class=\"executor-sep\" x1=\"0\" x2=\"").t(LABEL_WIDTH + PLOT_WIDTH).raw("\" y1=\"").t(top)
                    .raw("\" y2=\"").t(top).raw("\"/>");
        }
    }

    private static void axis(Html out, TaskTimeline t, long span, int height) {
        long step = niceStep(span / 8.0);
        for (long at = 0; at <= span; at += step) {
            double px = LABEL_WIDTH + at * ((double) PLOT_WIDTH / span);
            out.raw("<line class=\"tick\" x1=\"").raw(fmt(px)).raw("\" x2=\"").raw(fmt(px)).raw("\" y1=\"")
                    .t(AXIS_HEIGHT - 4).raw("\" y2=\"").t(height - 4).raw("\"/><text class=\"axis\" x=\"")
                    .raw(fmt(px + 2)).raw("\" y=\"14\">+").t(Fmt.duration(at)).raw("</text>");
        }
    }

    /** 1, 2 or 5 × a power of ten, at least {@code raw} ms. */
    static long niceStep(double raw) {
        long p = 1;
        while (p * 10 <= raw) {
            p *= 10;
        }
        for (long m : new long[]{1, 2, 5, 10}) {
            if (p * m >= raw) {
                return Math.max(1, p * m);
            }
        }
        return Math.max(1, p * 10);
    }

    /** One decimal, without the Formatter (thousands of coordinates per page). */
    static String fmt(double v) {
        long tenths = Math.round(v * 10);
        String sign = tenths < 0 ? "-" : "";
        tenths = Math.abs(tenths);
        return tenths % 10 == 0 ? sign + tenths / 10 : sign + tenths / 10 + "." + tenths % 10;
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
