package io.sparkscope.server.web.api;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.JobTuning;
import io.sparkscope.server.web.model.KeyConfig;
import io.sparkscope.server.web.model.RecurringJob;
import io.sparkscope.server.web.model.RegressionNote;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.sql.SqlFindings;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StageRow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The answers an AI agent's tools get (the MCP server): the JSON API's shapes, cut to what fits a model's context.
 * Every answer leads with its summary; every list is one page of a stated size ("showing 1–20 of 431") with the
 * cursor of the next. Built from the same service results as the JSON API, and from its records where they fit.
 */
public final class AgentJson {
    /** Longest stage name, SQL description or plan-node name kept: call sites and SQL text can run to pages. */
    static final int MAX_TEXT = 240;

    private AgentJson() {
    }

    /** One page of a list: where it starts, how many it holds and how many there are in all. */
    public record Page(int offset, int limit) {
        /** "showing 1–20 of 431", "none of 0". */
        String showing(long total, int shown) {
            if (shown == 0) {
                return "showing none of " + total;
            }
            return "showing " + (offset + 1) + "–" + (offset + shown) + " of " + total;
        }

        /** The cursor of the next page, null on the last. */
        String next(long total) {
            return offset + limit < total ? String.valueOf(offset + limit) : null;
        }

        <T> List<T> of(List<T> all) {
            return all.subList(Math.min(offset, all.size()), Math.min(all.size(), offset + limit));
        }

        /** The page's fields of an answer: total, showing, nextCursor, then the items under {@code key}. */
        <T> Map<String, Object> put(Map<String, Object> m, String key, List<T> all, Function<T, Object> shape) {
            List<T> page = of(all);
            return put(m, key, all.size(), page.stream().map(shape).toList());
        }

        Map<String, Object> put(Map<String, Object> m, String key, long total, List<?> items) {
            m.put(key + "Total", total);
            m.put("showing", showing(total, items.size()));
            m.put("nextCursor", next(total));
            m.put(key, items);
            return m;
        }
    }

    /** The matching applications, newest first unless sorted otherwise. */
    public static Map<String, Object> search(AppSearchQuery.Result r, Page page, Prices prices) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (r.totalIsLowerBound()) {
            m.put("note", "the total is a lower bound: counting stopped early");
        }
        List<Object> apps = r.rows().stream().map(a -> (Object) listed(a, prices)).toList();
        return page.put(m, "apps", r.total(), apps);
    }

    private static Map<String, Object> listed(AppListRow a, Prices prices) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", a.appId());
        putIf(m, "attemptId", a.attemptId());
        m.put("name", cut(a.name()));
        m.put("user", a.sparkUser());
        m.put("status", a.status().name());
        m.put("start", time(a.startTime()));
        m.put("durationMs", a.durationMs());
        m.put("worstSeverity", a.worstSeverity());
        m.put("numFindings", a.numFindings());
        m.put("savingMs", a.savingMs());
        if (a.efficiency() != null) {
            m.put("wastedCoreHours", round(a.efficiency().coreHoursWasted()));
        }
        ApiJson.CostJson cost = ApiJson.CostJson.of(a.efficiency(), prices);
        if (cost != null) {
            m.put("wastedCost", cost.wasted());
        }
        m.put("findings", a.findings().stream().limit(3).map(f -> f.severity() + " " + f.heuristic() + ": "
                + f.title()).toList());
        return m;
    }

    /**
     * One application: its figures, "fix this first" (at most three root causes with their saving), its findings'
     * headlines (the first {@code topFindings}) and the key settings; the rest is one tool call away.
     */
    public static Map<String, Object> app(AppDetail d, Prices prices, Map<String, String> triedWithoutHelp,
                                          int topFindings) {
        AppHeader h = d.header();
        Diagnosis diagnosis = Diagnosis.of(d.findings(), h.durationMs(), triedWithoutHelp);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("summary", summary(h, diagnosis));
        m.put("app", header(h));
        putIf(m, "cost", ApiJson.CostJson.of(h.efficiency(), prices));
        m.put("fixFirst", FindingJson.Fix.all(diagnosis.fixFirst()));
        List<Object> heads = new ArrayList<>();
        for (Diagnosis.Node n : diagnosis.roots()) {
            heads.add(headline(n.finding(), n.descendants()));
        }
        m.put("findingsTotal", d.findings().size());
        m.put("rootCauses", heads.subList(0, Math.min(topFindings, heads.size())));
        if (heads.size() > topFindings) {
            m.put("rootCausesNotShown", heads.size() - topFindings);
        }
        Map<String, String> key = new LinkedHashMap<>();
        for (String k : KeyConfig.KEYS) {
            String v = d.sparkConfig().get(k);
            if (v != null) {
                key.put(k, v);
            }
        }
        m.put("keyConfig", key);
        m.put("numStageAttempts", d.stages().size());
        return m;
    }

    /** "FAILED after 12 min: 2 HIGH, 1 LOW finding(s); fix first: DataSkew (saves about 4 min)". */
    private static String summary(AppHeader h, Diagnosis d) {
        StringBuilder s = new StringBuilder(h.status().name()).append(" after ").append(minutes(h.durationMs()));
        long high = count(d, "HIGH");
        s.append(": ").append(d.total()).append(" finding(s)");
        if (high > 0) {
            s.append(", ").append(high).append(" HIGH");
        }
        if (!d.fixFirst().items().isEmpty()) {
            var first = d.fixFirst().items().get(0);
            s.append("; fix first: ").append(first.heuristic());
            if (first.savingEstimated() && first.impact().wallMs() > 0) {
                s.append(" (saves about ").append(minutes(first.impact().wallMs())).append(")");
            }
        }
        if (h.numFailedTasks() > 0 || h.numFailedStages() > 0 || h.numFailedJobs() > 0) {
            s.append("; failed: ").append(h.numFailedJobs()).append(" job(s), ").append(h.numFailedStages())
                    .append(" stage(s), ").append(h.numFailedTasks()).append(" task(s)");
        }
        return s.toString();
    }

    private static long count(Diagnosis d, String severity) {
        long n = 0;
        List<Diagnosis.Node> todo = new ArrayList<>(d.roots());
        while (!todo.isEmpty()) {
            Diagnosis.Node node = todo.remove(todo.size() - 1);
            if (node.finding().severity().name().equals(severity)) {
                n++;
            }
            todo.addAll(node.knockOns());
        }
        return n;
    }

    static Map<String, Object> header(AppHeader h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", h.appId());
        putIf(m, "attemptId", h.attemptId());
        m.put("name", cut(h.name()));
        m.put("user", h.sparkUser());
        m.put("sparkVersion", h.sparkVersion());
        m.put("status", h.status().name());
        m.put("start", time(h.startTime()));
        m.put("durationMs", h.durationMs());
        putIf(m, "jobKey", h.jobKey());
        m.put("jobs", h.numJobs());
        m.put("failedJobs", h.numFailedJobs());
        m.put("stages", h.numStages());
        m.put("failedStages", h.numFailedStages());
        m.put("tasks", h.numTasks());
        m.put("failedTasks", h.numFailedTasks());
        m.put("executors", h.numExecutors());
        m.put("taskTimeMs", h.totalTaskTimeMs());
        m.put("gcTimeMs", h.totalGcTimeMs());
        m.put("inputBytes", h.inputBytes());
        m.put("outputBytes", h.outputBytes());
        m.put("shuffleReadBytes", h.shuffleReadBytes());
        m.put("shuffleWriteBytes", h.shuffleWriteBytes());
        m.put("spillBytes", h.memoryBytesSpilled() + h.diskBytesSpilled());
        if (h.efficiency() != null) {
            m.put("coreHoursAllocated", round(h.efficiency().coreHoursAllocated()));
            m.put("coreHoursWasted", round(h.efficiency().coreHoursWasted()));
        }
        return m;
    }

    private static Map<String, Object> headline(Finding f, int knockOns) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id());
        m.put("severity", f.severity().name());
        m.put("heuristic", f.heuristic());
        m.put("title", f.title());
        m.put("savingMs", f.impact().wallMs());
        if (knockOns > 0) {
            m.put("knockOns", knockOns);
        }
        return m;
    }

    /**
     * The findings in the application page's order (root causes by saving, each followed by its knock-ons), whole:
     * message, recommendation, advice and details.
     *
     * @param severity only this severity (HIGH, LOW), or null for all
     */
    public static Map<String, Object> findings(AppDetail d, String severity, Page page) {
        List<FindingJson> all = FindingJson.all(Diagnosis.of(d.findings(), d.header().durationMs()));
        if (severity != null) {
            all = all.stream().filter(f -> f.severity().equals(severity)).toList();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", d.header().appId());
        putIf(m, "attemptId", d.header().attemptId());
        return page.put(m, "findings", all, f -> f);
    }

    /** The stage attempts, the longest first, a line each. */
    public static Map<String, Object> stages(AppDetail d, Page page) {
        List<StageRow> byTime = new ArrayList<>(d.stages());
        byTime.sort(Comparator.comparingLong(StageRow::durationMs).reversed());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", d.header().appId());
        m.put("order", "longest first");
        Set<String> named = stagesNamed(d.findings());
        return page.put(m, "stages", byTime, s -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("stage", s.stageId() + "." + s.attemptId());
            r.put("name", cut(s.name()));
            r.put("status", s.status());
            r.put("durationMs", s.durationMs());
            r.put("tasks", s.numTasks());
            r.put("failedTasks", s.numFailedTasks());
            r.put("inputBytes", s.inputBytes());
            r.put("shuffleReadBytes", s.shuffleReadBytes());
            r.put("shuffleWriteBytes", s.shuffleWriteBytes());
            r.put("spillBytes", s.memoryBytesSpilled() + s.diskBytesSpilled());
            r.put("hasFindings", named.contains(String.valueOf(s.stageId()))
                    || named.contains(s.stageId() + "." + s.attemptId()));
            return r;
        });
    }

    private static Set<String> stagesNamed(List<Finding> findings) {
        Set<String> out = new HashSet<>();
        findings.forEach(f -> out.addAll(f.stageIds()));
        return out;
    }

    /** One stage attempt: its figures and task summary (quartiles) as the JSON API answers, and the findings on it. */
    public static Map<String, Object> stage(AppDetail d, StageRow s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", d.header().appId());
        m.put("stage", StageJson.of(s, new double[]{0, 0.25, 0.5, 0.75, 1}));
        String id = String.valueOf(s.stageId());
        String idAttempt = s.stageId() + "." + s.attemptId();
        m.put("findings", d.findings().stream().filter(f -> f.stageIds().contains(id)
                || f.stageIds().contains(idAttempt)).map(FindingJson::of).toList());
        return m;
    }

    /** The SQL executions, the longest first, a line each with the findings about it. */
    public static Map<String, Object> sqlExecutions(SqlQuery.Executions e, List<Finding> findings, Page page,
                                                    long now) {
        List<SqlExecutionSummary> byTime = new ArrayList<>(e.executions());
        byTime.sort(Comparator.comparingLong((SqlExecutionSummary s) -> duration(s, now)).reversed());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("order", "longest first");
        return page.put(m, "executions", byTime, s -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("executionId", s.executionId());
            r.put("description", cut(s.description()));
            r.put("durationMs", duration(s, now));
            r.put("stages", s.stageIds().size());
            r.put("findings", SqlFindings.of(s, findings).stream().map(Finding::heuristic).distinct().toList());
            return r;
        });
    }

    /**
     * One SQL execution: its status and duration, the findings about it, then its plan's operators (those with a
     * finding first, then by node id, highest first: the plan's top) with Spark's metric texts and the findings on
     * each, and the edges between the operators shown.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> sqlExecution(SqlQuery.Executions e, List<Finding> findings, Page page,
                                                   long now) {
        SqlExecutionSummary sql = e.executions().get(0);
        Map<String, Object> rest = SqlJson.execution(sql, e.jobsById(), true, false, now);
        Map<Long, List<Finding>> onNode = SqlFindings.byNode(sql.executionId(), findings);
        List<Finding> about = SqlFindings.of(sql, findings);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executionId", sql.executionId());
        m.put("status", rest.get("status"));
        putIf(m, "description", cut(sql.description()));
        m.put("durationMs", rest.get("duration"));
        m.put("failedJobIds", rest.get("failedJobIds"));
        m.put("findings", about.stream().map(f -> headline(f, 0)).toList());
        List<Map<String, Object>> nodes = new ArrayList<>((List<Map<String, Object>>) rest.get("nodes"));
        // stable: the operators with findings move to the front, the rest keep Spark's order
        nodes.sort(Comparator.comparing(n -> !onNode.containsKey(((Number) n.get("nodeId")).longValue())));
        List<Map<String, Object>> shown = new ArrayList<>();
        Set<Long> shownIds = new HashSet<>();
        for (Map<String, Object> n : page.of(nodes)) {
            long id = ((Number) n.get("nodeId")).longValue();
            Map<String, Object> c = new LinkedHashMap<>(n);
            c.put("nodeName", cut((String) n.get("nodeName")));
            List<Finding> on = onNode.get(id);
            if (on != null) {
                c.put("findings", on.stream().map(Finding::id).toList());
            }
            shown.add(c);
            shownIds.add(id);
        }
        page.put(m, "operators", nodes.size(), shown);
        List<String> edges = new ArrayList<>();
        for (Map<String, Object> edge : (List<Map<String, Object>>) rest.get("edges")) {
            long from = ((Number) edge.get("fromId")).longValue();
            long to = ((Number) edge.get("toId")).longValue();
            if (shownIds.contains(from) && shownIds.contains(to)) {
                edges.add(from + "->" + to);
            }
        }
        m.put("edges", edges);
        return m;
    }

    private static long duration(SqlExecutionSummary s, long now) {
        return (s.endTime() >= 0 ? s.endTime() : now) - s.startTime();
    }

    /**
     * Runs side by side: their rows, the metrics, then one page of the differing settings and of the stages, and the
     * findings each run had.
     */
    public static Map<String, Object> compare(Comparison c, Page page) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apps", c.apps().stream().map(AgentJson::header).toList());
        m.put("changeThreshold", Comparison.THRESHOLD);
        m.put("metrics", c.metrics());
        m.put("findings", c.findings());
        List<Comparison.ConfigRow> differing = c.config().stream().filter(Comparison.ConfigRow::differs).toList();
        m.put("configTotal", differing.size() + c.configNotShown());
        m.put("config", page.of(differing));
        m.put("runSpecificKeysLeftOut", c.runSpecificKeys().size());
        m.put("stagesTotal", c.stages().size() + c.stagesNotShown());
        m.put("stages", page.of(c.stages()));
        m.put("showing", "config and stages: " + page.showing(Math.max(differing.size(), c.stages().size()),
                Math.max(page.of(differing).size(), page.of(c.stages()).size())));
        m.put("nextCursor", page.next(Math.max(differing.size(), c.stages().size())));
        return m;
    }

    /**
     * A job's runs, the newest first, each with its "slow" mark and what its Regression finding says changed; the
     * trend (newest complete run against the median of those before it) and the advice ledger's newest entries.
     */
    public static Map<String, Object> history(RunHistory h, RecurringJob job, Page page, Prices prices) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jobKey", h.job().key());
        m.put("name", h.name());
        if (job != null) {
            m.put("trend", job.trend().name());
            m.put("trendText", job.trendText());
        }
        m.put("slowFactor", RunHistory.SLOW_FACTOR);
        List<RunHistory.Point> newest = new ArrayList<>(h.runs());
        java.util.Collections.reverse(newest);
        page.put(m, "runs", newest, p -> {
            Map<String, Object> r = new LinkedHashMap<>();
            var run = p.run();
            r.put("appId", run.appId());
            putIf(r, "attemptId", run.attemptId());
            r.put("start", time(run.startTime()));
            r.put("durationMs", run.durationMs());
            r.put("complete", run.complete());
            r.put("inputBytes", run.inputBytes());
            r.put("worstSeverity", run.worstSeverity());
            r.put("numFindings", run.numFindings());
            r.put("previousMedianMs", p.previousMedianMs());
            r.put("slow", p.slow());
            if (p.inputGrew()) {
                r.put("note", RegressionNote.inputGrew(p));
            }
            if (p.regression() != null) {
                r.put("regression", RegressionNote.lines(p.regression()));
            }
            var cost = ApiJson.CostJson.of(run.efficiency(), prices);
            if (cost != null) {
                r.put("cost", cost.allocated());
            }
            return r;
        });
        m.put("adviceTotal", h.advice().size());
        m.put("advice", h.advice().stream().skip(Math.max(0, h.advice().size() - 5))
                .map(io.sparkscope.core.analysis.prediction.AdviceLedger.Entry::toMap).toList());
        return m;
    }

    /**
     * Why one run was slower: its Regression finding whole, in short lines and with its details (settings changed,
     * operators added or removed, stages grown, input per byte), or why there is none.
     *
     * @param previous the job's run before this one, to compare with when there is no Regression finding; or null
     */
    public static Map<String, Object> regression(AppDetail d, RunHistory.Point point, String previous) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("app", header(d.header()));
        Finding f = d.findings().stream().filter(x -> x.heuristic().equals(io.sparkscope.core.analysis.prediction.RegressionCheck.HEURISTIC)).findFirst().orElse(null);
        if (f != null) {
            m.put("explanation", RegressionNote.lines(f));
            m.put("finding", FindingJson.of(f));
        } else {
            StringBuilder s = new StringBuilder("No Regression finding: ");
            if (d.header().jobKey() == null) {
                s.append("this run belongs to no job (an interactive session), so it has no runs to compare with.");
            } else if (point == null || point.previousMedianMs() < 0) {
                s.append("its job has too few earlier runs to judge (at least ").append(RunHistory.MIN_PREVIOUS)
                        .append(").");
            } else if (point.inputGrew()) {
                s.append(RegressionNote.inputGrew(point)).append('.');
            } else {
                s.append("it took ").append(minutes(d.header().durationMs())).append(", ")
                        .append(String.format(java.util.Locale.ROOT, "%.1f×", (double) d.header().durationMs()
                                / Math.max(1, point.previousMedianMs()))).append(" the median (")
                        .append(minutes(point.previousMedianMs())).append(") of the runs before it")
                        .append(point.slow() ? ": slow by the history's measure (at least "
                                + RunHistory.SLOW_FACTOR + "×); compare it with the previous run." : ".");
            }
            m.put("explanation", List.of(s.toString()));
        }
        if (previous != null) {
            m.put("previousRun", previous);
            m.put("hint", "compare_runs with apps [" + previous + ", " + d.header().pathKey()
                    + "] shows every metric, setting and stage side by side");
        }
        return m;
    }

    public static Object prediction(RunPrediction p) {
        return ApiJson.PredictionJson.of(p);
    }

    /** The what-if as its API route answers it, without the task data's internals. */
    public static Object whatIf(AppWhatIf w) {
        return ApiJson.whatIf(w);
    }

    /** The settings for the job's next run, as its API route answers, without the properties file repeating them. */
    public static Object tune(JobTuning t) {
        ApiJson.TuneJson j = ApiJson.TuneJson.of(t);
        return new ApiJson.TuneJson(j.job(), j.run(), j.platform(), j.settings(), j.left(), j.whatIf(), j.conf(),
                null);
    }

    /** The jobs with several runs, the most recently run first. */
    public static Map<String, Object> jobs(List<RecurringJob> jobs, Page page) {
        return page.put(new LinkedHashMap<>(), "jobs", jobs, j -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("jobKey", j.job().key());
            r.put("name", cut(j.name()));
            r.put("user", j.user());
            r.put("runs", j.runs());
            r.put("lastStart", time(j.lastStart()));
            r.put("lastDurationMs", j.lastDurationMs());
            r.put("trend", j.trend().name());
            return r;
        });
    }

    public static String write(Object value) {
        return ApiJson.write(value);
    }

    private static String time(long epochMs) {
        return epochMs <= 0 ? null : Instant.ofEpochMilli(epochMs).toString();
    }

    private static String minutes(long ms) {
        return io.sparkscope.server.web.text.Fmt.duration(ms);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    static String cut(String s) {
        if (s == null || s.length() <= MAX_TEXT) {
            return s;
        }
        return s.substring(0, MAX_TEXT) + "… (" + s.length() + " characters)";
    }

    private static void putIf(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
