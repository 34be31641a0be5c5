package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.List;
import java.util.Locale;

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
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long appMs = app.durationMs();
        if (appMs <= 0 || appMs < cfg.count(ID + ".minAppMs")) {
            return List.of();
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
        double idle = Math.max(0, 1 - taskMs / capacityMs);
        Severity severity = Severity.atOrAbove(idle, cfg.threshold(ID + ".ratio.low"), cfg.threshold(ID + ".ratio.high"));
        if (severity == Severity.NONE) {
            return List.of();
        }
        if (conf.isLocal()) {
            severity = Severity.LOW;
        }
        double idleCoreHours = (capacityMs - taskMs) / 3_600_000.0;
        String hours = String.format(Locale.ROOT, "%.2f", idleCoreHours);
        return List.of(Finding.builder(ID, severity)
                .title(Units.percent(idle) + " of executor cores were idle")
                .message("Executors held " + String.format(Locale.ROOT, "%.2f", capacityMs / 3_600_000.0)
                        + " core-hours but ran tasks for " + String.format(Locale.ROOT, "%.2f", taskMs / 3_600_000.0)
                        + ": " + hours + " core-hours (" + Units.percent(idle) + ") were idle.")
                .recommendation(conf.dynamicAllocation()
                        ? "Let idle executors go sooner: lower spark.dynamicAllocation.executorIdleTimeout (now "
                        + conf.get("spark.dynamicAllocation.executorIdleTimeout", "60s") + "). See DriverTime for"
                        + " time with no tasks at all and StageSkew for stages waiting on stragglers."
                        : "Request fewer executors or cores (spark.executor.instances, spark.executor.cores), or"
                        + " enable dynamic allocation (spark.dynamicAllocation.enabled=true) so idle executors are"
                        + " released. See DriverTime for time with no tasks and StageSkew for stragglers.")
                .configKeys("spark.executor.instances", "spark.executor.cores", "spark.dynamicAllocation.enabled")
                .detail("idleRatio", Units.round2(idle))
                .detail("idleCoreHours", Units.round2(idleCoreHours))
                .detail("capacityCoreMs", Math.round(capacityMs))
                .detail("taskTimeMs", Math.round(taskMs))
                .build());
    }
}
