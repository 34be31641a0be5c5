package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.analysis.whatif.ExecutorWhatIf;
import io.sparkscope.core.analysis.whatif.WhatIfOptions;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The time and cost a run would have had with other settings, as far as the executor what-if can tell: it replays
 * the run's tasks on {@code executors × cores} slots ({@link ExecutorWhatIf}), so it models
 * {@code spark.executor.instances} and {@code spark.executor.cores}; executor memory changes what the containers
 * cost but not, in the model, how long tasks take (less GC or spill is not predicted). Every other setting is "not
 * modelled". Today's figures are the run simulated the same way, so the model's own error cancels in the change.
 *
 * @param measuredMs   the run's measured wall time
 * @param today        the run as it ran, simulated
 * @param tuned        with the settings the model understands; null when none of them is one
 * @param priced       whether costs are money at the operator's prices (else core-hours)
 * @param prices       the prices (NONE when not priced)
 * @param modelled     the settings whose effect is in {@code tuned} (time and cost)
 * @param costOnly     the settings whose effect on cost is in {@code tuned}, but not on time
 * @param notModelled  the settings the model cannot predict
 * @param simulated    today's simulation, with its reasons to trust the numbers less ({@code caveats()})
 */
public record TunedWhatIf(long measuredMs, Estimate today, Estimate tuned, boolean priced, Prices prices,
                          List<String> modelled, List<String> costOnly, List<String> notModelled,
                          WhatIfResult simulated) {
    /** Settings the slot simulation replays. */
    public static final Set<String> TIME_KEYS = Set.of("spark.executor.instances", "spark.executor.cores");
    /** Settings that size the executors' containers: priced, their effect on task time not modelled. */
    public static final Set<String> MEMORY_KEYS = Set.of("spark.executor.memory", "spark.executor.memoryOverhead",
            "spark.executor.memoryOverheadFactor", "spark.executor.pyspark.memory", "spark.memory.offHeap.size",
            "spark.memory.offHeap.enabled");

    public TunedWhatIf {
        modelled = List.copyOf(modelled);
        costOnly = List.copyOf(costOnly);
        notModelled = List.copyOf(notModelled);
    }

    /**
     * One simulated shape of the run.
     *
     * @param containerBytes memory each executor's container holds
     * @param cost           money at the prices, else core-hours
     */
    public record Estimate(int executors, int coresPerExecutor, long containerBytes, long wallMs, double coreHours,
                           double gbHours, double cost) {
    }

    /** The change of the tuned time against today's simulated one (−0.25 = 25 % faster); 0 without a tuned one. */
    public double timeChange() {
        return tuned == null || today.wallMs() <= 0 ? 0 : (double) tuned.wallMs() / today.wallMs() - 1;
    }

    /** The change of the tuned cost against today's (−0.4 = 40 % cheaper); 0 without a tuned one. */
    public double costChange() {
        return tuned == null || today.cost() <= 0 ? 0 : tuned.cost() / today.cost() - 1;
    }

    /**
     * @param app      the run, read back from the store
     * @param settings the settings to use, key → value
     * @param prices   the operator's prices (NONE: core-hours)
     */
    public static TunedWhatIf of(AppSnapshot app, Map<String, String> settings, Prices prices) {
        WhatIfResult base = ExecutorWhatIf.analyze(app);
        SparkSettings conf = SparkSettings.of(app);
        List<String> modelled = new ArrayList<>();
        List<String> costOnly = new ArrayList<>();
        List<String> notModelled = new ArrayList<>();
        for (String key : settings.keySet()) {
            if (!base.local() && TIME_KEYS.contains(key) && whole(settings.get(key)) > 0) {
                modelled.add(key);
            } else if (!base.local() && MEMORY_KEYS.contains(key)) {
                costOnly.add(key);
            } else {
                notModelled.add(key);
            }
        }
        long container = ContainerMemory.executor(conf).totalBytes();
        Estimate today = estimate(WhatIfCost.of(app, base, prices), base.actualExecutors(), base.coresPerExecutor(),
                container);
        boolean priced = prices != null && prices.configured();
        if (modelled.isEmpty() && costOnly.isEmpty()) {
            return new TunedWhatIf(base.actualDurationMs(), today, null, priced, priced ? prices : Prices.NONE,
                    modelled, costOnly, notModelled, base);
        }
        int executors = modelled.contains("spark.executor.instances")
                ? whole(settings.get("spark.executor.instances")) : base.actualExecutors();
        int cores = modelled.contains("spark.executor.cores")
                ? whole(settings.get("spark.executor.cores")) : base.coresPerExecutor();
        WhatIfResult tunedRun = ExecutorWhatIf.analyze(app, new WhatIfOptions(WhatIfOptions.DEFAULTS.order(),
                new double[]{(double) executors / Math.max(1, base.actualExecutors())}), cores);
        long tunedContainer = ContainerMemory.executor(new SparkSettings(with(app.config(), settings),
                app.sparkVersion())).totalBytes();
        Estimate tuned = estimate(WhatIfCost.of(tunedRun, cores, tunedContainer, prices), executors, cores,
                tunedContainer);
        return new TunedWhatIf(base.actualDurationMs(), today, tuned, priced, priced ? prices : Prices.NONE,
                modelled, costOnly, notModelled, base);
    }

    private static Estimate estimate(WhatIfCost cost, int executors, int cores, long container) {
        for (WhatIfCost.Point p : cost.points()) {
            if (p.executors() == executors) {
                return new Estimate(executors, cores, container, p.wallMs(), p.coreHours(), p.gbHours(), p.cost());
            }
        }
        throw new IllegalStateException("the what-if did not simulate " + executors + " executors");
    }

    private static AppConfig with(AppConfig conf, Map<String, String> settings) {
        Map<String, String> spark = new LinkedHashMap<>(conf.sparkProperties());
        spark.putAll(settings);
        return new AppConfig(spark, conf.jvmInformation(), conf.systemProperties(), conf.hadoopProperties());
    }

    /** A positive whole number, or -1. */
    private static int whole(String value) {
        try {
            int n = Integer.parseInt(value == null ? "" : value.trim());
            return n > 0 ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
