package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.analysis.efficiency.ContainerMemory;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Platform;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Executor and driver memory settings: huge heaps mean long GC pauses and wasted memory,
 * tiny ones lose a large share to the 384 MiB overhead floor. In local mode executor settings do not apply (tasks
 * run in the driver), so they are not judged — only pointed out when set to no effect.
 */
public final class MemoryConfig implements Heuristic {
    public static final String ID = "MemoryConfig";
    static final String EXEC_MEM = "spark.executor.memory";
    static final String OVERHEAD = "spark.executor.memoryOverhead";
    static final String CORES = "spark.executor.cores";
    /** EMR's option that sizes executors to whole nodes, overriding the executor settings' defaults. */
    static final String EMR_MAXIMIZE = " On EMR, maximizeResourceAllocation=true (spark classification) sizes"
            + " executors to whole nodes: set it to false so that these settings hold.";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("executorMemoryBytes.low", "16g",
                        "executor memory at or above which it is LOW"),
                new Threshold("executorMemoryBytes.high", "32g",
                        "executor memory at or above which it is HIGH"),
                new Threshold("smallExecutorMemoryBytes", "1g",
                        "executor memory at or below which it is LOW (the overhead floor weighs much)"),
                new Threshold("overheadRatio.low", "0.25",
                        "explicit memory overhead / executor memory at or above which it is LOW"),
                new Threshold("driverMemoryBytes.low", "16g",
                        "driver memory at or above which it is LOW"),
                new Threshold("clusterMemoryPerCoreBytes", "0",
                        "your nodes' memory / cores; 0 = unknown, the per-core check is skipped"),
                new Threshold("memoryPerCoreDeviation", "2",
                        "executor memory per core off by this factor or more is LOW"));
    }

    @Override
    public String description() {
        return """
                not in local mode: executor memory ≥ 16g LOW, ≥ 32g HIGH (long GC pauses, hard to place; not on GPU
                executors, which are sized per GPU); ≤ 1g LOW (the 384 MiB overhead floor eats a large share);
                explicit `memoryOverhead` ≥ 25 % of the heap LOW (not on GPU executors, which keep pinned memory
                off-heap); memory per core off by ≥ `memoryPerCoreDeviation` 2× from `clusterMemoryPerCoreBytes` (0
                = unknown, skipped) LOW; driver ≥ 16g LOW. In local mode: LOW only when `spark.executor.memory` is
                set (it has no effect there).
                """;
    }

    /**
     * An explicit overhead much larger than the heap's share. The lower value offered is the platform's own default
     * (0.4 of the heap for Python and R jobs on Kubernetes, else 0.1, at least 384 MiB), but never so low that the
     * container falls under the largest process tree an executor measured, plus a margin: the executor would be killed.
     */
    private static Finding overheadLarge(AppSnapshot app, SparkSettings conf, HeuristicConfig cfg, long mem,
                                         long overhead) {
        double ratio = (double) overhead / mem;
        if (ratio < cfg.threshold(ID + ".overheadRatio.low") || overhead <= SparkSettings.MIN_OVERHEAD_BYTES) {
            return null;
        }
        Platform platform = conf.platform();
        // The factor Spark would apply were the overhead unset: a set factor, else the platform's default.
        double factor = conf.overheadFactor("spark.executor");
        long platformDefault = Math.max(SparkSettings.MIN_OVERHEAD_BYTES, (long) (factor * mem));
        long floor = MemorySizing.containerFloorBytes(app);
        long others = ContainerMemory.executor(conf).totalBytes() - overhead; // heap, off-heap, PySpark memory
        long lower = Math.max(platformDefault, floor - others);
        if (lower > Units.GiB) {
            lower = MemorySizing.roundUp(lower); // written as people write it, and on the safe side
        }
        // Only worth saying when it frees a real share of the overhead.
        if (lower >= overhead || overhead - lower < Math.max(SparkSettings.MIN_OVERHEAD_BYTES, overhead / 4)) {
            return null;
        }
        String defaultText = "unset, it would be " + Units.percent(factor) + " of the heap (at least 384 MiB) for a "
                + platform.language().label + " job on " + platform.manager().label;
        String floorText = floor > 0 ? "; the executors' processes held up to "
                + Units.bytes(MemorySizing.processTreePeakBytes(app)) + ", so the container (heap + overhead) stays"
                + " at least " + Units.bytes(floor) : "";
        SettingAdvice advice = conf.advise(OVERHEAD, Units.sparkSize(lower), "the overhead is "
                + Units.percent(ratio) + " of the heap");
        return Finding.builder(ID, Severity.LOW).advise(advice)
                .location("overheadLarge")
                .title("Memory overhead is " + Units.percent(ratio) + " of executor memory")
                .message(OVERHEAD + " = " + Units.bytes(overhead) + " is " + Units.percent(ratio) + " of the "
                        + Units.bytes(mem) + " heap; " + defaultText + floorText + ".")
                .recommendation("Unless the application runs Python workers or native code that need it, try "
                        + advice.phrase() + " and give the memory to the heap or other executors.")
                .detail("overheadBytes", overhead)
                .detail("executorMemoryBytes", mem)
                .detail("overheadRatio", Units.round2(ratio))
                .detail("platformDefaultOverheadBytes", platformDefault)
                .detail("containerFloorBytes", floor)
                .build();
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        List<Finding> out = new ArrayList<>();
        if (conf.isLocal()) {
            if (conf.isSet(EXEC_MEM)) {
                out.add(Finding.builder(ID, Severity.LOW)
                        .location("ignoredInLocalMode")
                        .title("spark.executor.memory has no effect in local mode")
                        .message(EXEC_MEM + " = " + conf.get(EXEC_MEM, "") + " is set, but in local mode ("
                                + conf.master() + ") tasks run inside the driver, whose heap is spark.driver.memory"
                                + " (now " + Units.bytes(conf.driverMemoryBytes()) + ").")
                        .recommendation("Size spark.driver.memory instead (set it on the command line, before the"
                                + " driver JVM starts) and drop " + EXEC_MEM + ".")
                        .configKeys(EXEC_MEM, "spark.driver.memory")
                        .detail("executorMemoryBytes", conf.executorMemoryBytes())
                        .detail("driverMemoryBytes", conf.driverMemoryBytes())
                        .build());
            }
            return out;
        }
        Platform platform = conf.platform();
        if (platform.executorsSizedByNodeType()) {
            // Databricks sets each executor's cores and memory from the worker's node type (one executor per node):
            // an executor the node's size is how the platform works, and the executor settings are not the user's.
            return out;
        }
        long mem = conf.executorMemoryBytes();
        String memText = Units.bytes(mem) + (conf.isSet(EXEC_MEM) ? "" : " (Spark's default)");
        OptionalInt coreCount = conf.executorCores(app);
        // GPU executors are sized to feed one GPU each (RAPIDS): a large heap there is the norm, not waste.
        Severity big = conf.gpuExecutors() ? Severity.NONE : cfg.levels(ID + ".executorMemoryBytes").grade(mem);
        if (big != Severity.NONE) {
            String why = "large heaps mean long GC pauses and are hard to place";
            SettingAdvice smaller = conf.advise(EXEC_MEM, Units.sparkSize(Math.max(Units.GiB, mem / 2)), why);
            Finding.Builder f = Finding.builder(ID, big)
                    .location("executorMemoryLarge")
                    .title("Very large executors: " + Units.bytes(mem))
                    .message("Each executor has a " + memText + " heap. Large heaps mean long GC pauses, and large"
                            + " containers are hard to place and leave node memory unused.")
                    .advise(smaller)
                    .detail("executorMemoryBytes", mem);
            String cores = "half the spark.executor.cores";
            if (coreCount.isPresent() && coreCount.getAsInt() > 1) {
                SettingAdvice c = conf.advise(CORES, Integer.toString(coreCount.getAsInt() / 2), why);
                f.advise(c);
                cores = c.phrase();
            }
            out.add(f.recommendation("Use more, smaller executors: e.g. " + smaller.phrase() + " with " + cores
                    + ", keeping memory per core the same." + (platform.emr() ? EMR_MAXIMIZE : "")).build());
        }
        long overhead = conf.executorOverheadBytes();
        if (mem <= cfg.bytes(ID + ".smallExecutorMemoryBytes")) {
            double share = (double) overhead / (mem + overhead);
            String why = Units.percent(share) + " of each small container is memory overhead";
            SettingAdvice larger = conf.advise(EXEC_MEM, Units.sparkSize(Math.max(2 * Units.GiB, mem * 2)), why);
            Finding.Builder f = Finding.builder(ID, Severity.LOW).advise(larger);
            String cores = "twice the spark.executor.cores";
            if (coreCount.isPresent() && coreCount.getAsInt() > 0) {
                SettingAdvice c = conf.advise(CORES, Integer.toString(coreCount.getAsInt() * 2), why);
                f.advise(c);
                cores = c.phrase();
            }
            out.add(f
                    .location("executorMemorySmall")
                    .title("Small executors: " + Units.bytes(mem))
                    .message("Each executor has a " + memText + " heap plus " + Units.bytes(overhead)
                            + " overhead, so " + Units.percent(share) + " of every container is overhead rather than"
                            + " working memory.")
                    .recommendation("Use fewer, larger executors: e.g. " + larger.phrase() + " with " + cores
                            + " and half the executors.")
                    .detail("executorMemoryBytes", mem)
                    .detail("overheadBytes", overhead)
                    .detail("overheadShare", Units.round2(share))
                    .build());
        }
        OptionalLong explicitOverhead = conf.size(OVERHEAD, Units.MiB);
        // GPU executors (RAPIDS) keep pinned and spill memory off the heap, so a large overhead is their norm.
        if (explicitOverhead.isPresent() && mem > 0 && !conf.gpuExecutors()) {
            Finding f = overheadLarge(app, conf, cfg, mem, explicitOverhead.getAsLong());
            if (f != null) {
                out.add(f);
            }
        }
        long clusterPerCore = cfg.bytes(ID + ".clusterMemoryPerCoreBytes");
        OptionalInt cores = conf.executorCores(app);
        if (clusterPerCore > 0 && cores.isPresent() && cores.getAsInt() > 0) {
            long perCore = (mem + overhead) / cores.getAsInt();
            double factor = Math.max((double) perCore / clusterPerCore, (double) clusterPerCore / perCore);
            if (factor >= cfg.threshold(ID + ".memoryPerCoreDeviation")) {
                long suggested = Math.max(Units.GiB, clusterPerCore * cores.getAsInt() - overhead);
                SettingAdvice fit = conf.advise(EXEC_MEM, Units.sparkSize(suggested),
                        "memory per core should match the nodes' " + Units.bytes(clusterPerCore));
                out.add(Finding.builder(ID, Severity.LOW).advise(fit)
                        .location("memoryPerCore")
                        .title("Memory per core does not match the cluster")
                        .message("Executors get " + Units.bytes(perCore) + " per core (heap plus overhead over "
                                + cores.getAsInt() + " cores) while the cluster's nodes have "
                                + Units.bytes(clusterPerCore) + " per core, so either cores or memory of the nodes"
                                + " are left unusable.")
                        .recommendation("Keep the ratio of the nodes: with " + cores.getAsInt() + " cores, try "
                                + fit.phrase() + ".")
                        .detail("memoryPerCoreBytes", perCore)
                        .detail("clusterMemoryPerCoreBytes", clusterPerCore)
                        .detail("executorCores", cores.getAsInt())
                        .build());
            }
        }
        long driverMem = conf.driverMemoryBytes();
        if (driverMem >= cfg.bytes(ID + ".driverMemoryBytes.low")) {
            SettingAdvice smaller = conf.advise("spark.driver.memory", Units.sparkSize(Math.max(Units.GiB,
                    driverMem / 2)), "a " + Units.bytes(driverMem) + " driver rarely needs that much");
            out.add(Finding.builder(ID, Severity.LOW).advise(smaller)
                    .location("driverMemoryLarge")
                    .title("Large driver: " + Units.bytes(driverMem))
                    .message("spark.driver.memory is " + Units.bytes(driverMem) + ". The driver rarely needs that"
                            + " much unless the application collects large results to it.")
                    .recommendation("Keep the driver as small as the application allows (try " + smaller.phrase()
                            + ") and avoid collecting large data; the memory is better spent on executors.")
                    .executor("driver")
                    .detail("driverMemoryBytes", driverMem)
                    .build());
        }
        return out;
    }
}
