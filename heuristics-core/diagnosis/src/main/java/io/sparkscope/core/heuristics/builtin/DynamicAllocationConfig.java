package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/**
 * Dynamic allocation removes idle executors; without an external shuffle service or shuffle tracking their shuffle
 * files go with them and stages recompute or hang. Shuffle tracking is on by default since
 * Spark 3.4, so an unset key is only a problem on older versions; when the version is unknown we say LOW, not HIGH.
 */
public final class DynamicAllocationConfig implements Heuristic {
    public static final String ID = "DynamicAllocationConfig";
    static final String SERVICE = "spark.shuffle.service.enabled";
    static final String TRACKING = "spark.dynamicAllocation.shuffleTracking.enabled";
    static final String DECOMMISSION = "spark.decommission.enabled";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return """
                dynamic allocation (not local) with neither `spark.shuffle.service.enabled` nor
                `spark.dynamicAllocation.shuffleTracking.enabled` (default true from Spark 3.4) → HIGH, because
                removing executors then deletes shuffle files later stages need; LOW if the version is unknown.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        if (!conf.dynamicAllocation()) {
            return List.of();
        }
        Boolean trackingDefault = trackingDefault(app.sparkVersion());
        boolean tracking = conf.bool(TRACKING, trackingDefault != null && trackingDefault);
        if (conf.bool(SERVICE, false) || tracking || conf.bool(DECOMMISSION, false)
                && conf.bool("spark.storage.decommission.shuffleBlocks.enabled", true)) {
            return List.of();
        }
        Severity severity = trackingDefault == null && !conf.isSet(TRACKING) ? Severity.LOW : Severity.HIGH;
        return List.of(Finding.builder(ID, severity)
                .title("Dynamic allocation can lose shuffle data")
                .message("spark.dynamicAllocation.enabled is true but neither " + SERVICE + " nor " + TRACKING
                        + " is true" + (severity == Severity.LOW ? " (as far as we can tell: the Spark version is"
                        + " unknown, and shuffle tracking is on by default since 3.4)" : "")
                        + ", so removing an idle executor deletes the shuffle files later stages need.")
                .recommendation("Keep shuffle files past their executor: " + tracking(conf).phrase() + " (Spark 3.0+, no"
                        + " cluster setup), or run the external shuffle service and set " + SERVICE + "=true.")
                .advise(tracking(conf))
                .configKeys("spark.dynamicAllocation.enabled", SERVICE)
                .detail("sparkVersion", app.sparkVersion() == null ? "" : app.sparkVersion())
                .detail(SERVICE, conf.get(SERVICE, "unset"))
                .detail(TRACKING, conf.get(TRACKING, "unset"))
                .build());
    }

    private static io.sparkscope.core.heuristics.SettingAdvice tracking(SparkSettings conf) {
        return conf.advise(TRACKING, "true", "dynamic allocation removes executors whose shuffle files are still needed");
    }

    /** Spark's default for shuffle tracking at this version: true from 3.4, false before; null when unknown. */
    static Boolean trackingDefault(String sparkVersion) {
        if (sparkVersion == null) {
            return null;
        }
        String[] parts = sparkVersion.trim().split("[.\\-]");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major > 3 || major == 3 && minor >= 4;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
