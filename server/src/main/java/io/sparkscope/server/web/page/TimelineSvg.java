package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.ExecutorLanes;
import io.sparkscope.core.analysis.timeline.TaskPhase;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.analysis.timeline.TimelineBar;
import io.sparkscope.core.analysis.timeline.TimelineLane;
import io.sparkscope.server.web.model.Fmt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The task timeline drawn as SVG: one lane per executor slot, each task split into its five phases.
 *
 * <p>Big stages (up to the recorder's 10 000 kept tasks) stay a page of a few hundred kB at most:
 * <ul>
 *   <li>each phase is one {@code <path>} for the whole chart (a few dozen bytes a bar), not one element per bar;</li>
 *   <li>in a lane, consecutive bars each narrower than a pixel whose gaps are under a pixel are merged into one
 *       group drawn with the summed phase proportions and outlined dashed;</li>
 *   <li>hover text ({@code <title>} on a transparent hit rectangle) for at most {@link #TITLE_LIMIT} bars, the
 *       longest; the page says so, and the JSON route has every bar.</li>
 * </ul>
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
    static final int TITLE_LIMIT = 1000;
    /** Phase segments narrower than this (px) are drawn as part of the next one: invisible, but not free. */
    static final double MIN_SEGMENT_PX = 0.3;


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
        Scale x = new Scale(t.startTime(), (double) PLOT_WIDTH / span);

        Html out = new Html();
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"timeline\" width=\"").t(width)
                .raw("\" height=\"").t(height).raw("\" viewBox=\"0 0 ").t(width).raw(" ").t(height)
                .raw("\" role=\"img\" aria-label=\"task timeline\" data-lanes=\"").t(lanes.size())
                .raw("\" data-bars=\"").t(t.bars().size()).raw("\" shape-rendering=\"crispEdges\">");
        lanesAndLabels(out, t, laneH);
        axis(out, t, span, height);

        // Bars, lane by lane, into one path per phase.
        StringBuilder[] paths = new StringBuilder[TaskPhase.values().length + 1]; // + "no metrics"
        for (int i = 0; i < paths.length; i++) {
            paths[i] = new StringBuilder();
        }
        Set<Long> titled = titledTasks(t);
        StringBuilder hits = new StringBuilder();
        StringBuilder merged = new StringBuilder();
        List<List<TimelineBar>> byLane = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            byLane.add(new ArrayList<>());
        }
        for (TimelineBar b : t.bars()) {
            byLane.get(b.lane()).add(b);
        }
        int[] mergedCounts = new int[2];
        for (int lane = 0; lane < byLane.size(); lane++) {
            List<TimelineBar> bars = byLane.get(lane);
            bars.sort(Comparator.comparingLong(TimelineBar::launchTime));
            double y = AXIS_HEIGHT + lane * laneH + (laneH - barH) / 2.0;
            List<TimelineBar> group = new ArrayList<>();
            double groupEnd = Double.NEGATIVE_INFINITY;
            for (TimelineBar b : bars) {
                double x0 = x.at(b.launchTime());
                double x1 = x.at(b.finishTime());
                if (x1 - x0 < 1) {
                    if (!group.isEmpty() && x0 - groupEnd >= 1) {
                        flush(group, x, y, barH, paths, hits, merged, titled, t, mergedCounts);
                    }
                    group.add(b);
                    groupEnd = Math.max(groupEnd, x1);
                    continue;
                }
                flush(group, x, y, barH, paths, hits, merged, titled, t, mergedCounts);
                groupEnd = Double.NEGATIVE_INFINITY;
                drawBar(b, x, y, barH, paths);
                if (titled.contains(b.taskId())) {
                    hit(hits, x0, y, x1 - x0, barH, b.taskId(), barTitle(b, t));
                }
            }
            flush(group, x, y, barH, paths, hits, merged, titled, t, mergedCounts);
        }
        for (TaskPhase p : TaskPhase.values()) {
            if (paths[p.ordinal()].length() > 0) {
                out.raw("<path class=\"ph-").raw(p.cssName()).raw("\" data-phase=\"").raw(p.cssName()).raw("\" d=\"")
                        .raw(paths[p.ordinal()].toString()).raw("\"/>");
            }
        }
        StringBuilder unknown = paths[paths.length - 1];
        if (unknown.length() > 0) {
            out.raw("<path class=\"ph-unknown\" d=\"").raw(unknown.toString()).raw("\"/>");
        }
        if (merged.length() > 0) {
            out.raw("<path class=\"merged\" d=\"").raw(merged.toString()).raw("\"/>");
        }
        // hit rectangles last, so they are on top; their text was escaped when built
        out.raw(hits.toString());
        out.raw("</svg>");
        return new TimelineSvg(out.toString(), mergedCounts[0], mergedCounts[1], Math.min(titled.size(), t.bars().size()));
    }

    private record Scale(long start, double pxPerMs) {
        double at(long time) {
            return LABEL_WIDTH + (time - start) * pxPerMs;
        }
    }

    private static void lanesAndLabels(Html out, TaskTimeline t, int laneH) {
        int executorIndex = 0;
        for (ExecutorLanes e : t.executors()) {
            String parity = executorIndex++ % 2 == 0 ? "lane-even" : "lane-odd";
            for (int i = 0; i < e.lanes(); i++) {
                TimelineLane lane = t.lanes().get(e.firstLane() + i);
                int y = AXIS_HEIGHT + (e.firstLane() + i) * laneH;
                out.raw("<rect class=\"lane ").raw(lane.overflow() ? "lane-overflow" : parity)
                        .raw("\" data-executor=\"").a(e.executorId()).raw("\" data-slot=\"").t(i)
                        .raw("\" x=\"").t(LABEL_WIDTH).raw("\" y=\"").t(y).raw("\" width=\"").t(PLOT_WIDTH)
                        .raw("\" height=\"").t(laneH).raw("\"/>");
                boolean first = i == 0;
                if (first || (lane.overflow() && laneH >= 10)) {
                    String who = "driver".equals(e.executorId()) ? "driver" : "executor " + e.executorId();
                    String label = first ? who + (e.slots() > 0 ? " · " + e.slots()
                            + (e.slots() == 1 ? " slot" : " slots") : "") : "⚠ beyond cores";
                    out.raw("<text class=\"lane-label").raw(lane.overflow() && !first ? " overflow" : "")
                            .raw("\" x=\"4\" y=\"").t(y + Math.min(laneH, 14) - 3).raw("\">").t(clip(label, 25))
                            .raw("</text>");
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

    private static void drawBar(TimelineBar b, Scale x, double y, int barH, StringBuilder[] paths) {
        if (!b.metricsKnown()) {
            rect(paths[paths.length - 1], x.at(b.launchTime()), y, x.at(b.finishTime()) - x.at(b.launchTime()), barH);
            return;
        }
        // A segment too thin to see is drawn as the start of the next visible one (or the end of the last), so a
        // bar never has gaps and a few-pixel bar costs one segment, not five.
        double pending = Double.NaN;
        int lastDrawn = -1;
        double lastX0 = 0;
        double lastX1 = 0;
        for (TaskPhase p : TaskPhase.values()) {
            if (b.phaseMs(p) <= 0) {
                continue;
            }
            double x0 = Double.isNaN(pending) ? x.at(b.phaseStart(p)) : pending;
            double x1 = x.at(b.phaseEnd(p));
            if (x1 - x0 < MIN_SEGMENT_PX) {
                pending = x0;
                continue;
            }
            pending = Double.NaN;
            if (lastDrawn >= 0) {
                rect(paths[lastDrawn], lastX0, y, lastX1 - lastX0, barH);
            }
            lastDrawn = p.ordinal();
            lastX0 = x0;
            lastX1 = x1;
        }
        if (lastDrawn >= 0) {
            rect(paths[lastDrawn], lastX0, y, Math.max(lastX1, x.at(b.finishTime())) - lastX0, barH);
        } else {
            // every phase is thinner than the threshold: the bar in its largest phase's colour
            rect(paths[largest(b).ordinal()], x.at(b.launchTime()), y,
                    Math.max(MIN_SEGMENT_PX, x.at(b.finishTime()) - x.at(b.launchTime())), barH);
        }
    }

    private static TaskPhase largest(TimelineBar b) {
        TaskPhase top = TaskPhase.RUN;
        for (TaskPhase p : TaskPhase.values()) {
            if (b.phaseMs(p) > b.phaseMs(top)) {
                top = p;
            }
        }
        return top;
    }

    /** Draws the pending thin bars: one alone as itself, several as one group with summed phase proportions. */
    private static void flush(List<TimelineBar> group, Scale x, double y, int barH, StringBuilder[] paths,
                              StringBuilder hits, StringBuilder merged, Set<Long> titled, TaskTimeline t,
                              int[] mergedCounts) {
        if (group.isEmpty()) {
            return;
        }
        if (group.size() == 1) {
            TimelineBar b = group.get(0);
            double x0 = x.at(b.launchTime());
            double w = Math.max(0.6, x.at(b.finishTime()) - x0);
            if (!b.metricsKnown()) {
                rect(paths[paths.length - 1], x0, y, w, barH);
            } else {
                // too thin for its phases to be told apart: its largest phase's colour
                rect(paths[largest(b).ordinal()], x0, y, w, barH);
            }
            if (titled.contains(b.taskId())) {
                hit(hits, x0, y, Math.max(w, 1), barH, b.taskId(), barTitle(b, t));
            }
            group.clear();
            return;
        }
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        long[] sums = new long[TaskPhase.values().length + 1];
        for (TimelineBar b : group) {
            from = Math.min(from, b.launchTime());
            to = Math.max(to, b.finishTime());
            if (b.metricsKnown()) {
                for (TaskPhase p : TaskPhase.values()) {
                    sums[p.ordinal()] += b.phaseMs(p);
                }
            } else {
                sums[sums.length - 1] += b.durationMs();
            }
        }
        double x0 = x.at(from);
        double w = Math.max(1, x.at(to) - x0);
        long total = 0;
        for (long s : sums) {
            total += s;
        }
        double at = x0;
        for (int i = 0; i < sums.length; i++) {
            if (sums[i] > 0 && total > 0) {
                double part = w * sums[i] / total;
                rect(paths[i], at, y, part, barH);
                at += part;
            }
        }
        rect(merged, x0, y, w, barH);
        StringBuilder title = new StringBuilder();
        title.append(group.size()).append(" tasks merged (each narrower than a pixel), +")
                .append(Fmt.duration(from - t.startTime())).append(" to +").append(Fmt.duration(to - t.startTime()))
                .append('\n');
        for (TaskPhase p : TaskPhase.values()) {
            title.append(p == TaskPhase.SCHEDULER_DELAY ? "" : " · ").append(p.shortLabel).append(' ')
                    .append(Fmt.duration(sums[p.ordinal()]));
        }
        hit(hits, x0, y, w, barH, -1, title.toString());
        mergedCounts[0]++;
        mergedCounts[1] += group.size();
        group.clear();
    }

    private static void rect(StringBuilder path, double x, double y, double w, int h) {
        path.append('M').append(fmt(x)).append(' ').append(fmt(y)).append('h').append(fmt(w)).append('v').append(h)
                .append('h').append(fmt(-w)).append('z');
    }

    private static void hit(StringBuilder hits, double x, double y, double w, int h, long taskId, String title) {
        hits.append("<rect class=\"hit\"");
        if (taskId >= 0) {
            hits.append(" data-task=\"").append(taskId).append('"');
        } else {
            hits.append(" data-merged=\"true\"");
        }
        hits.append(" x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" width=\"").append(fmt(w))
                .append("\" height=\"").append(h).append("\"><title>").append(Html.escape(title))
                .append("</title></rect>");
    }

    /** The tasks that get hover text: all, or the {@link #TITLE_LIMIT} longest. */
    private static Set<Long> titledTasks(TaskTimeline t) {
        List<TimelineBar> bars = new ArrayList<>(t.bars());
        if (bars.size() > TITLE_LIMIT) {
            bars.sort(Comparator.comparingLong(TimelineBar::durationMs).reversed());
            bars = bars.subList(0, TITLE_LIMIT);
        }
        Set<Long> ids = new HashSet<>();
        for (TimelineBar b : bars) {
            ids.add(b.taskId());
        }
        return ids;
    }

    static String barTitle(TimelineBar b, TaskTimeline t) {
        StringBuilder sb = new StringBuilder();
        sb.append("task ").append(b.taskId()).append(" (index ").append(b.index()).append(", attempt ")
                .append(b.attempt()).append(") · executor ").append(b.executorId()).append(" · ").append(b.status())
                .append(b.speculative() ? " · speculative" : "").append('\n').append("launched +")
                .append(Fmt.duration(b.launchTime() - t.startTime())).append(", ").append(Fmt.duration(b.durationMs()))
                .append('\n');
        if (!b.metricsKnown()) {
            return sb.append("no metrics reported").toString();
        }
        for (TaskPhase p : TaskPhase.values()) {
            sb.append(p == TaskPhase.SCHEDULER_DELAY ? "" : " · ").append(p.shortLabel).append(' ')
                    .append(b.phaseMs(p)).append(" ms");
        }
        return sb.toString();
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
