package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/**
 * Share of the application's wall time the driver spent in GC (thesis §4.2.4). Silent when the driver's GC time is
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
        if (app.driverGcTimeMs() < 0 || appMs <= 0 || appMs < cfg.count(ID + ".minAppMs")) {
            return List.of();
        }
        double ratio = (double) app.driverGcTimeMs() / appMs;
        Severity severity = Severity.atOrAbove(ratio, cfg.threshold(ID + ".ratio.low"), cfg.threshold(ID + ".ratio.high"));
        if (severity == Severity.NONE) {
            return List.of();
        }
        SparkSettings conf = SparkSettings.of(app);
        long mem = conf.driverMemoryBytes();
        return List.of(Finding.builder(ID, severity)
                .title("Driver spent " + Units.percent(ratio) + " of the application in GC")
                .message("The driver spent " + Units.duration(app.driverGcTimeMs()) + " of the application's "
                        + Units.duration(appMs) + " (" + Units.percent(ratio) + ") in JVM garbage collection"
                        + (conf.isLocal() ? ", including the GC of tasks, which run in the driver in local mode." : "."))
                .recommendation("Raise spark.driver.memory (now " + Units.bytes(mem) + ", try "
                        + Units.sparkSize(mem * 3 / 2) + "), and keep large data off the driver: avoid collect() and"
                        + " toPandas() on big results, and limit spark.driver.maxResultSize (now "
                        + conf.get("spark.driver.maxResultSize", "1g") + ").")
                .executor("driver")
                .configKeys("spark.driver.memory", "spark.driver.maxResultSize")
                .detail("driverGcTimeMs", app.driverGcTimeMs())
                .detail("appDurationMs", appMs)
                .detail("gcRatio", Units.round2(ratio))
                .detail("driverMemoryBytes", mem)
                .build());
    }
}
