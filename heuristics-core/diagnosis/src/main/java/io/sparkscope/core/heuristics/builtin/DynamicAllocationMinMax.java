package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Bounds of dynamic allocation. Unbounded growth lets one application take a shared cluster;
 * inconsistent bounds make Spark refuse to start or behave unexpectedly.
 */
public final class DynamicAllocationMinMax implements Heuristic {
    public static final String ID = "DynamicAllocationMinMax";
    static final String MIN = "spark.dynamicAllocation.minExecutors";
    static final String MAX = "spark.dynamicAllocation.maxExecutors";
    static final String INITIAL = "spark.dynamicAllocation.initialExecutors";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("maxExecutorsAbove", "900",
                        "spark.dynamicAllocation.maxExecutors above this is LOW"));
    }

    @Override
    public String description() {
        return """
                `maxExecutors` unset → LOW (suggests the widest stage in two waves); min > max or `initialExecutors`
                outside [min, max] → HIGH, because Spark rejects or misreads it; max > `maxExecutorsAbove` 900 →
                LOW, because so many executors burden the driver.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        if (!conf.dynamicAllocation()) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        int min = conf.integer(MIN).orElse(0);
        OptionalInt max = conf.integer(MAX);
        // Only an explicit initialExecutors can be out of range; Spark starts with max(min, initial, instances).
        OptionalInt initial = conf.integer(INITIAL);
        if (max.isEmpty()) {
            int widest = app.stages().stream().mapToInt(s -> s.numTasks()).max().orElse(0);
            int cores = Math.max(1, conf.executorCores(app).orElse(1));
            long peak = Math.max(Math.max(1, min), (long) Math.ceil(widest / (cores * 2.0)));
            Finding.Builder f = Finding.builder(ID, Severity.LOW)
                    .location("maxUnset")
                    .title("No upper bound on executors")
                    .message(MAX + " is not set, so dynamic allocation may request executors without limit and take"
                            + " a shared cluster's capacity.");
            if (widest > 0) {
                var a = conf.advise(MAX, Long.toString(peak), "the widest stage ran " + widest + " tasks on "
                        + cores + "-core executors");
                f.advise(a).recommendation("Bound it by what the application needs at its peak: " + a.phrase()
                        + " runs the widest stage (" + widest + " tasks) in two waves of " + cores
                        + "-core executors.");
            } else {
                f.recommendation("Set " + MAX + " to what the application needs at its peak (total tasks of the widest"
                        + " stage / (spark.executor.cores × 2–3)).");
            }
            out.add(f.configKeys(MAX)
                    .detail("minExecutors", min)
                    .detail("widestStageTasks", widest)
                    .build());
        } else {
            int maxValue = max.getAsInt();
            if (min > maxValue) {
                out.add(Finding.builder(ID, Severity.HIGH)
                        .location("minAboveMax")
                        .title("minExecutors is above maxExecutors")
                        .message(MIN + " = " + min + " is above " + MAX + " = " + maxValue + ".")
                        .recommendation("Make " + MIN + " ≤ " + MAX + "; Spark rejects this combination.")
                        .configKeys(MIN, MAX)
                        .detail("minExecutors", min)
                        .detail("maxExecutors", maxValue)
                        .build());
            }
            if (initial.isPresent() && (initial.getAsInt() < min || initial.getAsInt() > maxValue)) {
                out.add(Finding.builder(ID, Severity.HIGH)
                        .location("initialOutside")
                        .title("initialExecutors outside [min, max]")
                        .message(INITIAL + " = " + initial.getAsInt() + " is outside [" + min + ", " + maxValue + "].")
                        .recommendation("Set " + INITIAL + " between " + MIN + " and " + MAX + " (" + min + "–"
                                + maxValue + ").")
                        .configKeys(INITIAL, MIN, MAX)
                        .detail("initialExecutors", initial.getAsInt())
                        .detail("minExecutors", min)
                        .detail("maxExecutors", maxValue)
                        .build());
            }
            long above = cfg.count(ID + ".maxExecutorsAbove");
            if (maxValue > above) {
                out.add(Finding.builder(ID, Severity.LOW)
                        .location("maxTooLarge")
                        .title("Very high maxExecutors")
                        .message(MAX + " = " + maxValue + " lets this application grow beyond " + above
                                + " executors.")
                        .recommendation("Lower " + MAX + " to the parallelism the application can use; very many"
                                + " executors burden the driver and a shared cluster.")
                        .configKeys(MAX)
                        .detail("maxExecutors", maxValue)
                        .build());
            }
        }
        return out;
    }
}
