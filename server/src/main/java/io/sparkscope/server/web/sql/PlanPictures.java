package io.sparkscope.server.web.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SparkMetricText;
import io.sparkscope.server.web.text.Fmt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the plan graph of an execution's page draws: each node's lines (its name, then its metrics as Spark's SQL
 * tab prints their totals) and the positions {@link PlanLayout} gives boxes of that size. Laying out a plan of a
 * thousand operators takes a good part of a second, so layouts are kept ({@link PlanLayout#kept}): a running
 * execution whose metrics grow a box is laid out again.
 */
public final class PlanPictures {
    /** Characters of a line in a box before it is cut with "…" (the whole text is in the operator table). */
    public static final int LINE_CHARS = 56;
    /** Metric lines in a box before "+ n more". */
    public static final int METRIC_LINES = 6;
    /** Width of a character of the boxes' 11 px monospace font, and the height of a line, in pixels. */
    public static final double CHAR_WIDTH = 6.7;
    public static final double LINE_HEIGHT = 14;
    /** Room in a box for a finding's mark line. */
    static final double PADDING = 8;

    /** A laid-out plan: the graph, positions, each drawn node's lines and each timed node's share of the query. */
    public record Picture(PlanGraph graph, PlanLayout.Laid laid, Map<Long, List<String>> lines, PlanTimes times) {
    }

    /**
     * @param markedNodes nodes that carry a finding: their boxes get one more line for its mark
     */
    public Picture of(SqlExecutionSummary sql, java.util.Set<Long> markedNodes) {
        PlanGraph graph = PlanGraph.of(sql.plan());
        PlanTimes times = PlanTimes.of(graph, sql.metrics());
        Map<Long, List<String>> lines = new HashMap<>();
        Map<Long, double[]> sizes = new HashMap<>();
        for (PlanGraph.Node n : graph.nodes()) {
            List<String> l = lines(n, sql.metrics(), times.of(n.id()));
            lines.put(n.id(), l);
            if (!n.cluster()) {
                sizes.put(n.id(), boxSize(l, markedNodes.contains(n.id()) ? 1 : 0));
            }
        }
        return new Picture(graph, PlanLayout.kept(graph, sizes), lines, times);
    }

    /** Width and height of an operator's box holding these lines and {@code extraRows} more (a finding's mark). */
    public static double[] boxSize(List<String> lines, int extraRows) {
        int chars = 0;
        for (String s : lines) {
            chars = Math.max(chars, s.length());
        }
        return new double[]{Math.max(120, Math.ceil(2 * PADDING + chars * CHAR_WIDTH)),
                Math.ceil(2 * PADDING + (lines.size() + extraRows) * LINE_HEIGHT)};
    }

    /**
     * A node's name, its share of the query's measured time when Spark timed it, then one line per metric Spark
     * reported: its name and Spark's total (with min, med, max).
     */
    static List<String> lines(PlanGraph.Node n, Map<Long, SqlMetricAggregate> metrics, PlanTimes.Share share) {
        List<String> out = new ArrayList<>();
        out.add(cut(n.name().strip()));
        if (share != null) {
            // a cluster's lines make one title line over its box, as wide as its operators: the share alone (its
            // time is its duration, among its metrics)
            out.add(n.cluster() ? Fmt.percent(share.share()) : shareText(share));
        }
        int shown = 0;
        int more = 0;
        for (PlanMetric m : n.metrics()) {
            SqlMetricAggregate a = metrics.get(m.accumulatorId());
            String text = a == null ? null : SparkMetricText.of(a);
            if (text == null) {
                continue;
            }
            if (shown == METRIC_LINES) {
                more++;
                continue;
            }
            out.add(cut((m.name() == null ? "" : m.name().strip()) + ": " + boxValue(text)));
            shown++;
        }
        if (more > 0) {
            out.add("+ " + more + " more");
        }
        return out;
    }

    /**
     * The value line of Spark's text: a sum as it is; "total (min, med, max (stageId: taskId))" texts by their
     * second line without the task that gave the max (the operator table has it).
     */
    static String boxValue(String sparkText) {
        int nl = sparkText.indexOf('\n');
        if (nl < 0) {
            return sparkText;
        }
        String v = sparkText.substring(nl + 1);
        int at = v.lastIndexOf(" (stage ");
        if (at < 0) {
            at = v.lastIndexOf(" (driver)");
        }
        return at > 0 ? v.substring(0, at) + ")" : v;
    }

    /** "time 12.3 s · 34.0 % of the query" as a box and the operator table show it. */
    public static String shareText(PlanTimes.Share share) {
        return "time " + Fmt.duration(share.ms()) + " · " + Fmt.percent(share.share()) + " of the query";
    }

    /** A box line cut to {@link #LINE_CHARS} with "…". */
    public static String cut(String s) {
        return s.length() <= LINE_CHARS ? s : s.substring(0, LINE_CHARS - 1) + "…";
    }
}
