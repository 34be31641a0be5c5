package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;
import java.util.OptionalInt;

/**
 * Cores per executor (thesis §2.1.1, §4.2.10): more than about five strains HDFS clients and wastes node leftovers;
 * one core gives up sharing broadcasts and memory between tasks in one JVM. Uses the cores executors actually
 * offered, so YARN's default of 1 core shows even when the key is unset. Not judged in local mode.
 */
public final class CoreNumber implements Heuristic {
    public static final String ID = "CoreNumber";
    static final String KEY = "spark.executor.cores";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        if (conf.isLocal()) {
            return List.of();
        }
        OptionalInt known = conf.executorCores(app);
        if (known.isEmpty() || known.getAsInt() <= 0) {
            return List.of();
        }
        int cores = known.getAsInt();
        Severity severity = Severity.atOrAbove(cores, cfg.threshold(ID + ".cores.low"), cfg.threshold(ID + ".cores.high"));
        if (severity != Severity.NONE) {
            return List.of(Finding.builder(ID, severity)
                    .location("tooMany")
                    .title(cores + " cores per executor")
                    .message("Executors run " + cores + " tasks at once. Beyond about five concurrent tasks, HDFS"
                            + " clients and shared memory become bottlenecks, and big executors leave node cores"
                            + " unused.")
                    .recommendation("Try " + KEY + "=5 (or 4) and scale spark.executor.memory down in proportion,"
                            + " using more executors for the same total.")
                    .configKeys(KEY, "spark.executor.memory")
                    .detail("executorCores", cores)
                    .build());
        }
        if (cores == 1 && cfg.flag(ID + ".singleCore")) {
            return List.of(Finding.builder(ID, Severity.LOW)
                    .location("singleCore")
                    .title("1 core per executor")
                    .message("Executors have a single core" + (conf.isSet(KEY) ? "" : " (the YARN default, as "
                            + KEY + " is unset)") + ", so every task pays for its own JVM, broadcast copies and"
                            + " memory overhead.")
                    .recommendation("Try " + KEY + "=4 with spark.executor.memory scaled up 4× and a quarter of the"
                            + " executors.")
                    .configKeys(KEY, "spark.executor.memory")
                    .detail("executorCores", 1)
                    .build());
        }
        return List.of();
    }
}
