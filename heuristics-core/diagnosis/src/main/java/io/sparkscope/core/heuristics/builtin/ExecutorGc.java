package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.analysis.efficiency.Efficiency;
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
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Share of task time spent in JVM garbage collection. Too much means tasks lack heap; almost none on
 * a big heap means memory is probably over-allocated and could serve more executors.
 */
public final class ExecutorGc implements Heuristic {
    public static final String ID = "ExecutorGc";
    /** A JVM doing useful work spends about this share or less of its time collecting: the saving is what is above. */
    static final double HEALTHY_SHARE = 0.05;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.1",
                        "GC time / executor run time at or above which it is LOW"),
                new Threshold("ratio.high", "0.2",
                        "GC time / executor run time at or above which it is HIGH"),
                new Threshold("minTaskTimeMs", "60000",
                        "total task time (ms) from which the share is fully judged"),
                new Threshold("floorTaskTimeMs", "10000",
                        "below this total task time (ms) nothing is judged; up to minTaskTimeMs only ratio.high, as LOW"),
                new Threshold("underuse.ratio", "0.01",
                        "a GC share below this with large heaps is LOW over-allocation"),
                new Threshold("underuse.heapBytes", "16g",
                        "heaps at least this large count as large for underuse.ratio"),
                new Threshold("churn.peakHeapShare", "0.5",
                        "a measured peak heap below this share of the heap means GC comes from allocation churn, not"
                                + " a short heap: no larger heap is advised"));
    }

    @Override
    public String description() {
        return """
                Σ jvmGcTime / Σ executorRunTime ≥ 0.1 LOW, ≥ 0.2 HIGH over ≥ `minTaskTimeMs` 60 s of task time;
                between `floorTaskTimeMs` 10 s and 60 s only ≥ 0.2, as LOW; because GC time is time tasks do not
                work. Below `underuse.ratio` 0.01 with heaps ≥ `underuse.heapBytes` 16g → LOW "over-allocated" (not
                in local mode). When the largest measured heap stayed under `churn.peakHeapShare` 0.5 of the heap,
                the GC comes from allocation churn: it advises fewer short-lived objects, not a larger heap. So too
                when RDD stages whose tasks used no Spark execution memory and spilled nothing hold at least half of
                the GC: the heap holds the job's own objects, and the advice is at the code (no per-task collections,
                let Spark aggregate), naming the stage. On
                Databricks (executors sized by node type) it names a node type, not `spark.executor.memory`.
                Impact: GC above 5 % of run time, over the application's parallelism.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        // The whole run's totals: a long-running application's snapshot lists only its recent stages.
        long gc = app.totals().metrics().get(TaskMetric.JVM_GC_TIME);
        long run = app.totals().metrics().get(TaskMetric.EXECUTOR_RUN_TIME);
        if (run <= 0 || run < cfg.count(ID + ".floorTaskTimeMs")) {
            return List.of();
        }
        // Below minTaskTimeMs a share says less (a few GC pauses can dominate a short run): only an extreme share
        // is reported, and only as LOW.
        boolean judged = run >= cfg.count(ID + ".minTaskTimeMs");
        double ratio = (double) gc / run;
        SparkSettings conf = SparkSettings.of(app);
        TaskHeap heap = TaskHeap.of(app, conf);
        String memKey = heap.key();
        long mem = heap.bytes();
        Severity severity = cfg.levels(ID + ".ratio").grade(ratio, judged);
        if (severity != Severity.NONE) {
            long healthy = Math.round(HEALTHY_SHARE * run);
            long saved = Math.max(0, gc - healthy);
            SettingAdvice more = heap.more("tasks spent " + Units.percent(ratio) + " of their run time in GC");
            long peakHeap = Efficiency.of(app).maxPeakHeapBytes();
            // A heap that never filled is not short: the collector runs because tasks allocate and drop objects fast.
            boolean lowPeak = peakHeap > 0 && mem > 0 && peakHeap < cfg.threshold(ID + ".churn.peakHeapShare") * mem;
            // Where the peaks are not measured, the stages still tell whose objects the collector chases.
            CodeObjects code = lowPeak ? null : CodeObjects.of(app, gc);
            boolean churn = lowPeak || code != null;
            boolean nodeType = !conf.isLocal() && conf.platform().executorsSizedByNodeType();
            String churnAdvice = "Cache less or cache serialized (MEMORY_AND_DISK_SER), prefer built-in functions to"
                    + " UDFs that create many objects, and use Kryo (spark.serializer) for RDD data.";
            String recommendation = code != null
                    ? "The collector chases objects the job's own functions create: " + code.stageLabel() + ", an"
                    + " RDD stage whose tasks used none of Spark's execution memory and spilled nothing, spent "
                    + Units.duration(code.gcMs()) + " of its " + Units.duration(code.runMs()) + " run time in GC. A"
                    + " larger heap only puts off collecting objects the code keeps creating. Change the code: keep"
                    + " per key only what is used (a count in a primitive array, not a list of strings), build no"
                    + " per-task collections of boxed objects (a HashMap of lists per partition), or let Spark"
                    + " aggregate (reduceByKey, aggregateByKey: its buffers stay in its own memory and spill); reuse"
                    + " objects in map functions, and prefer primitives or Kryo (spark.serializer) for RDD data."
                    : churn
                    ? "The heap is not short (its largest use was " + Units.bytes(peakHeap) + " of "
                    + Units.bytes(mem) + ", " + Units.percent((double) peakHeap / mem) + "): the time goes to"
                    + " collecting short-lived objects, so a larger heap would not help. Reduce the churn: prefer"
                    + " built-in functions to UDFs that create objects per row, reuse objects in map functions, use"
                    + " Kryo (spark.serializer) for RDD data, and avoid building large collections per task."
                    : nodeType
                    ? "Give each task more heap: choose a worker node type with more memory per core than "
                    + conf.platform().nodeType() + " (executors on this platform take their node's memory, so "
                    + memKey + " is not the setting to change). " + churnAdvice
                    : "Give each task more heap: " + more.phrase()
                    + (conf.isLocal() ? "" : ", or fewer spark.executor.cores so fewer tasks share it") + ". "
                    + churnAdvice;
            Finding.Builder f = Finding.builder(ID, severity)
                    .title("Executors spent " + Units.percent(ratio) + " of task time in GC")
                    .message("Tasks spent " + Units.duration(gc) + " of their " + Units.duration(run) + " run time ("
                            + Units.percent(ratio) + ") in JVM garbage collection"
                            + (judged ? "." : "; a short run (under " + Units.duration(cfg.count(ID
                            + ".minTaskTimeMs")) + " of task time), so only a share this large is reported."))
                    .recommendation(recommendation)
                    .impact(WallTime.ofApp(app, saved), saved, "GC time above " + Units.percent(HEALTHY_SHARE)
                            + " of task run time, spread over the application's parallelism")
                    .detail("gcTimeMs", gc)
                    .detail("runTimeMs", run)
                    .detail("gcRatio", Units.round2(ratio))
                    .detail("memoryBytes", mem)
                    .detail("peakHeapBytes", peakHeap)
                    .detail("cause", code != null ? "codeObjects" : churn ? "allocationChurn" : "heap");
            if (code != null) {
                f.detail("gcStage", code.stageKey());
            }
            if (!churn && !nodeType) {
                f.advise(more);
            }
            worstExecutors(app).forEach(e -> f.executor(e.executorId()));
            return List.of(f.build());
        }
        if (!conf.isLocal() && !conf.platform().executorsSizedByNodeType() && ratio < cfg.threshold(ID + ".underuse.ratio")
                && mem >= cfg.bytes(ID + ".underuse.heapBytes")) {
            SettingAdvice less = conf.advise("spark.executor.memory", Units.sparkSize(mem * 2 / 3),
                    "tasks spent only " + Units.percent(ratio) + " of their run time in GC with "
                            + Units.bytes(mem) + " heaps");
            return List.of(Finding.builder(ID, Severity.LOW)
                    .location("underused")
                    .title("Executor memory may be over-allocated")
                    .message("Tasks spent only " + Units.percent(ratio) + " of their " + Units.duration(run)
                            + " run time in GC with " + Units.bytes(mem) + " executors: memory may be over-allocated.")
                    .recommendation("Try smaller executors: " + less.phrase() + ", and watch for spills and GC; the"
                            + " memory saved can run more executors or other applications.")
                    .advise(less)
                    .detail("gcTimeMs", gc)
                    .detail("runTimeMs", run)
                    .detail("gcRatio", Units.round2(ratio))
                    .detail("memoryBytes", mem)
                    .build());
        }
        return List.of();
    }

    /**
     * The GC of RDD stages whose tasks used none of Spark's execution memory and spilled nothing: their heap holds
     * only what the job's own functions (map, mapPartitions, UDF-like lambdas) create, so a larger heap does not
     * remove it. Null unless such stages hold at least half of the application's GC time.
     *
     * @param stageLabel the stage of the most such GC, as findings name stages
     */
    record CodeObjects(String stageKey, String stageLabel, long gcMs, long runMs) {
        static CodeObjects of(AppSnapshot app, long appGcMs) {
            Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
            long codeGc = 0;
            StageSummary worst = null;
            for (StageSummary s : app.stages()) {
                StageTotals t = s.totals();
                if (t == null || kinds.get(s.key()) != Facts.StageKind.RDD
                        || t.get(TaskMetric.PEAK_EXECUTION_MEMORY) > 0 || t.get(TaskMetric.MEMORY_BYTES_SPILLED) > 0) {
                    continue;
                }
                codeGc += t.get(TaskMetric.JVM_GC_TIME);
                if (worst == null || t.get(TaskMetric.JVM_GC_TIME) > worst.totals().get(TaskMetric.JVM_GC_TIME)) {
                    worst = s;
                }
            }
            if (worst == null || appGcMs <= 0 || codeGc * 2 < appGcMs) {
                return null;
            }
            return new CodeObjects(worst.key(), Facts.stageLabel(worst, app), worst.totals().get(TaskMetric.JVM_GC_TIME),
                    worst.totals().get(TaskMetric.EXECUTOR_RUN_TIME));
        }
    }

    private static List<ExecutorSummary> worstExecutors(AppSnapshot app) {
        return Facts.taskRunners(app).stream().filter(e -> e.totalRunTime() > 0)
                .sorted(Comparator.comparingDouble((ExecutorSummary e) -> (double) e.totalGcTime() / e.totalRunTime())
                        .reversed())
                .limit(3).toList();
    }
}
