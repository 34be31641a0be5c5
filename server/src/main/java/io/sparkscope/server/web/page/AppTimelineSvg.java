package io.sparkscope.server.web.page;

import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.AppTimeline;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.store.query.AppTimelineQuery;

import java.util.List;
import java.util.Locale;

import static io.sparkscope.server.web.page.TimelineSvg.fmt;

/**
 * An application's timeline as SVG: a time axis from its start, each executor's task slots as lanes with its
 * lifetime drawn across them (a red mark where it was removed, the reason on hover), then its jobs and stage
 * attempts as bars in rows (a stage bar leads to the stage's page). Drawn at a fixed width: the page scrolls it in
 * its own box on a narrow screen.
 */
final class AppTimelineSvg {
    static final int PLOT_WIDTH = 1000;
    static final int LABEL_WIDTH = 150;
    static final int AXIS_HEIGHT = 26;
    static final int HEADING_HEIGHT = 20;
    static final int ROW_HEIGHT = 16;
    /** A bar's label is written inside it when the bar is at least this wide (px). */
    static final int LABEL_MIN_PX = 60;

    private final AppTimeline t;
    private final double pxPerMs;
    private final Html out = new Html(16 * 1024);

    private AppTimelineSvg(AppTimeline t) {
        this.t = t;
        this.pxPerMs = (double) PLOT_WIDTH / Math.max(1, t.end() - t.start());
    }

    static String draw(AppTimeline t) {
        return new AppTimelineSvg(t).svg();
    }

    private double x(long time) {
        return LABEL_WIDTH + (time - t.start()) * pxPerMs;
    }

    private String svg() {
        int laneH = TimelineSvg.laneHeight(t.lanes());
        int executorsTop = AXIS_HEIGHT + HEADING_HEIGHT;
        int jobsTop = executorsTop + t.lanes() * laneH + HEADING_HEIGHT;
        int stagesTop = jobsTop + Math.max(1, t.jobRows()) * ROW_HEIGHT + HEADING_HEIGHT;
        int height = stagesTop + Math.max(1, t.stageRows()) * ROW_HEIGHT + 6;
        int width = LABEL_WIDTH + PLOT_WIDTH + 10;
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"app-timeline\" id=\"app-timeline\" width=\"")
                .t(width).raw("\" height=\"").t(height).raw("\" viewBox=\"0 0 ").t(width).raw(" ").t(height)
                .raw("\" role=\"img\" aria-label=\"application timeline\" data-lanes=\"").t(t.lanes())
                .raw("\" data-executors=\"").t(t.executors().size()).raw("\" data-jobs=\"").t(t.jobs().size())
                .raw("\" data-stages=\"").t(t.stages().size()).raw("\">");
        axis(height);
        heading(executorsTop, "Executors · " + Fmt.count(t.knownSlots(), "core") + " (a lane per task slot)");
        executors(executorsTop, laneH);
        heading(jobsTop, "Jobs");
        bars(t.jobs(), jobsTop, "job");
        heading(stagesTop, "Stages");
        bars(t.stages(), stagesTop, "stage");
        out.raw("</svg>");
        return out.toString();
    }

    private void heading(int top, String text) {
        out.raw("<text class=\"section\" x=\"4\" y=\"").t(top - 6).raw("\">").t(text).raw("</text>");
    }

    private void axis(int height) {
        long span = Math.max(1, t.end() - t.start());
        long step = TimelineSvg.niceStep(span / 8.0);
        for (long at = 0; at <= span; at += step) {
            double px = LABEL_WIDTH + at * pxPerMs;
            out.raw("<line class=\"tick\" x1=\"").raw(fmt(px)).raw("\" x2=\"").raw(fmt(px)).raw("\" y1=\"")
                    .t(AXIS_HEIGHT - 4).raw("\" y2=\"").t(height - 4).raw("\"/>");
            // no label so close to the right edge that the drawing would cut it
            if (px < LABEL_WIDTH + PLOT_WIDTH - 40) {
                out.raw("<text class=\"axis\" x=\"").raw(fmt(px + 2)).raw("\" y=\"14\">+").t(Fmt.duration(at))
                        .raw("</text>");
            }
        }
    }

    private void executors(int top, int laneH) {
        int index = 0;
        for (AppTimeline.Band b : t.executors()) {
            AppTimelineQuery.Executor e = b.executor();
            String parity = index++ % 2 == 0 ? "lane-even" : "lane-odd";
            int bandTop = top + b.firstLane() * laneH;
            for (int i = 0; i < b.lanes(); i++) {
                out.raw("<rect class=\"lane ").raw(parity).raw("\" data-executor=\"").a(e.executorId())
                        .raw("\" data-slot=\"").t(i).raw("\" x=\"").t(LABEL_WIDTH).raw("\" y=\"")
                        .t(bandTop + i * laneH).raw("\" width=\"").t(PLOT_WIDTH).raw("\" height=\"").t(laneH)
                        .raw("\"/>");
            }
            String who = "driver".equals(e.executorId()) ? "driver" : "executor " + e.executorId();
            String cores = b.slots() > 0 ? Fmt.count(b.slots(), "slot") : "cores unknown";
            double x0 = x(b.from());
            double w = Math.max(1, x(b.to()) - x0);
            int pad = laneH >= 8 ? 2 : laneH >= 4 ? 1 : 0;
            StringBuilder title = new StringBuilder(who).append(" · ").append(cores)
                    .append(e.host() == null ? "" : " · " + e.host()).append("\nadded ")
                    .append(e.addTime() > 0 ? "+" + Fmt.duration(e.addTime() - t.start()) : "(time unknown)");
            if (e.removeTime() > 0) {
                title.append(", removed +").append(Fmt.duration(e.removeTime() - t.start()))
                        .append(e.removeReason() == null ? "" : ": " + e.removeReason());
            }
            // the lifetime on each lane: one bar per task slot, so the cores can be counted
            for (int i = 0; i < b.lanes(); i++) {
                out.raw("<rect class=\"exec-life").raw(e.removeTime() > 0 ? " removed" : "")
                        .raw("\" data-executor=\"").a(e.executorId()).raw("\" data-slot=\"").t(i).raw("\" x=\"")
                        .raw(fmt(x0)).raw("\" y=\"").t(bandTop + i * laneH + pad).raw("\" width=\"").raw(fmt(w))
                        .raw("\" height=\"").t(laneH - 2 * pad).raw("\"><title>").t(title.toString())
                        .raw("</title></rect>");
            }
            if (e.removeTime() > 0) {
                double rx = x(b.to());
                out.raw("<line class=\"exec-removed\" x1=\"").raw(fmt(rx)).raw("\" x2=\"").raw(fmt(rx))
                        .raw("\" y1=\"").t(bandTop).raw("\" y2=\"").t(bandTop + b.lanes() * laneH).raw("\"/>");
            }
            if (laneH * b.lanes() >= 10) {
                out.raw("<text class=\"lane-label\" x=\"4\" y=\"").t(bandTop + Math.min(laneH * b.lanes(), 14) - 3)
                        .raw("\">").t(clip(who + " · " + cores, 25)).raw("</text>");
            }
            out.raw("<line class=\"executor-sep\" x1=\"0\" x2=\"").t(LABEL_WIDTH + PLOT_WIDTH).raw("\" y1=\"")
                    .t(bandTop).raw("\" y2=\"").t(bandTop).raw("\"/>");
        }
    }

    private void bars(List<AppTimeline.Bar> bars, int top, String kind) {
        AppTimelineQuery.Data d = t.data();
        for (AppTimeline.Bar b : bars) {
            AppTimelineQuery.Span s = b.span();
            String status = b.running() ? "running" : s.status() == null ? "unknown"
                    : s.status().toLowerCase(Locale.ROOT);
            double x0 = x(b.from());
            double w = Math.max(1.5, x(b.to()) - x0);
            int y = top + b.row() * ROW_HEIGHT + 2;
            String label = kind + " " + s.id();
            String href = kind.equals("stage") ? stageHref(d, s.id())
                    : Urls.appTab(d.app().appId(), d.app().attemptId(), "jobs");
            String title = label + " · " + status + " · " + (b.running() ? "running for " : "")
                    + Fmt.duration(b.to() - b.from()) + (s.failedTasks() > 0 ? " · " + Fmt.count(s.failedTasks(),
                    "failed task") : "") + " · " + Fmt.count(s.tasks(), "task") + "\n"
                    + (s.name() == null ? "" : clip(s.name().strip(), 200));
            out.raw("<a href=\"").a(href).raw("\" class=\"").raw(kind).raw("-link\"><rect class=\"bar ")
                    .raw(kind).raw("-bar st-").raw(TasksView.statusClass(status)).raw("\" data-").raw(kind)
                    .raw("=\"").a(s.id()).raw("\" x=\"").raw(fmt(x0)).raw("\" y=\"").t(y).raw("\" width=\"")
                    .raw(fmt(w)).raw("\" height=\"").t(ROW_HEIGHT - 4).raw("\"><title>").t(title)
                    .raw("</title></rect>");
            if (w >= LABEL_MIN_PX) {
                out.raw("<text class=\"bar-label\" x=\"").raw(fmt(x0 + 3)).raw("\" y=\"").t(y + ROW_HEIGHT - 7)
                        .raw("\">").t(clip(label, (int) (w / 6.5))).raw("</text>");
            }
            out.raw("</a>");
        }
    }

    /** "3.1" → the page of stage 3, attempt 1. */
    private static String stageHref(AppTimelineQuery.Data d, String key) {
        int dot = key.indexOf('.');
        return StageView.url(d.app().appId(), d.app().attemptId(), Integer.parseInt(key.substring(0, dot)),
                Integer.parseInt(key.substring(dot + 1)));
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, Math.max(1, max - 1)) + "…";
    }
}
