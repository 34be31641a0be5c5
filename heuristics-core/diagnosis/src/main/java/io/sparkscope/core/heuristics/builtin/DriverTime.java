package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Time when no task ran anywhere, split by {@link NoTaskTime} into start-up, driver work and waiting. Only driver
 * work (planning, listing files, collect, pandas, driver loops, while executors wait) is graded and counted as a
 * saving: start-up and a person's or a trigger's waiting are shown, since moving work off the driver cannot shorten
 * them.
 */
public final class DriverTime implements Heuristic {
    public static final String ID = "DriverTime";
    /** Start-up, planning and the final write leave some time without tasks in any healthy run. */
    static final double HEALTHY_SHARE = 0.1;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.3",
                        "share of application time with no task running at or above which it is LOW"),
                new Threshold("ratio.high", "0.5",
                        "share of application time with no task running at or above which it is HIGH"),
                new Threshold("minAppMs", "60000",
                        "application time (ms) from which the share is fully judged"),
                new Threshold("floorAppMs", "20000",
                        "below this application time (ms) only minDriverWorkMs of driver work is judged; up to"
                                + " minAppMs only ratio.high, as LOW"),
                new Threshold("minDriverWorkMs", "5000",
                        "driver work (ms) from which an application shorter than floorAppMs is judged"),
                new Threshold("startupMs", "60000",
                        "start-up (ms, application start to first job) from which a setting that shortens it is named"));
    }

    /** The split of the time without tasks, as pages label it. */
    static final Map<String, DetailLabel> SPLIT_LABELS = Map.of(
            "startupMs", new DetailLabel("Start-up with no task running (before the first job)",
                    DetailLabel.Unit.DURATION_MS),
            "driverWorkMs", new DetailLabel("Driver work with no task running", DetailLabel.Unit.DURATION_MS),
            "waitingMs", new DetailLabel("Waiting with no task running (between commands or triggers, or a program"
                    + " idle between jobs)",
                    DetailLabel.Unit.DURATION_MS),
            "streamingBatchMs", new DetailLabel("Streaming batch work with no task running (planning, offsets,"
                    + " commits)", DetailLabel.Unit.DURATION_MS),
            "driverWorkShare", new DetailLabel("Share of the application the driver worked alone",
                    DetailLabel.Unit.SHARE),
            "session", new DetailLabel("How the application is driven", DetailLabel.Unit.TEXT),
            "sessionReason", new DetailLabel("What showed it", DetailLabel.Unit.TEXT));

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return SPLIT_LABELS;
    }

    @Override
    public String description() {
        return """
                time with no task running (app time minus the union of stage task spans), split into start-up
                (before the first job or query, or the first executor's registration), driver work (a job or query in progress, or a batch program
                between jobs) and waiting (a shell or notebook between commands, a streaming query between
                triggers). Apps ≥ 60 s: driver work ≥ 0.3 of the app LOW, ≥ 0.5 HIGH; below 60 s only ≥ 0.5, as LOW,
                and below `floorAppMs` 20 s only when the driver work itself reaches `minDriverWorkMs` 5 s (the
                planning of a tiny app is half of it, and no saving); because executors wait while only the driver
                works. When only
                start-up and waiting reach those shares: LOW, shown without a saving. A start-up ≥ `startupMs` on
                YARN client mode without spark.yarn.archive/jars: its own LOW finding. Dynamic allocation is advised
                only when it is off and not in local mode. Impact: driver work above 10 % of the application.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long appMs = app.durationMs();
        if (appMs <= 0) {
            return List.of();
        }
        // Start-up is a larger share of a short run, so below minAppMs only a share at the HIGH level counts, and
        // only as LOW: a driver that works alone through most of a 40-second run is still worth saying.
        boolean judged = appMs >= cfg.count(ID + ".minAppMs");
        NoTaskTime.Split split = NoTaskTime.of(app);
        if (split == null) {
            return List.of(); // no task times known (no stages, or a cut log): nothing to compare against
        }
        // A short run is judged by its share only when the driver's own work is long enough to matter: in a run of
        // a few seconds, planning alone is half the time, while 10 s of a driver loop in a 12 s run is the run.
        if (appMs < cfg.count(ID + ".floorAppMs") && split.driverWorkMs() < cfg.count(ID + ".minDriverWorkMs")) {
            return List.of();
        }
        long idleMs = split.noTaskMs();
        double share = (double) idleMs / appMs;
        double workShare = (double) split.driverWorkMs() / appMs;
        // Only the driver's own work can be shortened by moving work off it: start-up and waiting for a person or a
        // trigger are shown, never graded or counted as a saving.
        Severity severity = cfg.levels(ID + ".ratio").grade(workShare, judged);
        boolean shownOnly = severity == Severity.NONE;
        if (shownOnly && cfg.levels(ID + ".ratio").grade(share, judged) == Severity.NONE) {
            return List.of();
        }
        List<Map<String, Object>> longest = new ArrayList<>();
        for (NoTaskTime.Gap g : split.gaps().subList(0, Math.min(3, split.gaps().size()))) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("startOffsetMs", g.from() - app.startTime());
            m.put("durationMs", g.durationMs());
            m.put("afterStage", g.after());
            m.put("beforeStage", g.before());
            m.put("kind", g.kind().words());
            longest.add(m);
        }
        NoTaskTime.Gap top = split.gaps().isEmpty() ? null : split.gaps().get(0);
        String where = top == null ? "" : " The longest stretch, " + Units.duration(top.durationMs()) + " of "
                + top.kind().words() + ", came "
                + (top.after() == null ? "before the first stage" : "after stage " + top.after())
                + (top.before() == null ? (top.after() == null ? "" : " until the application ended")
                : (top.after() == null ? " (start-up and planning)" : " before stage " + top.before())) + ".";
        SparkSettings conf = SparkSettings.of(app);
        Finding.Builder f = Finding.builder(ID, shownOnly ? Severity.LOW : severity);
        String parts = Units.duration(split.startupMs()) + " of start-up (before the first job), "
                + Units.duration(split.driverWorkMs()) + " of driver work (planning, listing files, collecting"
                + " results, driver code between jobs)"
                + (split.batchMs() > 0 ? ", " + Units.duration(split.batchMs()) + " inside streaming micro-batches"
                + " (planning, offsets, commits: judged with the batches by the Streaming findings)" : "")
                + " and " + Units.duration(split.waitingMs()) + " of " + waitingWords(split.session());
        String message = "For " + Units.duration(idleMs) + " of the application's " + Units.duration(appMs) + " ("
                + Units.percent(share) + ") no task was running: " + parts + "." + where
                + (split.sessionReason().isEmpty() ? "" : " This is " + sessionWords(split.session()) + ": "
                + split.sessionReason() + ".")
                + (judged ? "" : " A short run, so only a share this large is reported.");
        String recommendation;
        if (shownOnly) {
            f.impact(0, 0, "");
            recommendation = showOnlyAdvice(split, conf, f);
        } else {
            f.impact(Math.max(0, split.driverWorkMs() - Math.round(HEALTHY_SHARE * appMs)), 0,
                    "driver work with no task running (" + Units.duration(split.driverWorkMs()) + "), above "
                            + Units.percent(HEALTHY_SHARE) + " of the application for planning; start-up and waiting"
                            + " not counted");
            recommendation = "Move work off the driver: avoid collect()/toPandas() of large data and driver-side"
                    + " loops, cache or checkpoint plans that are re-analysed in loops, and run independent"
                    + " actions concurrently" + release(conf, f, "the driver worked alone for "
                    + Units.percent(workShare) + " of the application") + ".";
        }
        List<Finding> out = new ArrayList<>();
        out.add(f
                .title(shownOnly ? "No task ran for " + Units.percent(share) + " of the application, mostly "
                        + split.largest().words() : "The driver worked alone for " + Units.percent(workShare)
                        + " of the application")
                .message(message)
                .recommendation(recommendation)
                .executor("driver")
                .detail("noTaskMs", idleMs)
                .detail("appDurationMs", appMs)
                .detail("noTaskShare", Units.round2(share))
                .detail("startupMs", split.startupMs())
                .detail("driverWorkMs", split.driverWorkMs())
                .detail("waitingMs", split.waitingMs())
                .detail("streamingBatchMs", split.batchMs())
                .detail("driverWorkShare", Units.round2(workShare))
                .detail("session", split.session().name().toLowerCase(Locale.ROOT))
                .detail("sessionReason", split.sessionReason())
                .detail("longestGaps", longest)
                .build());
        Finding startup = slowStartup(split, conf, cfg);
        if (startup != null) {
            out.add(startup);
        }
        return out;
    }

    private static String waitingWords(NoTaskTime.Session s) {
        return switch (s) {
            case INTERACTIVE -> "waiting between commands";
            case STREAMING -> "waiting between streaming triggers";
            case BATCH -> "the program idle between jobs (no job running, almost nothing collected to work on,"
                    + " executors held)";
        };
    }

    private static String sessionWords(NoTaskTime.Session s) {
        return s == NoTaskTime.Session.STREAMING ? "a streaming application" : "an interactive session";
    }

    // Executors wait while the driver works alone: dynamic allocation at least gives them back (not in local mode).
    private static String release(SparkSettings conf, Finding.Builder f, String reason) {
        if (conf.isLocal()) {
            return "";
        }
        if (conf.dynamicAllocation()) {
            return "; dynamic allocation is on, so executors idle for spark.dynamicAllocation.executorIdleTimeout"
                    + " (now " + conf.current("spark.dynamicAllocation.executorIdleTimeout").value() + ") are already"
                    + " released meanwhile";
        }
        SettingAdvice dyn = conf.advise("spark.dynamicAllocation.enabled", "true", reason);
        f.advise(dyn);
        return "; with dynamic allocation (" + dyn.phrase() + ", plus shuffle tracking or the shuffle service)"
                + " executors are at least released meanwhile";
    }

    // Advice that fits start-up and waiting: neither is shortened by moving work off the driver.
    private static String showOnlyAdvice(NoTaskTime.Split split, SparkSettings conf, Finding.Builder f) {
        return switch (split.largest()) {
            case WAITING -> split.session() == NoTaskTime.Session.STREAMING
                    ? "Nothing to shorten here: between triggers a streaming query waits for its next trigger."
                    + " Judge the query by its batches (the Streaming findings)."
                    : split.session() == NoTaskTime.Session.BATCH
                    ? "Nothing to move off the driver: between its jobs no job or query ran and the job before handed"
                    + " the driver almost nothing to work on, so the program slept or waited on something outside"
                    + " Spark while its executors sat idle (IdleCores)" + release(conf, f,
                    "the program held its executors idle between jobs for " + Units.percent((double) split.waitingMs()
                    / split.appMs()) + " of the application") + "; or start the Spark session only when the work is ready."
                    : "Nothing to shorten on the driver: the session waited for its next command. Stop idle"
                    + " sessions" + release(conf, f, "an interactive session waited between commands for "
                    + Units.percent((double) split.waitingMs() / split.appMs()) + " of the application") + ".";
            case STARTUP -> "Nothing to move off the driver: this is start-up (JVM, SparkContext, executors"
                    + " registering, the program's own code before its first action).";
            case DRIVER_WORK -> "Driver work below the level worth reporting on its own; no saving counted.";
            case STREAMING_BATCH -> "Nothing to move off the driver here: this is the streaming query's own"
                    + " micro-batch work (planning, offsets, commits). Judge the query by its batches (the Streaming"
                    + " findings).";
        };
    }

    /**
     * A long start-up gets its own finding only when a setting shortens it: YARN in client mode without
     * spark.yarn.archive or spark.yarn.jars uploads the Spark jars on every start.
     */
    private static Finding slowStartup(NoTaskTime.Split split, SparkSettings conf, HeuristicConfig cfg) {
        if (split.startupMs() < cfg.count(ID + ".startupMs") || !conf.isYarn() || conf.clusterDeployMode()
                || conf.isSet("spark.yarn.archive") || conf.isSet("spark.yarn.jars")) {
            return null;
        }
        SettingAdvice archive = conf.advise("spark.yarn.archive", "hdfs:///<path>/spark-libs.zip",
                "start-up took " + Units.duration(split.startupMs()));
        return Finding.builder(ID, Severity.LOW)
                .location("startup")
                .title("Start-up took " + Units.duration(split.startupMs()))
                .message("The first job came " + Units.duration(split.startupMs()) + " after the application"
                        + " started. On YARN without spark.yarn.archive or spark.yarn.jars, every start uploads"
                        + " Spark's jars to the cluster before the first executor can start.")
                .recommendation("Upload Spark's jars once to HDFS and point " + archive.phrase()
                        + " (or spark.yarn.jars) at them.")
                .advise(archive)
                .executor("driver")
                .detail("startupMs", split.startupMs())
                .build();
    }
}
