package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SqlPlans;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stages whose partition count the code fixed with an explicit {@code repartition(n)} or {@code coalesce(n)}: no
 * setting changes such a count ({@code spark.sql.shuffle.partitions} least of all), only the call in the code does.
 * A SQL stage is told by its plan: an {@code Exchange} of shuffle origin {@code REPARTITION_BY_NUM} (or, before Spark
 * 3.0 named origins, a {@code RoundRobinPartitioning}, which only {@code repartition(n)} makes) whose shuffle the stage
 * reads, or a {@code Coalesce n} operator the stage runs. An RDD stage is told by its call sites: a stage named
 * "coalesce at …" ran a narrow coalesce, and a stage whose parent is named "repartition at …" or "coalesce at …"
 * reads the shuffle such a call wrote. A {@code repartition(col)} without a count is not explicit: its count is
 * {@code spark.sql.shuffle.partitions}.
 */
final class ExplicitPartitions {
    private static final Pattern ROUND_ROBIN = Pattern.compile("RoundRobinPartitioning\\((\\d+)\\)");
    private static final Pattern LAST_COUNT = Pattern.compile("(?i)(?:hash|range)partitioning\\(.*,\\s*(\\d+)\\)");
    private static final Pattern COALESCE = Pattern.compile("^Coalesce\\s+(\\d+)");

    private ExplicitPartitions() {
    }

    /**
     * Where one stage's partition count comes from.
     *
     * @param count       the count the call asked for
     * @param call        the call as the user wrote it, e.g. "repartition(2)" or "coalesce(1)"
     * @param operator    the plan operator's text (e.g. "Exchange RoundRobinPartitioning(2), REPARTITION_BY_NUM") or
     *                    the RDD call site (e.g. "repartition at Job.java:12")
     * @param executionId the SQL execution holding the operator, -1 for an RDD call site
     * @param nodeId      the operator's plan node id, -1 for an RDD call site
     * @param nodeName    the operator's node name ("Exchange", "Coalesce"), "" for an RDD call site
     */
    record Source(int count, String call, String operator, long executionId, long nodeId, String nodeName) {
        boolean inPlan() {
            return executionId >= 0;
        }

        /** "repartition(2) (Exchange RoundRobinPartitioning(2), REPARTITION_BY_NUM in SQL query 3)". */
        String where() {
            return call + " (" + operator + (inPlan() ? " in SQL query " + executionId : "") + ")";
        }
    }

    /**
     * The counts of the last application asked for: several heuristics ask for them per stage, of the same snapshot.
     * Held weakly, so it keeps nothing alive but one application's map.
     */
    private record Cached(WeakReference<AppSnapshot> app, Map<Integer, Source> sources) {
    }

    private static volatile Cached last;

    /** Explicit partition counts of the application's stages, by stage id. */
    static Map<Integer, Source> of(AppSnapshot app) {
        Cached c = last;
        if (c != null && c.app().get() == app) {
            return c.sources();
        }
        Map<Integer, Source> built = Collections.unmodifiableMap(build(app));
        last = new Cached(new WeakReference<>(app), built);
        return built;
    }

    private static Map<Integer, Source> build(AppSnapshot app) {
        Map<Integer, StageSummary> stages = new HashMap<>();
        for (StageSummary s : app.stages()) {
            stages.merge(s.stageId(), s, (a, b) -> a.attemptId() >= b.attemptId() ? a : b);
        }
        Map<Integer, Source> out = new HashMap<>();
        for (SqlPlans.Plan p : SqlPlans.of(app).plans()) {
            for (PlanGraph.Node n : p.graph().nodes()) {
                Source src = planSource(p, n);
                if (src == null) {
                    continue;
                }
                // The exchange spans the stage that wrote its shuffle and the one that read it; the reader is the
                // one with the asked-for count. A coalesce ran in the stage(s) of its neighbours, with its count.
                for (int stageId : p.stages().stagesOf(n.id())) {
                    StageSummary s = stages.get(stageId);
                    if (s != null && s.numTasks() == src.count()) {
                        out.putIfAbsent(stageId, src);
                    }
                }
            }
        }
        for (StageSummary s : stages.values()) {
            if (out.containsKey(s.stageId())) {
                continue;
            }
            String own = callSite(s.name());
            if ("coalesce".equals(own)) {
                out.put(s.stageId(), new Source(s.numTasks(), "coalesce(" + s.numTasks() + ")", s.name(), -1, -1, ""));
                continue;
            }
            for (int parentId : s.parentIds()) {
                StageSummary parent = stages.get(parentId);
                String call = parent == null ? null : callSite(parent.name());
                if ("repartition".equals(call) || "coalesce".equals(call)) {
                    out.put(s.stageId(), new Source(s.numTasks(), call + "(" + s.numTasks() + ")", parent.name(),
                            -1, -1, ""));
                    break;
                }
            }
        }
        return out;
    }

    private static Source planSource(SqlPlans.Plan p, PlanGraph.Node n) {
        String text = n.description() == null ? "" : n.description();
        long id = p.sql().executionId();
        if (n.name().equals("Exchange") || n.name().startsWith("Exchange ")) {
            Matcher rr = ROUND_ROBIN.matcher(text);
            boolean byNum = text.contains("REPARTITION_BY_NUM");
            if (rr.find()) {
                int count = Integer.parseInt(rr.group(1));
                return new Source(count, "repartition(" + count + ")", shortText(text), id, n.id(), n.name());
            }
            if (byNum && text.contains("SinglePartition")) {
                return new Source(1, "repartition(1)", shortText(text), id, n.id(), n.name());
            }
            Matcher last = LAST_COUNT.matcher(text);
            if (byNum && last.find()) {
                int count = Integer.parseInt(last.group(1));
                String call = text.toLowerCase(java.util.Locale.ROOT).contains("rangepartitioning")
                        ? "repartitionByRange(" + count + ", …)" : "repartition(" + count + ", …)";
                return new Source(count, call, shortText(text), id, n.id(), n.name());
            }
            return null;
        }
        Matcher c = COALESCE.matcher(text.isEmpty() ? n.name() : text);
        if (n.name().equals("Coalesce") && c.find()) {
            int count = Integer.parseInt(c.group(1));
            return new Source(count, "coalesce(" + count + ")", "Coalesce " + count, id, n.id(), n.name());
        }
        return null;
    }

    /** The operator's text without Spark's "[plan_id=…]" suffix, which names nothing the user wrote. */
    private static String shortText(String text) {
        return text.replaceAll(",?\\s*\\[plan_id=\\d+]", "").strip();
    }

    /** "coalesce" for a stage named "coalesce at Job.java:12", "repartition" likewise; else null. */
    private static String callSite(String name) {
        if (name == null) {
            return null;
        }
        for (String call : List.of("coalesce", "repartition")) {
            if (name.startsWith(call + " at ")) {
                return call;
            }
        }
        return null;
    }
}
