package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cores the application held but did not use: 1 − task time / (executor uptime × cores). Idle cores on a shared
 * cluster are capacity others could use. In local mode the cores are the user's own machine, so at most LOW.
 */
public final class IdleCores implements Heuristic {
    public static final String ID = "IdleCores";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.5",
                        "idle share of executor core time at or above which it is LOW"),
                new Threshold("ratio.high", "0.75",
                        "idle share of executor core time at or above which it is HIGH"),
                new Threshold("minAppMs", "60000",
                        "application time (ms) from which the share is fully judged"),
                new Threshold("floorAppMs", "20000",
                        "below this application time (ms) nothing is judged; up to minAppMs only ratio.high, as LOW"));
    }


    /**
     * Cores sit idle while the driver works alone: the idle cores are then that time's cost on the executors, a
     * knock-on of DriverTime. Not when the time without tasks was mostly start-up or waiting for a person or a
     * trigger, which DriverTime does not count: then the idle cores are a cause of their own.
     */
    private static String causedByDriverWork(NoTaskTime.Split split) {
        return split != null && split.noTaskMs() > 0 && split.largest() == NoTaskTime.Kind.DRIVER_WORK
                ? DriverTime.ID : null;
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return DriverTime.SPLIT_LABELS;
    }

    @Override
    public String description() {
        return """
                apps ≥ 60 s: 1 − task time / (uptime × cores) ≥ 0.5 LOW, ≥ 0.75 HIGH; between `floorAppMs` 20 s and
                60 s only ≥ 0.75, as LOW (not in local mode); because held cores are capacity others could use.
                Local mode at most LOW (your own machine). Executors of unknown cores are skipped. Dynamic
                allocation is recommended only when off; with it on, a shorter idle timeout only when it is above 30
                s; an interactive session that mostly waited between commands is told to release executors while
                it waits. A streaming query's waiting between triggers is left out of the core time. A knock-on
                of DriverTime when the time without tasks was mostly driver work. Impact: idle core time freed (not in
                local mode, nor when dynamic allocation already lets executors go quickly), no wall time; "Fix this
                first" lists it after the findings that shorten the run.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long appMs = app.durationMs();
        if (appMs <= 0 || appMs < cfg.count(ID + ".floorAppMs")) {
            return List.of();
        }
        // Start-up weighs more in a short run: below minAppMs only an extreme share is reported, as LOW.
        boolean judged = appMs >= cfg.count(ID + ".minAppMs");
        SparkSettings settings = SparkSettings.of(app);
        if (!judged && settings.isLocal()) {
            return List.of(); // a short run on the user's own machine: its idle cores cost nobody
        }
        SparkSettings conf = SparkSettings.of(app);
        long end = Facts.appEnd(app);
        double capacityMs = 0;
        double taskMs = 0;
        for (ExecutorSummary e : Facts.taskRunners(app)) {
            int cores = Facts.cores(e, conf);
            long added = e.addTime() > 0 ? e.addTime() : app.startTime();
            long removed = e.removeTime() > 0 ? e.removeTime() : end;
            if (cores <= 0 || removed <= added) {
                continue; // unknown cores (e.g. local[*] without a count): cannot judge this executor
            }
            capacityMs += (double) (removed - added) * cores;
            taskMs += e.totalDuration();
        }
        if (capacityMs <= 0) {
            return List.of();
        }
        // A streaming query waits between its triggers by design: that time is judged by the streaming findings
        // over its batches, not as idle cores here. The cores held then are taken out at the run's average.
        NoTaskTime.Split split = NoTaskTime.of(app);
        if (split != null && split.session() == NoTaskTime.Session.STREAMING && split.waitingMs() > 0) {
            double waitingCoreMs = Math.min(capacityMs - taskMs, split.waitingMs() * capacityMs / appMs);
            capacityMs -= Math.max(0, waitingCoreMs);
            if (capacityMs <= 0) {
                return List.of();
            }
        }
        double idle = Math.max(0, 1 - taskMs / capacityMs);
        Severity severity = cfg.levels(ID + ".ratio").grade(idle, judged);
        if (severity == Severity.NONE) {
            return List.of();
        }
        if (conf.isLocal()) {
            severity = Severity.LOW;
        }
        double idleCoreHours = (capacityMs - taskMs) / 3_600_000.0;
        String hours = String.format(Locale.ROOT, "%.2f", idleCoreHours);
        Finding.Builder f = Finding.builder(ID, severity);
        String why = Units.percent(idle) + " of the executors' core time was idle";
        String advice;
        boolean waiting = split != null && split.session() == NoTaskTime.Session.INTERACTIVE
                && split.largest() == NoTaskTime.Kind.WAITING;
        boolean nodeType = !conf.isLocal() && conf.platform().executorsSizedByNodeType();
        // Whether the advice, followed, gives the idle cores back to a shared cluster. Not in local mode (the
        // user's own machine: nobody else waits for those cores) and not when dynamic allocation already releases
        // them as soon as it is told to.
        boolean freesCores = false;
        if (nodeType) {
            // Databricks gives each worker node one executor of the node's cores and starts executors itself: the
            // cluster's size, node type and autoscaling are what hold cores, not spark.executor.* or dynamic
            // allocation, which the platform sets.
            String node = conf.platform().nodeType() == null ? "the one used" : conf.platform().nodeType();
            freesCores = true;
            advice = (waiting ? "The session held its workers while it waited " + Units.duration(split.waitingMs())
                    + " between commands: turn on the cluster's autoscaling (a lower minimum of workers) so idle"
                    + " workers go back, and auto-termination for clusters left idle."
                    : "Hold fewer cores: a cluster of fewer workers, or a node type with fewer cores than " + node
                    + ", or the cluster's autoscaling (a lower minimum of workers) so idle workers go back. On"
                    + " this platform each worker node runs one executor of all its cores, so"
                    + " spark.executor.cores and spark.executor.instances are not the settings to change.")
                    + " See DriverTime for time with no tasks and StageSkew for stragglers.";
        } else if (waiting) {
            // A person thinking between commands: nothing to move off the driver, the fix is to give cores back.
            if (conf.isLocal()) {
                advice = "The session waited " + Units.duration(split.waitingMs()) + " between commands while holding"
                        + " its cores; in local mode they are your machine's: run with fewer (local[N]) if others"
                        + " need them, and stop sessions you no longer use.";
            } else if (conf.dynamicAllocation()) {
                advice = "The session waited " + Units.duration(split.waitingMs()) + " between commands; dynamic"
                        + " allocation is on and gives executors back after spark.dynamicAllocation.executorIdleTimeout"
                        + " (now " + conf.current("spark.dynamicAllocation.executorIdleTimeout").value() + "): stop"
                        + " sessions you no longer use.";
            } else {
                SettingAdvice dyn = conf.advise("spark.dynamicAllocation.enabled", "true", why
                        + ", mostly while the session waited between commands");
                f.advise(dyn);
                freesCores = true;
                advice = "The session held its executors while it waited " + Units.duration(split.waitingMs())
                        + " between commands: release them meanwhile with dynamic allocation (" + dyn.phrase()
                        + ", with shuffle tracking or the shuffle service), and stop sessions you no longer use.";
            }
        } else if (conf.isLocal()) {
            advice = "In local mode these are your machine's cores: run with fewer (local[N]) if others need them,"
                    + " or give the application more parallel work (more partitions, concurrent jobs). See DriverTime"
                    + " for time with no tasks and StageSkew for stragglers.";
        } else if (conf.dynamicAllocation()) {
            SettingAdvice sooner = conf.advise("spark.dynamicAllocation.executorIdleTimeout", "30s", why);
            if (conf.timeMs("spark.dynamicAllocation.executorIdleTimeout", 1000).orElse(60_000) <= 30_000) {
                advice = "Dynamic allocation is on and releases idle executors after "
                        + conf.current("spark.dynamicAllocation.executorIdleTimeout").value() + "; the idle time is"
                        + " inside executors that hold tasks: see DriverTime for time with no tasks at all and"
                        + " StageSkew for stages waiting on stragglers.";
            } else {
                f.advise(sooner);
                freesCores = true;
                advice = "Let idle executors go sooner: " + sooner.phrase() + ". See DriverTime for time with no"
                        + " tasks at all and StageSkew for stages waiting on stragglers.";
            }
        } else {
            SettingAdvice dyn = conf.advise("spark.dynamicAllocation.enabled", "true", why);
            f.advise(dyn);
            freesCores = true;
            boolean idleBetweenJobs = split != null && split.session() == NoTaskTime.Session.BATCH
                    && split.largest() == NoTaskTime.Kind.WAITING;
            advice = (idleBetweenJobs ? "The program held its executors for " + Units.duration(split.waitingMs())
                    + " between jobs with no job running and nothing collected to work on. " : "")
                    + "Request fewer executors or cores (spark.executor.instances, spark.executor.cores), or release"
                    + " idle executors with dynamic allocation: " + dyn.phrase() + " (with shuffle tracking or the"
                    + " shuffle service). See DriverTime for time with no tasks and StageSkew for stragglers.";
        }
        f.recommendation(advice);
        if (split != null) {
            f.detail("startupMs", split.startupMs()).detail("driverWorkMs", split.driverWorkMs())
                    .detail("waitingMs", split.waitingMs());
        }
        // The saving is core time others could use, not a shorter run: FixFirst lists it after the findings that
        // shorten the run. Where the advice would not give cores back, the figure stays in the basis only.
        String basis = String.format(Locale.ROOT, "frees %.2f idle core-hours (held − task time); wall time unchanged",
                idleCoreHours);
        f.impact(freesCores ? Impact.coreTime(Math.round(capacityMs - taskMs), basis) : Impact.of(0, 0, basis));
        return List.of(f
                .title(Units.percent(idle) + " of executor cores were idle")
                .message("Executors held " + String.format(Locale.ROOT, "%.2f", capacityMs / 3_600_000.0)
                        + " core-hours but ran tasks for " + String.format(Locale.ROOT, "%.2f", taskMs / 3_600_000.0)
                        + ": " + hours + " core-hours (" + Units.percent(idle) + ") were idle"
                        + (judged ? "." : "; a short run, so only a share this large is reported."))
                .detail("idleRatio", Units.round2(idle))
                .detail("idleCoreHours", Units.round2(idleCoreHours))
                .detail("capacityCoreMs", Math.round(capacityMs))
                .detail("taskTimeMs", Math.round(taskMs))
                .build()
                .withCausedBy(causedByDriverWork(split)));
    }
}
