package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;
import java.util.OptionalInt;

/**
 * Cores per executor: more than about five strains HDFS clients and wastes node leftovers;
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
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("cores.low", "6",
                        "cores per executor at or above which it is LOW"),
                new Threshold("cores.high", "8",
                        "cores per executor at or above which it is HIGH"),
                new Threshold("singleCore", "true",
                        "whether exactly one core per executor is reported (LOW)"));
    }

    @Override
    public String description() {
        return """
                cores per executor (as offered, else `spark.executor.cores`) ≥ `cores.low` 6 LOW, ≥ `cores.high` 8
                HIGH, because many concurrent tasks strain HDFS clients and shared memory; exactly 1 → LOW
                (`singleCore`), because each task pays for a JVM. Not in local mode, and not on GPU executors, whose
                task concurrency is set by the GPU share while their cores feed I/O, and not on Databricks, whose
                executors take their worker node's cores.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        // Local mode has no executors; GPU executors (RAPIDS) run as many tasks as their GPU share allows
        // (spark.task.resource.gpu.amount), and their CPU cores feed I/O and shuffle, so many cores are expected.
        // Databricks gives each worker node one executor with all its cores: their number is the node type's.
        if (conf.isLocal() || conf.gpuExecutors() || conf.platform().executorsSizedByNodeType()) {
            return List.of();
        }
        OptionalInt known = conf.executorCores(app);
        if (known.isEmpty() || known.getAsInt() <= 0) {
            return List.of();
        }
        int cores = known.getAsInt();
        Severity severity = cfg.levels(ID + ".cores").grade(cores);
        long mem = conf.executorMemoryBytes();
        if (severity != Severity.NONE) {
            String why = cores + " concurrent tasks per executor strain HDFS clients and shared memory";
            SettingAdvice five = conf.advise(KEY, "5", why);
            SettingAdvice memory = conf.advise("spark.executor.memory", Units.sparkSize(Math.max(Units.GiB,
                    mem * 5 / cores)), "keeps memory per core the same with 5 cores");
            return List.of(Finding.builder(ID, severity).advise(five).advise(memory)
                    .location("tooMany")
                    .title(cores + " cores per executor")
                    .message("Executors run " + cores + " tasks at once. Beyond about five concurrent tasks, HDFS"
                            + " clients and shared memory become bottlenecks, and big executors leave node cores"
                            + " unused.")
                    .recommendation("Try " + five.phrase() + " with " + memory.phrase() + ", using more executors"
                            + " for the same total.")
                    .detail("executorCores", cores)
                    .build());
        }
        if (cores == 1 && cfg.flag(ID + ".singleCore")) {
            String why = "single-core executors each pay for a JVM, broadcast copies and memory overhead";
            SettingAdvice four = conf.advise(KEY, "4", why);
            SettingAdvice memory = conf.advise("spark.executor.memory", Units.sparkSize(mem * 4),
                    "keeps memory per core the same with 4 cores");
            return List.of(Finding.builder(ID, Severity.LOW).advise(four).advise(memory)
                    .location("singleCore")
                    .title("1 core per executor")
                    .message("Executors have a single core" + (conf.isSet(KEY) ? "" : " (the "
                            + conf.platform().manager().label + " default, as " + KEY + " is unset)") + ", so every task pays for its own JVM, broadcast copies and"
                            + " memory overhead.")
                    .recommendation("Try " + four.phrase() + " with " + memory.phrase() + " and a quarter of the"
                            + " executors.")
                    .detail("executorCores", 1)
                    .build());
        }
        return List.of();
    }
}
