package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
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
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.1",
                        "driver GC time / application time at or above which it is LOW"),
                new Threshold("ratio.high", "0.2",
                        "driver GC time / application time at or above which it is HIGH"),
                new Threshold("minAppMs", "60000",
                        "application time (ms) from which the share is fully judged"),
                new Threshold("floorAppMs", "20000",
                        "below this application time (ms) nothing is judged; up to minAppMs only ratio.high, as LOW"));
    }

    @Override
    public String description() {
        return """
                driver GC / application time ≥ 0.1 LOW, ≥ 0.2 HIGH for apps ≥ `minAppMs` 60 s; between `floorAppMs`
                20 s and 60 s only ≥ 0.2, as LOW; silent when the driver's GC time is unknown. In local mode the
                driver is the executor too: the tasks' GC is taken out (ExecutorGc judges it). Because a collecting
                driver stalls scheduling for everyone. Impact: driver GC above 5 % of the application.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long appMs = app.durationMs();
        if (app.driverGcTimeMs() < 0 || appMs <= 0 || appMs < cfg.count(ID + ".floorAppMs")) {
            return List.of();
        }
        // Below minAppMs only an extreme share is reported, as LOW: start-up GC weighs more in a short run.
        boolean judged = appMs >= cfg.count(ID + ".minAppMs");
        SparkSettings conf = SparkSettings.of(app);
        long driverGc = app.driverGcTimeMs();
        if (conf.isLocal()) {
            // One JVM is driver and executor: its GC includes the tasks', which ExecutorGc already judges. Only the
            // GC the tasks do not account for is the driver's own; one process gets one memory finding.
            driverGc = Math.max(0, driverGc - app.totals().metrics().get(TaskMetric.JVM_GC_TIME));
        }
        double ratio = (double) driverGc / appMs;
        Severity severity = cfg.levels(ID + ".ratio").grade(ratio, judged);
        if (severity == Severity.NONE) {
            return List.of();
        }
        long mem = conf.driverMemoryBytes();
        SettingAdvice more = conf.advise("spark.driver.memory", Units.sparkSize(mem * 3 / 2),
                "the driver spent " + Units.percent(ratio) + " of the application in GC");
        long saved = Math.max(0, driverGc - Math.round(ExecutorGc.HEALTHY_SHARE * appMs));
        return List.of(Finding.builder(ID, severity)
                .title("Driver spent " + Units.percent(ratio) + " of the application in GC")
                .message("The driver spent " + Units.duration(driverGc) + " of the application's "
                        + Units.duration(appMs) + " (" + Units.percent(ratio) + ") in JVM garbage collection"
                        + (conf.isLocal() ? " outside the tasks (in local mode tasks run in the driver; their GC, "
                        + Units.duration(app.driverGcTimeMs() - driverGc) + ", is ExecutorGc's)" : "")
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
                .detail("driverGcTimeMs", driverGc)
                .detail("appDurationMs", appMs)
                .detail("gcRatio", Units.round2(ratio))
                .detail("driverMemoryBytes", mem)
                .build());
    }
}
