package io.sparkscope.server.web.page;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.sql.PlanLayout;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.server.web.sql.PlanTimes;
import io.sparkscope.server.web.sql.SqlFindings;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A laid-out plan as inline SVG: whole-stage-codegen clusters as tinted boxes titled with their id, operators as
 * boxes holding their name and metric totals, exchanges (the stage boundaries) in their own colour, findings marked
 * on the node they are about, edges with arrows in the direction data flows. Every text is escaped; each box links
 * to its row in the operator table.
 */
final class PlanSvg {
    private PlanSvg() {
    }

    static void render(Html h, PlanPictures.Picture p, Map<Long, List<Finding>> findingsByNode) {
        if (!p.times().reported()) {
            h.raw("<p class=\"notice\" id=\"no-operator-metrics\">").t(NO_METRICS).raw("</p>");
        }
        tools(h);
        if (p.times().totalMs() > 0) {
            heatLegend(h, p.times().totalMs());
        }
        svg(h, p.graph(), p.laid(), p.lines(), "physical plan graph", new Look() {
            @Override
            public String href(PlanGraph.Node n) {
                return "#node-" + n.id();
            }

            @Override
            public String classes(PlanGraph.Node n) {
                Finding worst = SqlFindings.worst(findingsByNode.getOrDefault(n.id(), List.of()));
                StringBuilder cls = new StringBuilder();
                if (isExchange(n)) {
                    cls.append(" exchange");
                }
                if (worst != null) {
                    cls.append(worst.severity() == Severity.HIGH ? " has-finding sev-high" : " has-finding sev-low");
                }
                PlanTimes.Share share = p.times().of(n.id());
                if (share != null) {
                    // the colour scale of the node's share of the query's measured time (the legend says the steps)
                    cls.append(" heat-").append(share.heat());
                }
                return cls.toString();
            }

            @Override
            public String clusterClass(PlanGraph.Node n) {
                // its share's colour on the box: the group's class stays "plan-cluster" alone
                PlanTimes.Share clusterShare = p.times().of(n.id());
                return clusterShare == null ? null : "heat-" + clusterShare.heat();
            }

            @Override
            public String mark(PlanGraph.Node n) {
                List<Finding> on = findingsByNode.getOrDefault(n.id(), List.of());
                Finding worst = SqlFindings.worst(on);
                if (worst == null) {
                    return null;
                }
                String mark = "⚠ " + (worst.title() == null ? worst.heuristic() : worst.title());
                return (mark.length() > PlanPictures.LINE_CHARS ? mark.substring(0, PlanPictures.LINE_CHARS - 1)
                        + "…" : mark) + (on.size() > 1 ? " (+" + (on.size() - 1) + ")" : "");
            }
        });
    }

    /** What a drawing shows of a node beyond its box and lines: the SQL page's look or the stage page's. */
    interface Look {
        /** Where the node's box links to. */
        String href(PlanGraph.Node n);

        /** Classes after "plan-node", each with a leading space; "" for none. */
        String classes(PlanGraph.Node n);

        /** The class of a cluster's rectangle, or null. */
        String clusterClass(PlanGraph.Node n);

        /** A last line drawn in the box as a warning, or null. */
        String mark(PlanGraph.Node n);
    }

    /** Zoom buttons for sparkscope.js to show (hidden without it: the box still scrolls). */
    static void tools(Html h) {
        h.raw("<div class=\"plan-tools\" id=\"plan-tools\" hidden><button type=\"button\" class=\"btn small\"")
                .raw(" data-zoom=\"out\" title=\"zoom out\">&#8722;</button> <span class=\"zoom-level\">100 %</span> ")
                .raw("<button type=\"button\" class=\"btn small\" data-zoom=\"in\" title=\"zoom in\">+</button> ")
                .raw("<button type=\"button\" class=\"btn small\" data-zoom=\"fit\">fit</button> ")
                .raw("<button type=\"button\" class=\"btn small\" data-zoom=\"reset\">1:1</button> ")
                .raw("<span class=\"hint\">drag to pan, Ctrl + wheel to zoom</span></div>");
    }

    /**
     * The laid-out graph in its scrolling box (the one {@code #plan-graph} sparkscope.js pans and zooms): clusters,
     * then edges, then the operators' boxes with their lines, each box a link.
     */
    static void svg(Html h, PlanGraph graph, PlanLayout.Laid laid, Map<Long, List<String>> lines, String label,
                    Look look) {
        h.raw("<div class=\"plan-scroll\" id=\"plan-graph\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plan\"")
                .raw(" role=\"img\" aria-label=\"").a(label).raw("\" width=\"").t(px(laid.width()))
                .raw("\" height=\"").t(px(laid.height())).raw("\" viewBox=\"0 0 ").t(px(laid.width())).raw(" ")
                .t(px(laid.height())).raw("\"><defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\"")
                .raw(" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\"")
                .raw(" class=\"plan-arrow\"/></marker></defs>");
        // clusters first, so operators and edges are drawn over them
        for (PlanGraph.Node n : graph.nodes()) {
            PlanLayout.Box b = laid.boxes().get(n.id());
            if (!n.cluster() || b == null) {
                continue;
            }
            String rectClass = look.clusterClass(n);
            h.raw("<g class=\"plan-cluster\" id=\"plan-node-").t(n.id()).raw("\" data-node=\"").t(n.id())
                    .raw("\"><title>").t(n.name().strip()).raw("</title><rect")
                    .raw(rectClass == null ? "" : " class=\"" + rectClass + "\"").raw(" x=\"")
                    .t(px(b.x())).raw("\" y=\"")
                    .t(px(b.y())).raw("\" width=\"").t(px(b.width())).raw("\" height=\"").t(px(b.height()))
                    .raw("\" rx=\"6\"/><text x=\"").t(px(b.x() + 8)).raw("\" y=\"").t(px(b.y() + 15)).raw("\">")
                    .t(String.join(" · ", lines.get(n.id()))).raw("</text></g>");
        }
        for (PlanLayout.Path e : laid.edges()) {
            h.raw("<polyline class=\"plan-edge\" data-from=\"").t(e.fromId()).raw("\" data-to=\"").t(e.toId())
                    .raw("\" marker-end=\"url(#arrow)\" points=\"");
            for (double[] pt : e.points()) {
                h.t(px(pt[0])).raw(",").t(px(pt[1])).raw(" ");
            }
            h.raw("\"/>");
        }
        for (PlanGraph.Node n : graph.nodes()) {
            PlanLayout.Box b = laid.boxes().get(n.id());
            if (n.cluster() || b == null) {
                continue;
            }
            h.raw("<a href=\"").a(look.href(n)).raw("\"><g class=\"plan-node").raw(look.classes(n))
                    .raw("\" id=\"plan-node-").t(n.id()).raw("\" data-node=\"").t(n.id()).raw("\"><title>")
                    .t(n.description().strip()).raw("</title><rect x=\"").t(px(b.x())).raw("\" y=\"").t(px(b.y()))
                    .raw("\" width=\"").t(px(b.width())).raw("\" height=\"").t(px(b.height())).raw("\" rx=\"4\"/>");
            List<String> nodeLines = lines.get(n.id());
            double y = b.y() + 8 + PlanPictures.LINE_HEIGHT - 3;
            for (int i = 0; i < nodeLines.size(); i++) {
                h.raw("<text x=\"").t(px(b.x() + 8)).raw("\" y=\"").t(px(y)).raw("\"")
                        .raw(i == 0 ? " class=\"op-name\"" : "").raw(">").t(nodeLines.get(i)).raw("</text>");
                y += PlanPictures.LINE_HEIGHT;
            }
            String mark = look.mark(n);
            if (mark != null) {
                h.raw("<text class=\"finding-mark\" x=\"").t(px(b.x() + 8)).raw("\" y=\"").t(px(y)).raw("\">")
                        .t(mark).raw("</text>");
            }
            h.raw("</g></a>");
        }
        h.raw("</svg></div>");
    }

    /**
     * Why a graph has no value in any box: Spark adds up an operator's metrics from the task attempts that succeed
     * (a failed attempt's updates are dropped) and from the driver when the query ends.
     */
    static final String NO_METRICS = "No operator of this query reported a metric, so the graph and the table below"
            + " show none. Spark counts an operator's metrics from the tasks that finished successfully (a failed"
            + " task's updates are dropped) and from the driver when the query ends: a query whose tasks all failed,"
            + " or an event log written without them, has none.";

    /** The colour steps of the operators' shares of the query's measured time ({@link PlanTimes.Share#heat}). */
    private static void heatLegend(Html h, long totalMs) {
        h.raw("<ul class=\"legend\" id=\"plan-heat-legend\"><li class=\"side\">Share of the ").t(Fmt.duration(totalMs))
                .raw(" Spark timed in this query's operators (codegen stages' durations, operators' own timers):</li>");
        String[] labels = {"under 5 %", "5–15 %", "15–30 %", "30–50 %", "50 % or more"};
        for (int i = 0; i < labels.length; i++) {
            h.raw("<li><span class=\"heat-swatch heat-").t(i + 1).raw("\"></span>").t(labels[i]).raw("</li>");
        }
        h.raw("<li class=\"side\">uncoloured: not timed by Spark</li></ul>");
    }

    static boolean isExchange(PlanGraph.Node n) {
        String name = n.name();
        return name.contains("Exchange") || name.contains("ShuffleRead") || name.startsWith("AQEShuffleRead");
    }

    /** Coordinates rounded to a tenth of a pixel, with a dot whatever the locale. */
    private static String px(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
