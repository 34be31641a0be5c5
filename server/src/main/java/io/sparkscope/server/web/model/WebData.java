package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.prediction.AdviceLedger;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.HistoryQuery;
import io.sparkscope.store.query.SchedulerQuery;
import io.sparkscope.store.query.StreamingQueries;
import io.sparkscope.store.query.TimelineQuery;
import io.sparkscope.store.query.WasteQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Everything the pages and the API read from the database, one method per thing shown: each calls one query of
 * {@code io.sparkscope.store.query} (or reads a snapshot back) and answers a 404 {@link WebException} for an
 * application, stage or name that is not stored, so handlers only parse parameters, call here and present.
 */
public final class WebData {
    /** Runs of one job a history reads at most, newest first (the API's and the agent's history, the page's "more"). */
    public static final int HISTORY_LIMIT = 500;
    /**
     * Runs of one job its history page shows unless asked for more: a recurring job has a run an hour or more, and
     * 500 runs made an 800 KB page that took 100 ms of the server's CPU to build; a hundred runs is four days of an
     * hourly job, more than its chart can show apart.
     */
    public static final int HISTORY_PAGE_RUNS = 100;
    /**
     * Runs of its job an application page reads to see which advice was tried without helping: the newest ones. The
     * page is opened far more often than the history, and a job with thousands of stored runs made it read 500 runs'
     * findings and settings (0.4–1.4 s in a database of a million applications); the advice that matters to a run is
     * what its job's recent runs tried.
     */
    private static final int TRIED_RUNS = 50;
    /** Jobs the history page lists to pick from. */
    private static final int JOBS_LIMIT = 500;

    private final DataSource dataSource;
    private final LongSupplier clock;
    private final AppSearchQuery search;
    private final AppDetailQuery details;
    private final DashboardQuery dashboard;
    private final HistoryQuery history;
    private final TimelineQuery timelines;
    private final SnapshotReader snapshots;
    private final StreamingQueries streaming;
    private final WasteQuery waste;
    /**
     * The dashboard's waste of the week by what it depends on ({@link WasteKey}): one window at one set of prices is
     * asked for, so one is kept.
     */
    private final Kept<WasteKey, WasteQuery.Result> keptWaste = Kept.byValue(1, Kept.TIME);
    /** Advice ledgers of the jobs whose application pages were opened lately, by the job's recent runs. */
    private final Kept<JobRuns, List<AdviceLedger.Entry>> keptLedgers = Kept.byValue(KEPT_JOBS, Kept.TIME);
    /** The history pages opened lately, by the runs they show. */
    private final Kept<JobRuns, RunHistory> keptHistories = Kept.byValue(KEPT_JOBS, Kept.TIME);

    /** Jobs whose ledgers and histories are kept at most: 50 to 500 runs each, a few MB in all. */
    static final int KEPT_JOBS = 256;

    /**
     * What the dashboard's waste of the week depends on: the ranking's weights, the window's start (to the minute),
     * and the counts the dashboard shows beside it, which change when an application is stored, removed or judged
     * again.
     */
    private record WasteKey(double coreWeight, double gbWeight, long fromMinute, long applications,
                            DashboardQuery.Health lastWeek, long newestPk) {
    }

    /**
     * A job and its recent runs as the runs query returned them. What is read from those runs (their findings, the
     * settings they advised, what applying them did) changes only when the runs do: a new run, a run completed, or a
     * run judged again (its severity or number of findings changed) gives another key. Advice rewritten without
     * changing either shows within {@link Kept#TIME}.
     */
    private record JobRuns(String jobKey, List<HistoryQuery.Run> runs) {
    }

    /** @param clock now in epoch ms: "running" and "last day" are judged against it */
    public WebData(DataSource dataSource, LongSupplier clock) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.search = new AppSearchQuery(dataSource);
        this.details = new AppDetailQuery(dataSource);
        this.dashboard = new DashboardQuery(dataSource);
        this.history = new HistoryQuery(dataSource);
        this.timelines = new TimelineQuery(dataSource);
        this.snapshots = new SnapshotReader(dataSource);
        this.streaming = new StreamingQueries(dataSource);
        this.waste = new WasteQuery(dataSource);
    }

    public long now() {
        return clock.getAsLong();
    }

    /** Whether the database answers at all (for {@code /healthz}). */
    public boolean reachable() {
        return HistoryQuery.reachable(dataSource);
    }

    public DashboardQuery.Dashboard dashboard() throws SQLException {
        return dashboard.load(now());
    }

    /** Applications the dashboard ranks as most wasteful this week. */
    public static final int WASTEFUL_LIMIT = 5;
    private static final long WEEK_MS = 7 * 24 * 3600_000L;

    /**
     * The week's most wasteful applications and its total waste: ranked by wasted money at the operator's prices,
     * by idle core-hours without prices.
     */
    public WasteQuery.Result waste(Prices prices) throws SQLException {
        boolean priced = prices != null && prices.configured();
        return waste.since(now() - WEEK_MS, priced ? prices.perCoreHour() : 1, priced ? prices.perGbHour() : 0,
                WASTEFUL_LIMIT);
    }

    /**
     * As {@link #waste(Prices)}, for the dashboard it is shown beside: the result is kept while that dashboard's
     * counts stay the same, for at most {@link Kept#TIME}. Ranking a week's applications by their cost
     * reads every one of them (70 000 in a fleet of 10 000 a day: 50–60 ms of PostgreSQL per view), and a dashboard
     * left open on a team's screen is asked for again and again. A stored, removed or re-judged application changes
     * the dashboard's counts, so it shows at once; a rerun of the figures alone shows within the time kept.
     */
    public WasteQuery.Result waste(Prices prices, DashboardQuery.Dashboard shownBeside) throws SQLException {
        boolean priced = prices != null && prices.configured();
        double coreWeight = priced ? prices.perCoreHour() : 1;
        double gbWeight = priced ? prices.perGbHour() : 0;
        long from = now() - WEEK_MS;
        // the window moves by the minute: a result kept across a minute's turn would count one minute too many
        var key = new WasteKey(coreWeight, gbWeight, Math.floorDiv(from, 60_000L), shownBeside.applications(),
                shownBeside.lastWeek(), shownBeside.newest().map(n -> n.pk()).orElse(-1L));
        return keptWaste.get(key, () -> waste.since(from, coreWeight, gbWeight, WASTEFUL_LIMIT));
    }

    /** The matching applications with their exact count. */
    public AppSearchQuery.Result search(AppFilter filter) throws SQLException {
        return search.search(filter);
    }

    /** The matching applications, counted only up to {@code countCap} past the offset. */
    public AppSearchQuery.Result search(AppFilter filter, int countCap) throws SQLException {
        return search.search(filter, countCap);
    }

    /** One application with its configuration, stages and findings (attempt id null: its newest attempt). */
    public AppDetail app(AppDetailQuery.Ref ref) throws SQLException {
        return app(ref, AppDetailQuery.Part.ALL);
    }

    /** One application with only its stages (no configuration, findings or SQL operators are read). */
    public AppDetail appStages(AppDetailQuery.Ref ref) throws SQLException {
        return app(ref, EnumSet.of(AppDetailQuery.Part.STAGES));
    }

    /** One application with only its findings. */
    public AppDetail appFindings(AppDetailQuery.Ref ref) throws SQLException {
        return app(ref, EnumSet.of(AppDetailQuery.Part.FINDINGS));
    }

    /** One application with its stages and findings (for an agent's stage tools: which findings name a stage). */
    public AppDetail appStagesAndFindings(AppDetailQuery.Ref ref) throws SQLException {
        return app(ref, EnumSet.of(AppDetailQuery.Part.STAGES, AppDetailQuery.Part.FINDINGS));
    }

    /** One application's row alone (attempt resolved as on its page). */
    public AppHeader appHeader(AppDetailQuery.Ref ref) throws SQLException {
        return app(ref, EnumSet.noneOf(AppDetailQuery.Part.class)).header();
    }

    private AppDetail app(AppDetailQuery.Ref ref, Set<AppDetailQuery.Part> parts) throws SQLException {
        return details.load(ref, now(), parts).orElseThrow(() -> WebException.notFound("no application "
                + ref.appId() + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId()) + " in the database"));
    }

    /**
     * The executor what-if of one application: its header (the attempt resolved as on the application page) and
     * the whole snapshot read back for the simulation.
     *
     * @param order     null for longest task first
     * @param executors counts to simulate, or null for 25 %–400 % of the run's own
     */
    public AppWhatIf whatIf(AppDetailQuery.Ref ref, TaskOrder order, List<Integer> executors) throws SQLException {
        return whatIf(ref, order, executors, Prices.NONE);
    }

    /** As {@link #whatIf(AppDetailQuery.Ref, TaskOrder, List)}, each point priced at {@code prices}. */
    public AppWhatIf whatIf(AppDetailQuery.Ref ref, TaskOrder order, List<Integer> executors, Prices prices)
            throws SQLException {
        AppHeader header = appHeader(ref);
        AppSnapshot snapshot = snapshots.read(header.appId(), header.attemptId()).orElseThrow(() ->
                WebException.notFound("application " + header.pathKey() + " vanished from the database"));
        return AppWhatIf.of(header, snapshot, order == null ? TaskOrder.LONGEST_FIRST : order, executors, prices);
    }

    /** One stage attempt's tasks laid out as a timeline. */
    public StageTimelines.Loaded timeline(AppDetailQuery.Ref ref, int stageId, int stageAttemptId) throws SQLException {
        TimelineQuery.Result r = timelines.load(ref.appId(), ref.attemptId(), stageId, stageAttemptId);
        String app = ref.appId() + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId());
        return switch (r.outcome()) {
            case NO_APPLICATION -> throw WebException.notFound("no application " + app + " in the database");
            case NO_STAGE -> throw WebException.notFound("no stage " + stageId + "." + stageAttemptId
                    + " (stage id . attempt) in application " + app);
            case FOUND -> StageTimelines.Loaded.of(r.data());
        };
    }

    /** The Structured Streaming query runs of an application (empty for a batch one), without their batches. */
    public List<StreamingQuerySummary> streamingRuns(AppHeader header) throws SQLException {
        return streaming.runs(header.pk());
    }

    /** One streaming query of an application: its runs with their newest {@code maxBatches} batches each. */
    public QueryPage query(AppDetailQuery.Ref ref, String queryId, int maxBatches) throws SQLException {
        AppDetail app = appFindings(ref);
        var runs = streaming.query(app.header().pk(), queryId, maxBatches);
        if (runs.isEmpty()) {
            throw WebException.notFound("no streaming query " + queryId + " in application " + app.header().pathKey());
        }
        return new QueryPage(app.header(), queryId, runs, QueryPage.about(queryId, app.findings()), maxBatches);
    }

    /** Two or more runs side by side; a 404 names every one that is not stored. */
    public Comparison compare(List<AppDetailQuery.Ref> refs) throws SQLException {
        // compare shows the spark-scope configuration, findings and stage figures, not the stages' SQL operators
        AppDetailQuery.Loaded l = details.load(refs, now(), EnumSet.of(AppDetailQuery.Part.SPARK_CONFIG,
                AppDetailQuery.Part.STAGES, AppDetailQuery.Part.FINDINGS));
        if (!l.missing().isEmpty()) {
            throw WebException.notFound("no application " + String.join(", ",
                    l.missing().stream().map(Object::toString).toList()) + " in the database");
        }
        return Comparison.of(l.apps());
    }

    /** The runs of one job, oldest first, each marked when much slower than usual (none: an unknown key). */
    /** The scheduler's job and run of the job's newest run that has them; {@link Lineage#NONE} when none has. */
    public Lineage schedulerOfJob(String jobKey) throws SQLException {
        return new SchedulerQuery(dataSource).ofJob(jobKey);
    }

    public RunHistory history(String jobKey) throws SQLException {
        return history(jobKey, HISTORY_LIMIT);
    }

    /**
     * The newest {@code limit} runs of one job, with their findings and what the advice they were given did. Kept for
     * the same runs ({@link JobRuns}): reading and following 100 runs' findings was a third of a history page's cost,
     * and the same history is asked for by every screen that shows the job.
     */
    public RunHistory history(String jobKey, int limit) throws SQLException {
        List<HistoryQuery.Run> runs = history.runs(jobKey, limit);
        return keptHistories.get(new JobRuns(jobKey, runs), () -> {
            Map<String, List<Finding>> findings = history.findings(jobKey, limit);
            return RunHistory.of(jobKey, runs, findings, adviceLedger(jobKey, runs, findings, limit));
        });
    }

    /** The advice the job's complete runs were given, and what applying it did ({@link AdviceLedger}). */
    private List<AdviceLedger.Entry> adviceLedger(String jobKey, List<HistoryQuery.Run> runs,
                                                  Map<String, List<Finding>> findings, int limit) throws SQLException {
        Set<String> keys = new TreeSet<>();
        findings.values().forEach(l -> l.forEach(f -> f.advice().forEach(a -> keys.add(a.key()))));
        Map<String, Map<String, String>> settings = history.settings(jobKey, limit, keys);
        List<AdviceLedger.RunRecord> records = new ArrayList<>();
        for (HistoryQuery.Run r : runs) {
            if (r.complete()) {
                long coreMs = r.efficiency() == null || r.efficiency().coreHoursAllocated() < 0 ? -1
                        : Math.round(r.efficiency().coreHoursAllocated() * 3_600_000);
                records.add(new AdviceLedger.RunRecord(r.pathKey(), r.durationMs(), r.totalTaskTimeMs(),
                        r.inputBytes(), coreMs, settings.getOrDefault(r.pathKey(), Map.of()),
                        findings.getOrDefault(r.pathKey(), List.of())));
            }
        }
        return AdviceLedger.of(records);
    }

    /**
     * The settings an earlier run of this application's job changed as advised without it helping, each with the
     * sentence that says so: its "Fix this first" puts findings advising them after the others. Empty for a run of no
     * job, and without reading its job's runs when none of its findings advises a setting.
     */
    public Map<String, String> triedWithoutHelp(AppDetail d) throws SQLException {
        AppHeader app = d.header();
        if (app.jobKey() == null || d.findings().stream().allMatch(f -> f.advice().isEmpty())) {
            return Map.of();
        }
        List<HistoryQuery.Run> runs = history.runs(app.jobKey(), TRIED_RUNS);
        Set<String> upTo = new HashSet<>();
        for (HistoryQuery.Run r : runs) {
            if (r.startTime() <= app.startTime()) {
                upTo.add(r.pathKey());
            }
        }
        List<AdviceLedger.Entry> ledger = keptLedgers.get(new JobRuns(app.jobKey(), runs),
                () -> adviceLedger(app.jobKey(), runs, history.advisingFindings(app.jobKey(), TRIED_RUNS), TRIED_RUNS));
        return AdviceLedger.notHelped(ledger, upTo);
    }

    /** Jobs with at least two stored runs, the most recently run first. */
    public List<RecurringJob> recurringJobs() throws SQLException {
        return history.jobs(null, 2, JOBS_LIMIT).stream().map(RecurringJob::of).toList();
    }

    /**
     * The job a request names with {@code ?job=} or {@code ?name=}.
     *
     * @param jobKey          the job: {@code job} as given, else the only job with runs of that name; null when the
     *                        name has none or several
     * @param candidates      when several jobs have runs of the name: those jobs, to choose from
     * @param interactiveRuns runs of the name that belong to no job (interactive sessions)
     */
    public record JobLookup(String name, String jobKey, List<RecurringJob> candidates, long interactiveRuns) {
        /** Why there is no history for the name: none stored, or only interactive sessions. */
        public String noJobSentence() {
            if (interactiveRuns == 0) {
                return "No run of an application named '" + name + "' in the database.";
            }
            return Fmt.count(interactiveRuns, "run") + " named '" + name + "' " + (interactiveRuns == 1
                    ? "is an interactive session" : "are interactive sessions") + " (a shell or a notebook): they"
                    + " are not runs of one job, so they have no history; an application that sets"
                    + " spark.sparkscope.jobKey is grouped by it.";
        }

        /** The 400 when the name is ambiguous, naming the jobs to choose from. */
        public WebException ambiguous() {
            return WebException.badParam("name", "'" + name + "' names " + candidates.size() + " jobs; choose one"
                    + " with job=: " + String.join("; ", candidates.stream().limit(10).map(c -> c.job().key())
                    .toList()));
        }
    }

    public JobLookup lookup(String job, String name) throws SQLException {
        if (job != null) {
            return new JobLookup(name, job, List.of(), 0);
        }
        List<String> keys = history.jobKeysOfName(name);
        if (keys.size() == 1) {
            return new JobLookup(name, keys.get(0), List.of(), 0);
        }
        List<RecurringJob> candidates = keys.isEmpty() ? List.of()
                : history.jobs(name, 1, JOBS_LIMIT).stream().map(RecurringJob::of).toList();
        return new JobLookup(name, null, candidates, history.runsWithoutJob(name));
    }

    /** The settings recommended for a job's newest stored run; a 404 naming the key when it has none. */
    public JobTuning tune(String jobKey, Prices prices) throws SQLException {
        return JobTuning.load(dataSource, jobKey, prices)
                .orElseThrow(() -> WebException.notFound(JobTuning.noRun(jobKey)));
    }

    /** The run time predicted for {@code inputBytes} from the stored runs of one job. */
    public RunPrediction predict(String jobKey, long inputBytes) throws SQLException {
        return RunPrediction.of(dataSource, history, jobKey, inputBytes);
    }
}
