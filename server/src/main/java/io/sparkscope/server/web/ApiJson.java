package io.sparkscope.server.web;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.analysis.prediction.KeyStage;
import io.sparkscope.core.analysis.prediction.Prediction;
import io.sparkscope.core.analysis.prediction.StageKey;
import io.sparkscope.core.analysis.prediction.StageMean;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.report.WhatIfJson;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.report.SnapshotJson;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.StageRow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The JSON API's shapes: plain maps in a stable field order, names as in {@code analyze --json} and Spark's REST. */
final class ApiJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private ApiJson() {
    }

    static Map<String, Object> error(int status, String message, String parameter) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        m.put("error", message);
        if (parameter != null) {
            m.put("parameter", parameter);
        }
        return m;
    }

    static Map<String, Object> listRow(AppListRow a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", a.appId());
        m.put("attemptId", a.attemptId());
        m.put("name", a.name());
        m.put("sparkUser", a.sparkUser());
        m.put("startTime", a.startTime());
        m.put("endTime", a.endTime());
        m.put("durationMs", a.durationMs());
        m.put("status", a.status().name());
        m.put("numJobs", a.numJobs());
        m.put("numStages", a.numStages());
        m.put("numTasks", a.numTasks());
        m.put("numFailedTasks", a.numFailedTasks());
        m.put("worstSeverity", a.worstSeverity());
        m.put("findings", a.findings().stream().map(f -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("heuristic", f.heuristic());
            x.put("severity", f.severity().name());
            x.put("title", f.title());
            x.put("message", f.message());
            return x;
        }).toList());
        return m;
    }

    static Map<String, Object> header(AppHeader a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", a.appId());
        m.put("attemptId", a.attemptId());
        m.put("name", a.name());
        m.put("sparkUser", a.sparkUser());
        m.put("sparkVersion", a.sparkVersion());
        m.put("startTime", a.startTime());
        m.put("endTime", a.endTime());
        m.put("lastEventTime", a.lastEventTime());
        m.put("durationMs", a.durationMs());
        m.put("complete", a.complete());
        m.put("status", a.status().name());
        m.put("numJobs", a.numJobs());
        m.put("numFailedJobs", a.numFailedJobs());
        m.put("numStages", a.numStages());
        m.put("numFailedStages", a.numFailedStages());
        m.put("numTasks", a.numTasks());
        m.put("numFailedTasks", a.numFailedTasks());
        m.put("numExecutors", a.numExecutors());
        m.put("totalTaskTimeMs", a.totalTaskTimeMs());
        m.put("totalRunTimeMs", a.totalRunTimeMs());
        m.put("totalCpuTimeNs", a.totalCpuTimeNs());
        m.put("totalGcTimeMs", a.totalGcTimeMs());
        m.put("memoryBytesSpilled", a.memoryBytesSpilled());
        m.put("diskBytesSpilled", a.diskBytesSpilled());
        m.put("shuffleReadBytes", a.shuffleReadBytes());
        m.put("shuffleWriteBytes", a.shuffleWriteBytes());
        m.put("inputBytes", a.inputBytes());
        m.put("outputBytes", a.outputBytes());
        m.put("driverGcTimeMs", a.driverGcTimeMs());
        m.put("numFindings", a.numFindings());
        m.put("worstSeverity", a.worstSeverity());
        return m;
    }

    static Map<String, Object> detail(AppDetail d) {
        Map<String, Object> m = header(d.header());
        m.put("config", d.config());
        m.put("numStageAttempts", d.stages().size());
        m.put("findings", findings(d.findings()));
        return m;
    }

    static List<Object> findings(List<Finding> findings) {
        List<Object> out = new ArrayList<>();
        for (Finding f : findings) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", f.id());
            m.put("heuristic", f.heuristic());
            m.put("severity", f.severity().name());
            m.put("title", f.title());
            m.put("message", f.message());
            m.put("recommendation", f.recommendation());
            m.put("stageIds", f.stageIds());
            m.put("executorIds", f.executorIds());
            m.put("configKeys", f.configKeys());
            m.put("details", f.details());
            out.add(m);
        }
        return out;
    }

    /**
     * A stage attempt with Spark's StageData totals and, as {@code taskSummary}, Spark's REST TaskMetricDistributions
     * at the requested quantiles (the same builder as {@code analyze --json}).
     */
    static Map<String, Object> stage(StageRow s, double[] quantiles) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stageId", s.stageId());
        m.put("attemptId", s.attemptId());
        m.put("name", s.name());
        m.put("status", s.status());
        m.put("numTasks", s.numTasks());
        m.put("numCompleteTasks", s.numCompleteTasks());
        m.put("numFailedTasks", s.numFailedTasks());
        m.put("numKilledTasks", s.numKilledTasks());
        m.put("submissionTime", s.submissionTime());
        m.put("completionTime", s.completionTime());
        m.put("durationMs", s.durationMs());
        m.put("failureReason", s.failureReason());
        m.put("jobIds", s.jobIds());
        m.put("totals", jsonObject(s.totalsJson()));
        m.put("taskSummaryCount", s.summaryTaskCount());
        m.put("taskSummary", distributions(s, quantiles));
        return m;
    }

    /** A stored JSON object (the stage's totals) as an ordered map, to be written out again as part of a reply. */
    private static Map<String, Object> jsonObject(String json) {
        if (json == null || json.isEmpty()) {
            return Map.of();
        }
        try {
            return MAPPER.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (Exception e) {
            return Map.of("details", json);
        }
    }

    private static Map<String, Object> distributions(StageRow s, double[] wanted) {
        if (s.quantiles().length == 0) {
            return null;
        }
        double[][] values = new double[DistributionMetric.count()][];
        for (DistributionMetric dm : DistributionMetric.values()) {
            double[] v = s.statistics().get(dm.path);
            values[dm.ordinal()] = v != null && v.length == s.quantiles().length ? v : new double[s.quantiles().length];
        }
        TaskDistributions d = new TaskDistributions(s.summaryTaskCount(), s.quantiles(), values);
        return SnapshotJson.distributions(d.restrictTo(wanted));
    }

    /** Whether every wanted quantile was stored for this stage. */
    static String missingQuantile(StageRow s, double[] wanted) {
        if (s.quantiles().length == 0) {
            return null;
        }
        outer:
        for (double q : wanted) {
            for (double have : s.quantiles()) {
                if (Math.abs(have - q) < 1e-9) {
                    continue outer;
                }
            }
            return String.format(Locale.ROOT, "%s (stored: %s)", q, java.util.Arrays.toString(s.quantiles()));
        }
        return null;
    }

    static Map<String, Object> comparison(Comparison c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apps", c.apps().stream().map(ApiJson::header).toList());
        m.put("changeThreshold", Comparison.THRESHOLD);
        m.put("metrics", c.metrics());
        m.put("config", c.config().stream().map(r -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("key", r.key());
            x.put("values", r.values());
            x.put("differs", r.differs());
            x.put("keySetting", r.isKey());
            return x;
        }).toList());
        m.put("findings", c.findings());
        m.put("stages", c.stages());
        return m;
    }

    static Map<String, Object> history(RunHistory h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", h.name());
        m.put("slowFactor", RunHistory.SLOW_FACTOR);
        List<Object> runs = new ArrayList<>();
        for (RunHistory.Point p : h.runs()) {
            var r = p.run();
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("appId", r.appId());
            x.put("attemptId", r.attemptId());
            x.put("url", Urls.app(r.appId(), r.attemptId()));
            x.put("startTime", r.startTime());
            x.put("durationMs", r.durationMs());
            x.put("totalTaskTimeMs", r.totalTaskTimeMs());
            x.put("spillBytes", r.memoryBytesSpilled() + r.diskBytesSpilled());
            x.put("complete", r.complete());
            x.put("worstSeverity", r.worstSeverity());
            x.put("numFindings", r.numFindings());
            x.put("previousMedianMs", p.previousMedianMs());
            x.put("slow", p.slow());
            runs.add(x);
        }
        m.put("runs", runs);
        return m;
    }

    /** A run-time prediction: key stages with their line (ms = interceptMs + slopeMsPerByte × bytes) and R². */
    static Map<String, Object> prediction(RunPrediction rp) {
        Prediction p = rp.prediction();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", p.appName());
        m.put("inputBytes", p.inputBytes());
        m.put("predictedMs", p.predictedMs());
        m.put("reliable", p.reliable());
        m.put("trainingRuns", p.trainingRuns());
        m.put("skippedRuns", rp.skippedRuns());
        m.put("minInputBytes", p.minInputBytes());
        m.put("maxInputBytes", p.maxInputBytes());
        m.put("overheadMs", p.overheadMs());
        m.put("meanStageMs", p.meanStageMs());
        m.put("meanChangeMs", p.meanChangeMs());
        List<Object> keys = new ArrayList<>();
        for (KeyStage k : p.keyStages()) {
            Map<String, Object> x = stageKey(k.key());
            x.put("meanMs", k.meanMs());
            x.put("changeMs", k.changeMs());
            Map<String, Object> fit = new LinkedHashMap<>();
            fit.put("interceptMs", k.fit().intercept());
            fit.put("slopeMsPerByte", k.fit().slope());
            fit.put("r2", k.fit().r2());
            fit.put("points", k.fit().n());
            x.put("fit", fit);
            x.put("predictedMs", k.predictedMs());
            keys.add(x);
        }
        m.put("keyStages", keys);
        List<Object> others = new ArrayList<>();
        for (StageMean s : p.otherStages()) {
            Map<String, Object> x = stageKey(s.key());
            x.put("meanMs", s.meanMs());
            x.put("runs", s.runs());
            others.add(x);
        }
        m.put("otherStages", others);
        m.put("warnings", p.warnings().stream().map(w -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("code", w.name());
            x.put("message", RunPrediction.describe(w, p));
            return x;
        }).toList());
        return m;
    }

    /**
     * {@code /api/v1/apps/{id}/what-if}: the field names of {@code analyze --what-if --json}, plus the application,
     * the task data behind it and each caveat with its sentence (as {@code predict}'s warnings).
     */
    static Map<String, Object> whatIf(AppWhatIf w) {
        WhatIfResult r = w.result();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", w.header().appId());
        m.put("attemptId", w.header().attemptId());
        m.put("name", w.header().name());
        m.put("status", w.header().status().name());
        m.put("unit", w.unit());
        m.put("keptTasks", w.keptTasks());
        m.put("incompleteTaskData", w.incompleteTaskData());
        m.putAll(WhatIfJson.of(r));
        m.put("caveats", r.caveats().stream().map(c -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("code", c.name());
            x.put("message", WhatIfView.describe(c, r));
            return x;
        }).toList());
        return m;
    }

    private static Map<String, Object> stageKey(StageKey k) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("jobPosition", k.jobPosition());
        x.put("name", k.name());
        x.put("occurrence", k.occurrence());
        return x;
    }

    /**
     * A stage's task timeline: the same lanes, bars, phases and flags as the page. Times are epoch ms, phases ms;
     * {@code lane} indexes {@code lanes}; {@code phases} follow the placement rule (executor-side right before
     * getting result, scheduler delay first), each with its start.
     */
    static Map<String, Object> timeline(StageTimelines.Loaded l) {
        var d = l.data();
        var t = l.timeline();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("appId", d.appId());
        m.put("attemptId", d.attemptId());
        m.put("stageId", d.stageId());
        m.put("stageAttemptId", d.stageAttemptId());
        m.put("name", d.stageName());
        m.put("status", d.status());
        m.put("startTime", t.startTime());
        m.put("endTime", t.endTime());
        m.put("endedTasks", t.endedTasks());
        m.put("shownTasks", t.bars().size());
        m.put("sampled", t.sampled());
        m.put("taskDetail", t.taskDetail().name());
        m.put("sampledNote", t.sampled() ? TimelineView.sampledSentence(t) : null);
        m.put("overflow", t.overflow());
        m.put("overflowNote", t.overflow() ? TimelineView.artifactSentence(t) : null);
        List<Object> phases = new ArrayList<>();
        for (var p : io.sparkscope.core.analysis.timeline.TaskPhase.values()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", p.key);
            x.put("label", p.label);
            x.put("side", p.driverSide ? "driver" : "executor");
            phases.add(x);
        }
        m.put("phaseNames", phases);
        m.put("executors", t.executors().stream().map(e -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("executorId", e.executorId());
            x.put("host", e.host());
            x.put("slots", e.slots());
            x.put("firstLane", e.firstLane());
            x.put("lanes", e.lanes());
            x.put("tasks", e.tasks());
            x.put("maxConcurrent", e.maxConcurrent());
            x.put("executorSideMaxConcurrent", e.executorSideMaxConcurrent());
            x.put("overflow", e.overflow());
            return x;
        }).toList());
        m.put("lanes", t.lanes().stream().map(lane -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("executorId", lane.executorId());
            x.put("slot", lane.slot());
            x.put("overflow", lane.overflow());
            return x;
        }).toList());
        List<Object> bars = new ArrayList<>(t.bars().size());
        for (var b : t.bars()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("taskId", b.taskId());
            x.put("index", b.index());
            x.put("attempt", b.attempt());
            x.put("executorId", b.executorId());
            x.put("lane", b.lane());
            x.put("status", b.status());
            x.put("speculative", b.speculative());
            x.put("launchTime", b.launchTime());
            x.put("finishTime", b.finishTime());
            x.put("durationMs", b.durationMs());
            x.put("metricsKnown", b.metricsKnown());
            if (b.metricsKnown()) {
                Map<String, Object> ph = new LinkedHashMap<>();
                for (var p : io.sparkscope.core.analysis.timeline.TaskPhase.values()) {
                    Map<String, Object> one = new LinkedHashMap<>();
                    one.put("ms", b.phaseMs(p));
                    one.put("start", b.phaseStart(p));
                    ph.put(p.key, one);
                }
                x.put("phases", ph);
            }
            bars.add(x);
        }
        m.put("bars", bars);
        return m;
    }

    static String write(Object o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (Exception e) {
            throw new IllegalStateException("cannot serialize", e);
        }
    }
}
