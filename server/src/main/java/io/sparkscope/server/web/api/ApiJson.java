package io.sparkscope.server.web.api;

import io.sparkscope.core.model.json.StableMapOrder;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.prediction.KeyStage;
import io.sparkscope.core.analysis.prediction.Prediction;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.core.analysis.prediction.StageKey;
import io.sparkscope.core.analysis.prediction.StageMean;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.analysis.efficiency.TunedWhatIf;
import io.sparkscope.core.heuristics.RecommendedSettings;
import io.sparkscope.core.report.EfficiencyJson;
import io.sparkscope.core.report.WhatIfJson;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.StoredCost;
import io.sparkscope.server.web.model.JobTuning;
import io.sparkscope.server.web.model.TuneFile;
import io.sparkscope.store.query.HistoryQuery;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON API's shapes, as records Jackson writes in declaration order: names as in {@code analyze --json} and
 * Spark's REST API. The application row's columns are written as the store reads them (its database key left out),
 * so a new column shows up in the API without a line here. Hand-built maps remain only where a shape copies another
 * hand-built one: Spark's TaskMetricDistributions ({@link StageJson}) and {@code analyze --what-if --json}.
 */
public final class ApiJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new StableMapOrder());

    private ApiJson() {
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }

    /** A value as the tree Jackson would write, for the exports that reshape it (one row per element). */
    static com.fasterxml.jackson.databind.JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** The history as its API route answers it, for the history page's chart. */
    public static String historyJson(RunHistory h, Prices prices) {
        return write(HistoryJson.of(h, prices));
    }

    /**
     * An application's cost at the operator's prices, under the names of {@code analyze --json}'s
     * {@code efficiency.cost}: {@code core-hours × perCoreHour + GB-hours × perGbHour}. Null without prices or figures.
     */
    record CostJson(String currency, double perCoreHour, double perGbHour, String formula, double allocated,
                    double coreAllocated, double memoryAllocated, double used, double wasted, double coreWasted,
                    double memoryWasted, double wastedShare, double driverAlone, boolean memoryWasteMeasured) {
        static CostJson of(AppEfficiency e, Prices p) {
            Cost c = StoredCost.of(e, p);
            if (c == null) {
                return null;
            }
            return new CostJson(p.currency(), p.perCoreHour(), p.perGbHour(),
                    "core-hours × perCoreHour + GB-hours × perGbHour", round(c.allocated()),
                    round(c.coreAllocated()), round(c.memoryAllocated()), round(c.used()), round(c.wasted()),
                    round(c.coreWasted()), round(c.memoryWasted()), round(c.wastedShare()), round(c.driverAlone()),
                    c.memoryMeasured());
        }

        /** Six decimals, as {@code analyze --json}: cents of large bills without float noise. */
        private static double round(double v) {
            return Math.round(v * 1e6) / 1e6;
        }
    }

    /** The what-if as its API route answers it, for the what-if page's chart. */
    public static String whatIfJson(AppWhatIf w) {
        return write(whatIf(w));
    }

    /** @param parameter the query parameter at fault, left out when none is */
    record ErrorJson(int status, String error, @JsonInclude(JsonInclude.Include.NON_NULL) String parameter) {
    }

    record Health(String status) {
    }

    /** {@code /api/v1/apps}: one page of matches and how many there are in all. */
    record AppsPage(long total, int limit, int offset, List<Listed> apps) {
        static AppsPage of(int limit, int offset, AppSearchQuery.Result r, Prices prices) {
            return new AppsPage(r.total(), limit, offset, r.rows().stream()
                    .map(a -> new Listed(a, FindingJson.Headline.all(a.findings()),
                            CostJson.of(a.efficiency(), prices))).toList());
        }
    }

    /**
     * One match: the search row (its efficiency figures null when not computed), its findings' headlines and its
     * cost at the operator's prices (null without prices or figures).
     */
    record Listed(@JsonUnwrapped @JsonIgnoreProperties({"pk", "numFindings", "findings"}) AppListRow app,
                  List<FindingJson.Headline> findings, CostJson cost) {
    }

    /**
     * {@code /api/v1/apps/{id}}: the application row, its configuration by scope, the "fix this first" list (at most
     * three root causes with their saving and one sentence each) and its findings, root causes by estimated saving
     * each followed by its knock-ons.
     */
    /**
     * @param scheduler the scheduler's job and run that started the application (docs/lineage.md); absent when none
     */
    record Detail(@JsonUnwrapped @JsonIgnoreProperties("pk") AppHeader header, CostJson cost,
                  Map<String, Map<String, String>> config, int numStageAttempts, List<FindingJson.Fix> fixFirst,
                  List<FindingJson> findings, @JsonInclude(JsonInclude.Include.NON_NULL) SchedulerJson scheduler) {
        static Detail of(AppDetail d, Prices prices) {
            return of(d, prices, Map.of());
        }

        static Detail of(AppDetail d, Prices prices, Map<String, String> triedWithoutHelp) {
            Diagnosis diagnosis = Diagnosis.of(d.findings(), d.header().durationMs(), triedWithoutHelp);
            return new Detail(d.header(), CostJson.of(d.header().efficiency(), prices), d.config(), d.stages().size(),
                    FindingJson.Fix.all(diagnosis.fixFirst()), FindingJson.all(diagnosis),
                    SchedulerJson.of(Lineage.of(d.config().getOrDefault("spark", Map.of()))));
        }
    }

    /** {@link Lineage} without its reading warnings; null parts are left out. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record SchedulerJson(String dagId, String taskId, String namespace, String job, String runId,
                         String rootNamespace, String rootJob, String rootRunId) {
        static SchedulerJson of(Lineage l) {
            return !l.present() && l.runId() == null ? null : new SchedulerJson(l.dagId(), l.taskId(), l.namespace(),
                    l.job(), l.runId(), l.rootNamespace(), l.rootJob(), l.rootRunId());
        }
    }

    /** {@code /api/v1/compare}: the runs' rows, then the aligned sections of {@link Comparison}. */
    /**
     * @param configNotShown  differing keys left out past {@link Comparison#MAX_CONFIG_ROWS}
     * @param runSpecificKeys differing keys left out because every run makes its own value (ids, hosts, ports)
     * @param stagesNotShown  stage positions left out past {@link Comparison#MAX_STAGE_ROWS}
     */
    record ComparisonJson(@JsonIgnoreProperties("pk") List<AppHeader> apps, double changeThreshold,
                          List<Comparison.MetricRow> metrics, List<Comparison.ConfigRow> config,
                          List<Comparison.FindingRow> findings, List<Comparison.StageMatch> stages,
                          int configNotShown, List<String> runSpecificKeys, int stagesNotShown) {
        static ComparisonJson of(Comparison c) {
            return new ComparisonJson(c.apps(), Comparison.THRESHOLD, c.metrics(), c.config(), c.findings(), c.stages(),
                    c.configNotShown(), c.runSpecificKeys(), c.stagesNotShown());
        }
    }

    /**
     * {@code /api/v1/history}: the runs of one job, oldest first, with the page's link and "slow" mark.
     *
     * @param note why there are no runs (an unknown name, or only interactive sessions of it); null otherwise
     */
    record HistoryJson(String jobKey, String name, double slowFactor, List<HistoryRun> runs,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String note, List<Map<String, Object>> advice) {
        static HistoryJson of(RunHistory h, Prices prices) {
            return new HistoryJson(h.job().key(), h.name(), RunHistory.SLOW_FACTOR,
                    h.runs().stream().map(p -> HistoryRun.of(p, prices)).toList(), null,
                    h.advice().stream().map(io.sparkscope.core.analysis.prediction.AdviceLedger.Entry::toMap).toList());
        }

        static HistoryJson none(io.sparkscope.server.web.model.WebData.JobLookup l) {
            return new HistoryJson(null, l.name(), RunHistory.SLOW_FACTOR, List.of(), l.noJobSentence(), List.of());
        }
    }

    /**
     * @param previousMedianMs median duration of the runs before, -1 when there were too few to judge
     * @param efficiency       the run's efficiency figures, null when not computed
     * @param cost             its cost at the operator's prices, null without prices or figures
     */
    record HistoryRun(String appId, String attemptId, String url, long startTime, long durationMs, long totalTaskTimeMs,
               long inputBytes, long spillBytes, boolean complete, String worstSeverity, int numFindings,
               long previousMedianMs, boolean slow, AppEfficiency efficiency, CostJson cost, double inputGrowth,
               @JsonInclude(JsonInclude.Include.NON_NULL) RegressionJson regression) {
        static HistoryRun of(RunHistory.Point p, Prices prices) {
            var r = p.run();
            return new HistoryRun(r.appId(), r.attemptId(), Urls.app(r.appId(), r.attemptId()), r.startTime(), r.durationMs(),
                    r.totalTaskTimeMs(), r.inputBytes(), r.memoryBytesSpilled() + r.diskBytesSpilled(), r.complete(),
                    r.worstSeverity(), r.numFindings(), p.previousMedianMs(), p.slow(), r.efficiency(),
                    CostJson.of(r.efficiency(), prices), p.inputGrowth(), RegressionJson.of(p.regression()));
        }
    }

    /**
     * A run's Regression finding in the history: its numbers and what changed (settingsChanged, operatorsAdded,
     * operatorsRemoved, stagesGrown, dataReadWritten, the per-byte ratios) as the finding's details hold them.
     */
    record RegressionJson(String severity, String message, Map<String, Object> details) {
        static RegressionJson of(io.sparkscope.core.heuristics.Finding f) {
            return f == null ? null : new RegressionJson(f.severity().name(), f.message(), f.details());
        }
    }

    /**
     * {@code /api/v1/jobs}: a job with several stored runs.
     *
     * @param configured true when the application set the key with spark.sparkscope.jobKey
     * @param trendRatio the newest complete run's wall time ÷ the median of the complete runs before it (0: unknown)
     * @param trend      SLOWER, STEADY, FASTER or UNKNOWN
     */
    record JobJson(String jobKey, boolean configured, String name, String sparkUser, String program, String master,
                   long runs, long firstStart, long lastStart, long lastDurationMs, double trendRatio, String trend,
                   String url) {
        static JobJson of(io.sparkscope.server.web.model.RecurringJob j) {
            return new JobJson(j.job().key(), j.job().configured(), j.name(), j.user(), j.job().program(),
                    j.job().master(), j.runs(), j.firstStart(), j.lastStart(), j.lastDurationMs(), j.trendRatio(),
                    j.trend().name(), Urls.historyOfJob(j.job().key()));
        }
    }

    /** A warning or caveat: its code for programs and its sentence for people. */
    record Note(String code, String message) {
    }

    /**
     * {@code /api/v1/tune}: the job's newest stored run, the settings for its next run (each with the value in force,
     * the findings behind it and the saving), the advice left out and why, the time and cost today and predicted, and
     * the properties file and {@code --conf} options as {@code sparkscope tune} writes them.
     */
    record TuneJson(String job, TuneRun run, String platform, List<RecommendedSettings.Setting> settings,
                    List<RecommendedSettings.Left> left, TuneWhatIf whatIf, List<String> conf, String properties) {
        static TuneJson of(JobTuning t) {
            HistoryQuery.Run r = t.run();
            return new TuneJson(t.jobKey(), new TuneRun(r.appId(), r.attemptId(), r.name(), r.startTime(),
                    r.durationMs(), Urls.app(r.appId(), r.attemptId())), t.settings().platform().describe(),
                    t.settings().settings(), t.settings().left(), TuneWhatIf.of(t.whatIf()), TuneFile.confLines(t),
                    TuneFile.properties(t));
        }
    }

    record TuneRun(String appId, String attemptId, String name, long startTime, long durationMs, String link) {
    }

    /**
     * @param tuned       null when none of the settings is one the model understands
     * @param timeChange  tuned against today's simulated time (−0.25 = 25 % faster)
     * @param costUnit    the currency, or "core-hours" without prices
     */
    record TuneWhatIf(long measuredMs, TunedWhatIf.Estimate today, TunedWhatIf.Estimate tuned, double timeChange,
                      double costChange, String costUnit, List<String> modelled, List<String> costOnly,
                      List<String> notModelled, List<Note> caveats) {
        static TuneWhatIf of(TunedWhatIf w) {
            return new TuneWhatIf(w.measuredMs(), w.today(), w.tuned(), w.timeChange(), w.costChange(),
                    w.priced() ? w.prices().currency() : "core-hours", w.modelled(), w.costOnly(), w.notModelled(),
                    w.simulated().caveats().stream().map(c -> new Note(c.name(),
                            AppWhatIf.describe(c, w.simulated()))).toList());
        }
    }

    /**
     * {@code /api/v1/predict}: key stages with their line (ms = interceptMs + slopeMsPerByte × bytes) and R², and the
     * runs left out of the fit as outliers (each with what the other runs predict for it).
     */
    record PredictionJson(String name, long inputBytes, long predictedMs, boolean reliable, int trainingRuns,
                          int skippedRuns, long minInputBytes, long maxInputBytes, double overheadMs,
                          double meanStageMs, double meanChangeMs, List<KeyStageJson> keyStages,
                          List<OtherStage> otherStages, List<Note> warnings, List<Prediction.LeftOut> leftOut) {
        static PredictionJson of(RunPrediction rp) {
            Prediction p = rp.prediction();
            return new PredictionJson(p.appName(), p.inputBytes(), p.predictedMs(), p.reliable(), p.trainingRuns(),
                    rp.skippedRuns(), p.minInputBytes(), p.maxInputBytes(), p.overheadMs(), p.meanStageMs(),
                    p.meanChangeMs(), p.keyStages().stream().map(KeyStageJson::of).toList(),
                    p.otherStages().stream().map(OtherStage::of).toList(),
                    p.warnings().stream().map(w -> new Note(w.name(), RunPrediction.describe(w, p))).toList(),
                    p.leftOut());
        }
    }

    record KeyStageJson(@JsonUnwrapped StageKey key, double meanMs, double changeMs, Fit fit, double predictedMs) {
        static KeyStageJson of(KeyStage k) {
            return new KeyStageJson(k.key(), k.meanMs(), k.changeMs(),
                    new Fit(k.fit().intercept(), k.fit().slope(), k.fit().r2(), k.fit().n()), k.predictedMs());
        }
    }

    /** @param points runs the line was fitted to */
    record Fit(double interceptMs, double slopeMsPerByte, double r2, int points) {
    }

    /** A stage that does not grow with the input: its mean over the runs that had it. */
    record OtherStage(@JsonUnwrapped StageKey key, double meanMs, int runs) {
        static OtherStage of(StageMean s) {
            return new OtherStage(s.key(), s.meanMs(), s.runs());
        }
    }

    /**
     * {@code /api/v1/apps/{id}/what-if}: the application, the task data behind the simulation, then the fields of
     * {@code analyze --what-if --json} (a hand-built map, extended here in place) and each caveat with its sentence.
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
        m.put("cost", EfficiencyJson.whatIf(w.cost()));
        m.put("caveats", r.caveats().stream().map(c -> new Note(c.name(), AppWhatIf.describe(c, r))).toList());
        return m;
    }
}
