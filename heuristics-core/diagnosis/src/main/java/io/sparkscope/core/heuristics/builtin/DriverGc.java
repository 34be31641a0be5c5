package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/**
 * Share of the application's wall time the driver spent in GC. Silent when the driver's GC time is
 * unknown (it is only logged with executor metrics, Spark 3+).
 */
public final class DriverGc implements Heuristic {
    public static final String ID = "DriverGc";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long appMs = app.durationMs();
        if (app.driverGcTimeMs() < 0 || appMs <= 0 || appMs < cfg.count(ID + ".floorAppMs")) {
            return List.of();
        }
        // Below minAppMs only an extreme share is reported, as LOW: start-up GC weighs more in a short run.
        boolean judged = appMs >= cfg.count(ID + ".minAppMs");
        double ratio = (double) app.driverGcTimeMs() / appMs;
        Severity severity = cfg.levels(ID + ".ratio").grade(ratio, judged);
        if (severity == Severity.NONE) {
            return List.of();
        }
        SparkSettings conf = SparkSettings.of(app);
        long mem = conf.driverMemoryBytes();
        SettingAdvice more = conf.advise("spark.driver.memory", Units.sparkSize(mem * 3 / 2),
                "the driver spent " + Units.percent(ratio) + " of the application in GC");
        long saved = Math.max(0, app.driverGcTimeMs() - Math.round(ExecutorGc.HEALTHY_SHARE * appMs));
        return List.of(Finding.builder(ID, severity)
                .title("Driver spent " + Units.percent(ratio) + " of the application in GC")
                .message("The driver spent " + Units.duration(app.driverGcTimeMs()) + " of the application's "
                        + Units.duration(appMs) + " (" + Units.percent(ratio) + ") in JVM garbage collection"
                        + (conf.isLocal() ? ", including the GC of tasks, which run in the driver in local mode" : "")
                        + (judged ? "." : "; a short run, so only a share this large is reported."))
                .recommendation("Give the driver more heap: " + more.phrase() + " (set it before the driver JVM"
                        + " starts, e.g. on the spark-submit line), and keep large data off the driver: avoid collect()"
                        + " and toPandas() on big results, and keep spark.driver.maxResultSize (now "
                        + conf.current("spark.driver.maxResultSize").value() + ") in check.")
                .executor("driver")
                .advise(more)
                .configKeys("spark.driver.maxResultSize")
                .impact(saved, 0, "driver GC time above " + Units.percent(ExecutorGc.HEALTHY_SHARE)
                        + " of the application")
                .detail("driverGcTimeMs", app.driverGcTimeMs())
                .detail("appDurationMs", appMs)
                .detail("gcRatio", Units.round2(ratio))
                .detail("driverMemoryBytes", mem)
                .build());
    }
}
