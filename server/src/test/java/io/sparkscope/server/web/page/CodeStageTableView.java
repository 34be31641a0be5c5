package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.timeline.TimeBreakdown;
import io.sparkscope.core.analysis.timeline.TimeBreakdown.Part;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StageRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stage table (with its time-breakdown cells and legend) as it was written in code before stageTable.jte, kept
 * unchanged as the reference the template's table must equal byte for byte ({@link StageTableTemplateTest}) and the baseline of {@link PageRenderBench}.
 */
final class CodeStageTableView {
    private static final double[] SHOWN_QUANTILES = {0.0, 0.25, 0.5, 0.75, 0.95, 1.0};

    private CodeStageTableView() {
    }

    static void render(Html h, List<StageRow> stages, Map<Integer, List<SqlQuery.StageOperator>> operators,
                       String appId, String attemptId, StageTableView.StageSort sort, boolean desc) {
        List<StageRow> rows = StageTableView.sorted(stages, sort, desc);
        String base = Urls.app(appId, attemptId);
        h.raw("<section><h2 id=\"stages\">Stages (").t(rows.size()).raw(")</h2>");
        legend(h);
        h.raw("<div class=\"table-scroll\"><table class=\"grid stages\" id=\"stage-table\"><thead><tr>");
        header(h, base, "Stage", StageTableView.StageSort.ID, sort, desc);
        h.raw("<th>Name</th><th>Status</th>");
        header(h, base, "Duration", StageTableView.StageSort.DURATION, sort, desc);
        h.raw("<th>Where task time went</th>");
        header(h, base, "Tasks", StageTableView.StageSort.TASKS, sort, desc);
        header(h, base, "Failed", StageTableView.StageSort.FAILED, sort, desc);
        h.raw("<th class=\"num\">Run time</th>");
        header(h, base, "GC", StageTableView.StageSort.GC, sort, desc);
        header(h, base, "Input", StageTableView.StageSort.INPUT, sort, desc);
        header(h, base, "Output", StageTableView.StageSort.OUTPUT, sort, desc);
        header(h, base, "Spill (mem / disk)", StageTableView.StageSort.SPILL, sort, desc);
        header(h, base, "Shuffle (read / write)", StageTableView.StageSort.SHUFFLE, sort, desc);
        h.raw("<th>Task quantiles</th></tr></thead><tbody>");
        for (StageRow s : rows) {
            h.raw("<tr class=\"stage-row\" id=\"stage-").a(s.key()).raw("\" data-stage=\"").a(s.key()).raw("\"><td class=\"stage-key\"><a class=\"stage-link\" href=\"").a(Links.stage(appId, attemptId, s.stageId(), s.attemptId())).raw("\">").t(s.key()).raw("</a>")
                    .raw("</td><td class=\"stage-name\">");
            StageTableView.name(h, s.name());
            sqlOperators(h, appId, attemptId, operators.getOrDefault(s.stageId(), List.of()));
            if (s.failureReason() != null) {
                h.raw("<details class=\"failure\"><summary>failure reason</summary><pre>").t(s.failureReason())
                        .raw("</pre></details>");
            }
            h.raw("</td><td><span class=\"stage-status st-").raw(s.status().toLowerCase(Locale.ROOT).replaceAll("[^a-z]", ""))
                    .raw("\">").t(s.status().toLowerCase(Locale.ROOT)).raw("</span></td><td class=\"num\">")
                    .t(Fmt.duration(s.durationMs())).raw("</td>");
            cell(h, s, appId, attemptId);
            h.raw("<td class=\"num\"><a class=\"tasks-link\" href=\"")
                    .a(Urls.stageTasks(appId, attemptId, s.stageId(), s.attemptId())).raw("\">")
                    .t(Fmt.count(s.numTasks())).raw("</a></td><td class=\"num").raw(s.numFailedTasks() > 0 ? " bad" : "")
                    .raw("\">");
            if (s.numFailedTasks() > 0) {
                h.raw("<a class=\"failed-tasks-link\" href=\"")
                        .a(Links.failedTasks(appId, attemptId, s.stageId(), s.attemptId(), null)).raw("\">")
                        .t(Fmt.count(s.numFailedTasks())).raw("</a>");
            } else {
                h.t(Fmt.count(s.numFailedTasks()));
            }
            h.raw("</td><td class=\"num\">")
                    .t(Fmt.duration(s.executorRunTimeMs())).raw("</td><td class=\"num\">").t(Fmt.duration(s.jvmGcTimeMs()))
                    .raw("</td><td class=\"num input\">").t(Fmt.bytes(s.inputBytes()))
                    .raw("</td><td class=\"num output\">").t(Fmt.bytes(s.outputBytes()))
                    .raw("</td><td class=\"num\">").t(Fmt.bytes(s.memoryBytesSpilled())).t(" / ")
                    .t(Fmt.bytes(s.diskBytesSpilled())).raw("</td><td class=\"num\">").t(Fmt.bytes(s.shuffleReadBytes()))
                    .t(" / ").t(Fmt.bytes(s.shuffleWriteBytes())).raw("</td><td>");
            quantiles(h, s);
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div></section>");
    }

    /** Operators a stage row names: per query, "SQL 3: Sort, Exchange", each query a link to its plan. */
    private static void sqlOperators(Html h, String appId, String attemptId, List<SqlQuery.StageOperator> ops) {
        if (ops.isEmpty()) {
            return;
        }
        Map<Long, List<String>> byQuery = new java.util.LinkedHashMap<>();
        for (SqlQuery.StageOperator o : ops) {
            List<String> names = byQuery.computeIfAbsent(o.executionId(), k -> new ArrayList<>());
            String n = o.name().strip();
            if (o.nodeId() != SqlQuery.StageOperator.NO_NODE && !names.contains(n)) {
                names.add(n);
            }
        }
        h.raw("<div class=\"stage-sql muted small\">");
        boolean first = true;
        for (Map.Entry<Long, List<String>> q : byQuery.entrySet()) {
            h.raw(first ? "" : "; ");
            first = false;
            String text = String.join(", ", q.getValue());
            h.raw("<a class=\"stage-query\" href=\"").a(Links.sql(appId, attemptId, q.getKey()))
                    .raw("\">SQL ").t(q.getKey()).raw("</a>");
            if (!text.isEmpty()) {
                h.raw(": <span class=\"stage-operators\" title=\"").a(text).raw("\">").t(StageTableView.shorten(text))
                        .raw("</span>");
            }
        }
        h.raw("</div>");
    }

    private static void header(Html h, String base, String label, StageTableView.StageSort key, StageTableView.StageSort sort, boolean desc) {
        boolean on = key == sort;
        boolean nextDesc = !on || !desc;
        h.raw("<th class=\"sortable").raw(on ? " on" : "").raw("\"><a href=\"")
                .a(base + "?stageSort=" + key.name().toLowerCase(Locale.ROOT) + "&stageOrder=" + (nextDesc ? "desc" : "asc")
                        + "#stages")
                .raw("\">").t(label).raw(on ? (desc ? " ▼" : " ▲") : "").raw("</a></th>");
    }

    private static void quantiles(Html h, StageRow s) {
        if (s.summaryTaskCount() == 0 || s.quantiles().length == 0) {
            h.raw("<span class=\"muted\">no successful task</span>");
            return;
        }
        h.raw("<details class=\"quantiles\"><summary>").t(Fmt.count(s.summaryTaskCount()))
                .raw(" tasks</summary><div class=\"table-scroll\"><table class=\"grid small\"><thead><tr><th>metric</th>");
        List<Double> shown = new ArrayList<>();
        for (double q : SHOWN_QUANTILES) {
            if (!Double.isNaN(s.quantile("duration", q))) {
                shown.add(q);
                h.raw("<th class=\"num\">").t(q == 0 ? "min" : q == 1 ? "max" : q == 0.5 ? "median"
                        : "p" + Math.round(q * 100)).raw("</th>");
            }
        }
        h.raw("</tr></thead><tbody>");
        for (StageTableView.Metric m : StageTableView.METRICS) {
            if (m.onlyWhenUsed() && !used(s, m, shown)) {
                continue;
            }
            h.raw("<tr data-metric=\"").a(m.path()).raw("\"><th>").t(m.label()).raw("</th>");
            for (double q : shown) {
                double v = s.quantile(m.path(), q);
                h.raw("<td class=\"num\">").t(Double.isNaN(v) ? "—" : format(m.unit(), Math.round(v))).raw("</td>");
            }
            h.raw("</tr>");
        }
        h.raw("</tbody></table></div></details>");
    }

    private static boolean used(StageRow s, StageTableView.Metric m, List<Double> shown) {
        for (double q : shown) {
            double v = s.quantile(m.path(), q);
            if (!Double.isNaN(v) && v != 0) {
                return true;
            }
        }
        return false;
    }

    private static String format(StageTableView.Unit unit, long v) {
        return switch (unit) {
            case MS -> Fmt.duration(v);
            case NS -> Fmt.duration(v / 1_000_000);
            case BYTES -> Fmt.bytes(v);
            case COUNT -> Fmt.count(v);
        };
    }

    private static void cell(Html h, StageRow s, String appId, String attemptId) {
        TimeBreakdown b = StageBreakdownView.of(s);
        long total = b.totalMs();
        h.raw("<td class=\"breakdown\">");
        if (total > 0) {
            h.raw("<svg class=\"breakdown\" width=\"").t(StageBreakdownView.WIDTH).raw("\" height=\"").t(StageBreakdownView.HEIGHT)
                    .raw("\" role=\"img\" aria-label=\"where task time went\"><title>").t(StageBreakdownView.title(b)).raw("</title>");
            double x = 0;
            for (Part p : Part.values()) {
                long ms = b.ms(p);
                if (ms <= 0) {
                    continue;
                }
                double w = StageBreakdownView.WIDTH * (double) ms / total;
                h.raw("<rect class=\"pt-").raw(p.cssName()).raw("\" x=\"").raw(TimelineSvg.fmt(x))
                        .raw("\" y=\"0\" width=\"").raw(TimelineSvg.fmt(w)).raw("\" height=\"").t(StageBreakdownView.HEIGHT)
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

    private static void legend(Html h) {
        h.raw("<ul class=\"legend\" id=\"breakdown-legend\"><li class=\"side\">Where task time went:</li>");
        for (Part p : Part.values()) {
            h.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" rx=\"2\""
                    + " class=\"pt-").raw(p.cssName()).raw("\"/></svg>").t(p.label).raw("</li>");
        }
        h.raw("</ul>");
    }
}
