package io.sparkscope.server.web.api;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.JobsExecutorsQuery;
import io.sparkscope.store.query.SparkAppsQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Spark's own REST API routes, {@code /api/v1/applications[/{id}[/{attempt}]/…]} and {@code /api/v1/version}, with
 * Spark's parameters, answers and "not found" sentences, so a tool written for a History Server (and
 * {@code sparkscope fetch} itself) reads the stored applications unchanged. The jobs, executors, task list and SQL
 * answers are the ones {@code /api/v1/apps} already gives in Spark's shape; this class adds the application list,
 * the application, its environment, its stages and task summaries, and answers Spark's 404s before handing over.
 *
 * <p>There is no {@code …/logs}: Sparkscope keeps no event log, and says so with a 404, which makes
 * {@code sparkscope fetch} take the REST path.
 */
public final class SparkRestApi {
    /** The Spark version whose History Server answers these routes imitate. */
    public static final String SPARK_VERSION = "4.0.4";
    /** Applications one list answer holds at most, with or without {@code limit}. */
    public static final int MAX_APPS = 100_000;
    private static final List<String> STAGE_STATUSES = List.of("ACTIVE", "COMPLETE", "PENDING", "FAILED", "SKIPPED");
    private static final List<String> TASK_STATUSES = List.of("RUNNING", "KILLED", "PENDING", "SUCCESS", "FAILED");
    /** Spark's default quantiles of {@code withSummaries=true}; {@code taskSummary} has the REST defaults. */
    private static final double[] SUMMARY_QUANTILES = {0.0, 0.25, 0.5, 0.75, 1.0};
    private static final long DEFAULT_MIN_DATE = LocalDate.of(2010, 1, 1).atStartOfDay(ZoneOffset.UTC)
            .toInstant().toEpochMilli();
    private static final long DEFAULT_MAX_DATE = LocalDate.of(3000, 1, 1).atStartOfDay(ZoneOffset.UTC)
            .toInstant().toEpochMilli();
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSz",
            Locale.ROOT);

    private final SparkAppsQuery apps;
    private final JobsExecutorsQuery jobs;
    private final SnapshotReader snapshots;
    private final LongSupplier clock;

    public SparkRestApi(DataSource dataSource, LongSupplier clock) {
        this.apps = new SparkAppsQuery(dataSource);
        this.jobs = new JobsExecutorsQuery(dataSource);
        this.snapshots = new SnapshotReader(dataSource);
        this.clock = clock;
    }

    public void version(Context ctx) {
        json(ctx, new SparkAppJson.Version(SPARK_VERSION));
    }

    /** {@code ?status=completed|running} (repeatable), {@code minDate}, {@code maxDate}, {@code minEndDate}, … */
    public void applications(Context ctx) throws SQLException {
        Set<String> statuses = new LinkedHashSet<>();
        for (String raw : ctx.queryParams("status")) {
            String s = raw.strip().toLowerCase(Locale.ROOT);
            if (!s.equals("completed") && !s.equals("running")) {
                throw WebException.badParam("status", "'" + raw.strip() + "' is not an application status"
                        + " (completed, running)");
            }
            statuses.add(s);
        }
        int limit = Params.intValue(ctx, "limit", MAX_APPS, 0, MAX_APPS);
        var filter = new SparkAppsQuery.Filter(statuses.isEmpty() || statuses.contains("completed"),
                statuses.isEmpty() || statuses.contains("running"), date(ctx, "minDate", DEFAULT_MIN_DATE),
                date(ctx, "maxDate", DEFAULT_MAX_DATE), date(ctx, "minEndDate", DEFAULT_MIN_DATE),
                date(ctx, "maxEndDate", DEFAULT_MAX_DATE), clock.getAsLong(), limit);
        json(ctx, apps.list(filter).stream().map(SparkAppJson.App::of).toList());
    }

    /** {@code /applications/{id}}: the application with every attempt; with {@code /{attempt}} that attempt. */
    public void application(Context ctx) throws SQLException {
        AppDetailQuery.Ref ref = Params.appRef(ctx);
        SparkAppsQuery.App app = apps.app(ref.appId()).orElseThrow(() -> noSuchApp(ref.appId()));
        if (ref.attemptId() == null) {
            json(ctx, SparkAppJson.App.of(app));
            return;
        }
        SparkAppsQuery.Attempt attempt = app.attempts().stream().filter(a -> ref.attemptId().equals(a.attemptId()))
                .findFirst().orElseThrow(() -> WebException.notFound("unknown app " + ref.appId() + ", attempt "
                        + ref.attemptId()));
        json(ctx, SparkAppJson.Attempt.of(attempt));
    }

    public void environment(Context ctx) throws SQLException {
        json(ctx, SparkAppJson.Environment.of(read(lookup(ctx, -1), -1).config()));
    }

    /**
     * Every stage attempt, newest first: {@code ?status=} (repeatable), {@code details} and {@code withSummaries}
     * (false), {@code quantiles}, {@code taskStatus}.
     */
    public void stages(Context ctx) throws SQLException {
        Set<String> statuses = values(ctx, "status", STAGE_STATUSES, "stage status");
        boolean details = flag(ctx, "details", false);
        Set<String> taskStatuses = values(ctx, "taskStatus", TASK_STATUSES, "task status");
        double[] q = summaryQuantiles(ctx);
        List<StageSummary> stages = new ArrayList<>(read(lookup(ctx, -1), null).stages());
        stages.sort(Comparator.comparingInt(StageSummary::stageId).thenComparingInt(StageSummary::attemptId)
                .reversed());
        StageContext about = context(ctx);
        List<Object> out = new ArrayList<>();
        for (StageSummary s : stages) {
            if (statuses.isEmpty() || statuses.contains(s.status().name())) {
                out.add(stageJson(s, about, details, taskStatuses, q));
            }
        }
        json(ctx, out);
    }

    /** {@code /stages/{stageId}}: its attempts; {@code details} defaults to true here, as in Spark. */
    public void stage(Context ctx) throws SQLException {
        int stageId = Params.stageNumber(ctx, "stageId");
        SparkAppsQuery.StageLookup found = lookup(ctx, stageId);
        if (found.stageAttempts().isEmpty()) {
            throw WebException.notFound("unknown stage: " + stageId);
        }
        boolean details = flag(ctx, "details", true);
        Set<String> taskStatuses = values(ctx, "taskStatus", TASK_STATUSES, "task status");
        double[] q = summaryQuantiles(ctx);
        StageContext about = context(ctx);
        List<Object> out = new ArrayList<>();
        for (StageSummary s : read(found, stageId).stages()) {
            out.add(stageJson(s, about, details, taskStatuses, q));
        }
        json(ctx, out);
    }

    public void stageAttempt(Context ctx) throws SQLException {
        StageSummary s = stageAttemptOf(ctx);
        json(ctx, stageJson(s, context(ctx), flag(ctx, "details", true),
                values(ctx, "taskStatus", TASK_STATUSES, "task status"), summaryQuantiles(ctx)));
    }

    /** Spark's {@code TaskMetricDistributions} at {@code ?quantiles=} (Spark's five by default). */
    public void taskSummary(Context ctx) throws SQLException {
        double[] q = Params.quantiles(ctx, "quantiles", TaskDistributions.SPARK_DEFAULT_QUANTILES);
        StageSummary s = stageAttemptOf(ctx);
        if (s.taskSummary() == null) {
            throw WebException.notFound("No tasks reported metrics for " + s.stageId() + " / " + s.attemptId()
                    + " yet.");
        }
        checkStored(s, q);
        json(ctx, io.sparkscope.core.report.SnapshotJson.distributions(s.taskSummary().restrictTo(q)));
    }

    /** Sparkscope keeps no event log: a 404 (so {@code sparkscope fetch} reads the REST routes instead). */
    public void logs(Context ctx) throws SQLException {
        lookup(ctx, -1);
        throw WebException.notFound("no event log: Sparkscope keeps the application's data, not its event log;"
                + " read the other /api/v1/applications routes");
    }

    /** A route of {@code /api/v1/apps} behind Spark's "no such app" (and, with a stage in the path, its stage 404). */
    public Handler afterLookup(Handler handler) {
        return ctx -> {
            if (ctx.pathParamMap().containsKey("stageAttemptId")) {
                stageAttemptFound(ctx, lookup(ctx, Params.stageNumber(ctx, "stageId")));
            } else {
                lookup(ctx, -1);
            }
            handler.handle(ctx);
        };
    }

    private StageSummary stageAttemptOf(Context ctx) throws SQLException {
        int stageId = Params.stageNumber(ctx, "stageId");
        int attemptId = Params.stageNumber(ctx, "stageAttemptId");
        SparkAppsQuery.StageLookup found = lookup(ctx, stageId);
        stageAttemptFound(ctx, found);
        return read(found, stageId).stages().stream().filter(s -> s.attemptId() == attemptId)
                .findFirst().orElseThrow(() -> WebException.notFound("unknown stage: " + stageId));
    }

    private static void stageAttemptFound(Context ctx, SparkAppsQuery.StageLookup found) {
        int stageId = Params.stageNumber(ctx, "stageId");
        int attemptId = Params.stageNumber(ctx, "stageAttemptId");
        if (found.stageAttempts().isEmpty()) {
            throw WebException.notFound("unknown stage: " + stageId);
        }
        if (!found.stageAttempts().contains(attemptId)) {
            throw WebException.notFound("unknown attempt for stage " + stageId + ".  Found attempts: ["
                    + String.join(",", found.stageAttempts().stream().map(String::valueOf).toList()) + "]");
        }
    }

    private Map<String, Object> stageJson(StageSummary s, StageContext about, boolean details,
                                          Set<String> taskStatuses, double[] q) {
        if (q != null) {
            checkStored(s, q);
        }
        // The job that submitted the stage is the first of its jobs (a later one finds it done and skips it).
        String description = s.jobIds().isEmpty() ? null : about.jobDescriptions().get(s.jobIds().stream()
                .min(Integer::compare).orElseThrow());
        return SparkStageJson.of(s, description, about.soleExecutor(), details, taskStatuses, q);
    }

    /**
     * What a stage's answer needs from the rest of the application: its job descriptions by job id, and the executor
     * that ran every task (null when several ran tasks).
     */
    private record StageContext(Map<Integer, String> jobDescriptions, String soleExecutor) {
    }

    private StageContext context(Context ctx) throws SQLException {
        AppDetailQuery.Ref ref = Params.appRef(ctx);
        Map<Integer, String> descriptions = new java.util.HashMap<>();
        jobs.jobs(ref.appId(), ref.attemptId()).ifPresent(j -> j.jobs().forEach(job -> {
            if (job.description() != null) {
                descriptions.put(job.jobId(), job.description());
            }
        }));
        // Two are enough to know whether one executor ran every task; an elastic application may have 100 000.
        List<String> ran = jobs.executorsThatRanTasks(ref.appId(), ref.attemptId(), 2).orElse(List.of());
        return new StageContext(descriptions, ran.size() == 1 ? ran.get(0) : null);
    }

    private static void checkStored(StageSummary s, double[] q) {
        Double missing = SparkStageJson.missingQuantile(s.taskSummary(), q);
        if (missing != null) {
            throw WebException.badParam("quantiles", "quantile " + missing + " was not stored for stage " + s.key()
                    + " (stored: " + java.util.Arrays.toString(s.taskSummary().quantiles()) + ")");
        }
    }

    /** With {@code withSummaries=true} the quantiles wanted (Spark's defaults unless given), else null. */
    private static double[] summaryQuantiles(Context ctx) {
        double[] q = Params.quantiles(ctx, "quantiles", SUMMARY_QUANTILES);
        return flag(ctx, "withSummaries", false) ? q : null;
    }

    private SparkAppsQuery.StageLookup lookup(Context ctx, int stageId) throws SQLException {
        AppDetailQuery.Ref ref = Params.appRef(ctx);
        return apps.lookup(ref.appId(), ref.attemptId(), stageId).orElseThrow(() -> ref.attemptId() == null
                ? noSuchApp(ref.appId()) : noSuchApp(ref.appId() + "/" + ref.attemptId()));
    }

    /** The attempts of {@code stageId} (null: every stage, -1: none) and the configuration of the application found. */
    private SnapshotReader.StagesAndConfig read(SparkAppsQuery.StageLookup found, Integer stageId) throws SQLException {
        var app = found.app();
        return snapshots.stages(app.appId(), app.attemptId(), stageId).orElseThrow(() -> noSuchApp(app.appId()));
    }

    private static WebException noSuchApp(String key) {
        return WebException.notFound("no such app: " + key);
    }

    /** Spark's boolean parameters: true or false (any case), {@code dflt} when absent. */
    static boolean flag(Context ctx, String name, boolean dflt) {
        String v = Params.text(ctx, name);
        if (v == null) {
            return dflt;
        }
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
            throw WebException.badParam(name, "'" + v + "' is not true or false");
        }
        return v.equalsIgnoreCase("true");
    }

    /** A repeatable (or comma-separated) enumeration parameter, upper-cased; empty when absent. */
    private static Set<String> values(Context ctx, String name, List<String> allowed, String what) {
        Set<String> out = new LinkedHashSet<>();
        for (String raw : ctx.queryParams(name)) {
            for (String part : raw.split(",")) {
                String s = part.strip().toUpperCase(Locale.ROOT);
                if (s.isEmpty()) {
                    continue;
                }
                if (!allowed.contains(s)) {
                    throw WebException.badParam(name, "'" + part.strip() + "' is not a " + what + " ("
                            + String.join(", ", allowed).toLowerCase(Locale.ROOT) + ")");
                }
                out.add(s);
            }
        }
        return out;
    }

    /**
     * Spark's {@code SimpleDateParam}: {@code 2015-02-03T16:42:40.000GMT} (any zone name) or a day,
     * {@code 2015-02-03}, read as UTC midnight.
     */
    static long date(Context ctx, String name, long dflt) {
        String v = Params.text(ctx, name);
        if (v == null) {
            return dflt;
        }
        try {
            return ZonedDateTime.parse(v, DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException notDateTime) {
            try {
                return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            } catch (DateTimeParseException notDay) {
                throw WebException.badParam(name, "couldn't parse date: '" + v
                        + "' (expected 2015-02-03T16:42:40.000GMT or 2015-02-03)");
            }
        }
    }

    private static void json(Context ctx, Object value) {
        ctx.contentType("application/json").result(ApiJson.write(value));
    }
}
