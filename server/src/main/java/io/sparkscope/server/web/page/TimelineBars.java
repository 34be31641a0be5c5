package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.TaskPhase;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.analysis.timeline.TimelineBar;
import io.sparkscope.server.web.text.Fmt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.sparkscope.server.web.page.TimelineSvg.LABEL_WIDTH;
import static io.sparkscope.server.web.page.TimelineSvg.PLOT_WIDTH;
import static io.sparkscope.server.web.page.TimelineSvg.fmt;

/**
 * The bars of a task timeline, each task split into its phases, drawn lane by lane. Big stages (up to the
 * recorder's 10 000 kept tasks) stay a page of a few hundred kB at most:
 * <ul>
 *   <li>each phase is one {@code <path>} for the whole chart (a few dozen bytes a bar), not one element per bar;</li>
 *   <li>in a lane, consecutive bars each narrower than a pixel whose gaps are under a pixel are merged into one
 *       group drawn with the summed phase proportions and outlined dashed;</li>
 *   <li>hover text ({@code <title>} on a transparent hit rectangle) for at most {@link #TITLE_LIMIT} bars, the
 *       longest; the page says so, and the JSON route has every bar.</li>
 * </ul>
 */
final class TimelineBars {
    static final int TITLE_LIMIT = 1000;
    /** Phase segments narrower than this (px) are drawn as part of the next one: invisible, but not free. */
    static final double MIN_SEGMENT_PX = 0.3;

    private final TaskTimeline t;
    private final Scale x;
    private final int barH;
    private final Set<Long> titled;
    /** One path per phase, in {@link TaskPhase} order, then one for the bars without metrics. */
    private final StringBuilder[] paths = new StringBuilder[TaskPhase.values().length + 1];
    private final StringBuilder merged = new StringBuilder();
    /** Outlines over failed attempts (hatched red) and killed ones (dashed grey), drawn above the phases. */
    private final StringBuilder failed = new StringBuilder();
    private final StringBuilder killed = new StringBuilder();
    /** Outlines over bars launched while their lane's slot was still busy on the driver's clock (drawn over it). */
    private final StringBuilder crowded = new StringBuilder();
    private final StringBuilder hits = new StringBuilder();
    private int mergedGroups;
    private int mergedBars;

    /** @param barH each bar's height in px */
    TimelineBars(TaskTimeline t, int barH) {
        this.t = t;
        this.x = new Scale(t.startTime(), (double) PLOT_WIDTH / Math.max(1, t.endTime() - t.startTime()));
        this.barH = barH;
        this.titled = titledTasks(t);
        for (int i = 0; i < paths.length; i++) {
            paths[i] = new StringBuilder();
        }
    }

    /** Epoch ms to px. */
    private record Scale(long start, double pxPerMs) {
        double at(long time) {
            return LABEL_WIDTH + (time - start) * pxPerMs;
        }
    }

    /** Draws one lane's bars with their top at {@code y}, in launch order. */
    void lane(List<TimelineBar> bars, double y) {
        bars.sort(Comparator.comparingLong(TimelineBar::launchTime));
        List<TimelineBar> group = new ArrayList<>();
        double groupEnd = Double.NEGATIVE_INFINITY;
        long busyUntil = Long.MIN_VALUE;
        for (TimelineBar b : bars) {
            double x0 = x.at(b.launchTime());
            double x1 = x.at(b.finishTime());
            boolean overBusySlot = b.launchTime() < busyUntil;
            busyUntil = Math.max(busyUntil, b.finishTime());
            if (x1 - x0 < 1) {
                if (!group.isEmpty() && x0 - groupEnd >= 1) {
                    flush(group, y);
                }
                group.add(b);
                groupEnd = Math.max(groupEnd, x1);
                continue;
            }
            flush(group, y);
            groupEnd = Double.NEGATIVE_INFINITY;
            bar(b, y);
            outcome(b, x0, x1 - x0, y);
            if (overBusySlot) {
                rect(crowded, x0, y, x1 - x0, barH);
            }
            if (titled.contains(b.taskId())) {
                hit(x0, y, x1 - x0, b.taskId(), barTitle(b, t));
            }
        }
        flush(group, y);
    }

    /** The paths, then the dashed outlines of merged groups, then the hit rectangles on top of everything. */
    void writeTo(Html out) {
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
        if (failed.length() > 0) {
            out.raw("<path class=\"failed\" data-outcome=\"failed\" d=\"").raw(failed.toString()).raw("\"/>");
        }
        if (killed.length() > 0) {
            out.raw("<path class=\"killed\" data-outcome=\"killed\" d=\"").raw(killed.toString()).raw("\"/>");
        }
        if (crowded.length() > 0) {
            out.raw("<path class=\"crowded\" d=\"").raw(crowded.toString()).raw("\"/>");
        }
        // the hover texts were escaped when built
        out.raw(hits.toString());
    }

    int mergedGroups() {
        return mergedGroups;
    }

    int mergedBars() {
        return mergedBars;
    }

    /** Bars with hover text. */
    int titled() {
        return Math.min(titled.size(), t.bars().size());
    }

    private void bar(TimelineBar b, double y) {
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
    private void flush(List<TimelineBar> group, double y) {
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
            outcome(b, x0, w, y);
            if (titled.contains(b.taskId())) {
                hit(x0, y, Math.max(w, 1), b.taskId(), barTitle(b, t));
            }
            group.clear();
            return;
        }
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        long[] sums = new long[TaskPhase.values().length + 1];
        int failedInGroup = 0;
        int killedInGroup = 0;
        for (TimelineBar b : group) {
            failedInGroup += b.failed() ? 1 : 0;
            killedInGroup += b.killed() ? 1 : 0;
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
        if (failedInGroup > 0) {
            rect(failed, x0, y, w, barH);
        } else if (killedInGroup > 0) {
            rect(killed, x0, y, w, barH);
        }
        StringBuilder title = new StringBuilder();
        title.append(group.size()).append(" tasks merged (each narrower than a pixel), +")
                .append(Fmt.duration(from - t.startTime())).append(" to +").append(Fmt.duration(to - t.startTime()));
        if (failedInGroup > 0 || killedInGroup > 0) {
            title.append(", ").append(Fmt.count(failedInGroup)).append(" failed, ").append(Fmt.count(killedInGroup))
                    .append(" killed");
        }
        title.append('\n');
        for (TaskPhase p : TaskPhase.values()) {
            title.append(p == TaskPhase.SCHEDULER_DELAY ? "" : " · ").append(p.shortLabel).append(' ')
                    .append(Fmt.duration(sums[p.ordinal()]));
        }
        hit(x0, y, w, -1, title.toString());
        mergedGroups++;
        mergedBars += group.size();
        group.clear();
    }

    /** Marks a failed or killed attempt over its bar, so lost work is seen at a glance (not by colour alone). */
    private void outcome(TimelineBar b, double x0, double w, double y) {
        if (b.failed()) {
            rect(failed, x0, y, Math.max(w, 1), barH);
        } else if (b.killed()) {
            rect(killed, x0, y, Math.max(w, 1), barH);
        }
    }

    private static void rect(StringBuilder path, double x, double y, double w, int h) {
        path.append('M').append(fmt(x)).append(' ').append(fmt(y)).append('h').append(fmt(w)).append('v').append(h)
                .append('h').append(fmt(-w)).append('z');
    }

    private void hit(double x, double y, double w, long taskId, String title) {
        hits.append("<rect class=\"hit\"");
        if (taskId >= 0) {
            hits.append(" data-task=\"").append(taskId).append('"');
        } else {
            hits.append(" data-merged=\"true\"");
        }
        hits.append(" x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" width=\"").append(fmt(w))
                .append("\" height=\"").append(barH).append("\"><title>").append(Html.escape(title))
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

    private static String reason(TimelineBar b) {
        String why = b.endReason() == null || b.endReason().isBlank() ? "" : " (" + b.endReason() + ")";
        return why + (b.failed() ? ": attempt failed, its work lost" : ": attempt killed");
    }

    private static String barTitle(TimelineBar b, TaskTimeline t) {
        StringBuilder sb = new StringBuilder();
        sb.append("task ").append(b.taskId()).append(" (index ").append(b.index()).append(", attempt ")
                .append(b.attempt()).append(") · executor ").append(b.executorId()).append(" · ").append(b.status())
                .append(b.failed() || b.killed() ? reason(b) : "")
                .append(b.speculative() ? " · speculative" : "").append('\n').append("launched +")
                .append(Fmt.duration(b.launchTime() - t.startTime())).append(", ").append(Fmt.duration(b.durationMs()))
                .append('\n');
        if (!b.metricsKnown()) {
            return sb.append("no metrics reported").toString();
        }
        for (TaskPhase p : TaskPhase.values()) {
            sb.append(p == TaskPhase.SCHEDULER_DELAY ? "" : " · ").append(p.shortLabel).append(' ')
                    .append(Fmt.duration(b.phaseMs(p)));
        }
        return sb.toString();
    }
}
