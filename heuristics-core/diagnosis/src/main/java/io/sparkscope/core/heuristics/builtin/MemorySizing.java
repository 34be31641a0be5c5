package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.analysis.efficiency.ContainerMemory;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.ExecutorUse;
import io.sparkscope.core.analysis.efficiency.MemoryPeaks;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.List;

/**
 * Memory right-sizing from what Spark measured (the executors' and the driver's peak memory):
 * <ul>
 *   <li><b>Over-provisioned</b>: the largest heap any executor used stayed well under {@code spark.executor.memory}
 *       across the run, and nothing says memory was short (no memory failure, no disk spill, little GC). It gets a
 *       concrete {@code spark.executor.memory}: the peak plus a stated margin, rounded up as people write it
 *       ({@code 6g}), and the GB-hours the smaller containers would have saved. The same for the driver of a cluster
 *       application against {@code spark.driver.memory}.</li>
 *   <li><b>Under-provisioned</b>: tasks ran out of heap, the heap peaked near its maximum with heavy GC, or the
 *       cluster manager killed containers for exceeding their memory. It gets the value to raise, and which of the
 *       heap ({@code spark.executor.memory}), the overhead ({@code spark.executor.memoryOverhead}), the Python
 *       workers' memory ({@code spark.executor.pyspark.memory}) or Spark's off-heap memory
 *       ({@code spark.memory.offHeap.size}) it is, from the error and the peaks.</li>
 * </ul>
 * A peak heap includes garbage not collected yet, so it overstates what the data needed: a recommendation from it
 * is on the safe side. Executors whose memory Spark did not measure are not judged; when too little of the work
 * ran on measured executors, the over-provisioning rule stays silent. Local mode is judged only for running out of
 * memory (the heap there is the machine's own, and {@code spark.driver.memory}).
 */
public final class MemorySizing implements Heuristic {
    public static final String ID = "MemorySizing";
    static final String EXEC_MEM = "spark.executor.memory";
    static final String OVERHEAD = "spark.executor.memoryOverhead";
    static final String PYSPARK = "spark.executor.pyspark.memory";
    static final String OFF_HEAP = "spark.memory.offHeap.size";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("unusedShare.low", "0.5",
                        "1 - largest peak heap / heap at or above which over-provisioning is LOW"),
                new Threshold("unusedShare.high", "0.75",
                        "the same share at or above which it is HIGH"),
                new Threshold("margin", "0.25",
                        "headroom added to the peak for the recommended heap (0.25 = 25 %)"),
                new Threshold("minMeasuredShare", "0.5",
                        "share of task time run by executors with measured memory needed to judge"),
                new Threshold("minSavingBytes", "1g",
                        "the recommended heap must save at least this much per executor"),
                new Threshold("minGbHours", "1",
                        "below this many GB-hours saved only unusedShare.high is reported, as LOW"),
                new Threshold("nearMax.share", "0.9",
                        "a peak heap at least this share of the heap is near the limit"),
                new Threshold("nearMax.gcShare", "0.1",
                        "with a GC share of run time at least this, near the limit is LOW"),
                new Threshold("raiseFactor", "1.5",
                        "a heap short of memory is raised at least this many times"));
    }

    @Override
    public String description() {
        return """
                memory right-sizing from the measured peaks (executors' and the driver's `JVMHeapMemory` and
                process-tree memory, see README "Efficiency and cost"). *Over-provisioned*: 1 − largest executor
                peak heap / `spark.executor.memory` ≥ `unusedShare.low` 0.5 LOW, ≥ `unusedShare.high` 0.75 HIGH,
                when executors with measured memory ran ≥ `minMeasuredShare` 50 % of the task time, the recommended
                heap (peak × (1 + `margin` 0.25), rounded up: whole `g` to 8g, even `g` to 32g, then multiples of
                4g, at least 1g) saves ≥ `minSavingBytes` 1g per executor, and nothing says memory was short (no
                memory failure, no disk spill, GC share < `nearMax.gcShare` 0.1); below `minGbHours` 1 GB-hour saved
                only ≥ 0.75, as LOW. Because memory held and never used is paid for and keeps other executors off
                the cluster; a peak heap counts garbage not yet collected, so the value is on the safe side. The
                same rule, LOW, for a cluster application's driver against `spark.driver.memory`. Impact: none in
                time; the details and message give the GB-hours saved. *Under-provisioned*: task attempts out of
                heap (`OutOfMemoryError: Java heap space`, `GC overhead limit exceeded`, execution memory not
                acquired) → HIGH, raise the heap (`raiseFactor` 1.5×, at least the peak + margin); containers killed
                for memory (YARN "exceeding memory limits", exit 137, `OOMKilled`) → HIGH, raise
                `spark.executor.memoryOverhead` (2×, at least what the processes used outside the heap + margin);
                Python workers out of memory → HIGH, raise `spark.executor.pyspark.memory` when set, else the
                overhead; off-heap execution memory short with `spark.memory.offHeap.enabled` → HIGH, raise
                `spark.memory.offHeap.size`; a peak heap ≥ `nearMax.share` 0.9 of the heap with GC ≥ 0.1 of run time
                → LOW, raise the heap. Because each of these is fixed by a different setting, and a larger heap does
                not help memory outside it. Impact: the failed attempts' task time (GC above 5 % for the full-heap
                case). Reconciled with ExecutorGc, MemoryConfig, DiskSpill, CoreNumber on `spark.executor.memory`:
                on equal impact the measured finding comes first in the catalogue and sets the value. Local mode:
                only running out of memory is judged (`spark.driver.memory`).
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        Efficiency eff = Efficiency.of(app);
        List<Finding> out = new ArrayList<>();
        boolean python = false;
        for (ExecutorUse u : eff.executors()) {
            python |= u.peaks().pythonRss() > 0;
        }
        MemoryFailures failures = MemoryFailures.of(app, conf, python);
        double margin = cfg.threshold(ID + ".margin");
        double gcShare = gcShare(app);
        // In local mode the heap is the driver's, as its block manager tells when spark.driver.memory is unset.
        long heap = eff.local() && !eff.executors().isEmpty() ? eff.executors().get(0).containerBytes()
                : eff.local() ? conf.driverMemoryBytes() : conf.executorMemoryBytes();
        String heapKey = eff.local() ? "spark.driver.memory" : EXEC_MEM;
        long peakHeap = eff.maxPeakHeapBytes();

        boolean heapShort = failures.has(MemoryFailures.Shortage.HEAP) || failures.has(MemoryFailures.Shortage.OFF_HEAP) && !offHeapEnabled(conf);
        boolean heavyGc = peakHeap > 0 && peakHeap >= cfg.threshold(ID + ".nearMax.share") * heap
                && gcShare >= cfg.threshold(ID + ".nearMax.gcShare");
        if (heapShort || heavyGc) {
            out.add(raiseHeap(app, conf, cfg, failures, heapKey, heap, peakHeap, gcShare, heapShort, margin));
        }
        if (!eff.local() && failures.has(MemoryFailures.Shortage.OVERHEAD)) {
            out.add(raiseOverhead(app, conf, eff, failures, margin));
        }
        if (!eff.local() && failures.has(MemoryFailures.Shortage.PYTHON)) {
            out.add(raisePython(app, conf, eff, failures, margin));
        }
        if (failures.has(MemoryFailures.Shortage.OFF_HEAP) && offHeapEnabled(conf)) {
            out.add(raiseOffHeap(app, conf, failures));
        }
        if (out.isEmpty() && !eff.local() && !heavyGc && diskSpill(app) == 0
                && gcShare < cfg.threshold(ID + ".nearMax.gcShare")) {
            Finding lower = lowerExecutors(app, conf, cfg, eff, margin);
            if (lower != null) {
                out.add(lower);
            }
        }
        if (!eff.local() && !failures.any()) {
            Finding driver = lowerDriver(app, conf, cfg, eff, margin);
            if (driver != null) {
                out.add(driver);
            }
        }
        return out;
    }

    // ---- over-provisioned -----------------------------------------------------------------------------------

    private static Finding lowerExecutors(AppSnapshot app, SparkSettings conf, HeuristicConfig cfg, Efficiency eff,
                                          double margin) {
        long measuredTask = 0;
        long allTask = 0;
        long peak = -1;
        String peakExecutor = null;
        int measured = 0;
        for (ExecutorUse u : eff.executors()) {
            allTask += u.taskMs();
            if (u.peaks().measured()) {
                measured++;
                measuredTask += u.taskMs();
                if (u.peaks().jvmHeap() > peak) {
                    peak = u.peaks().jvmHeap();
                    peakExecutor = u.executorId();
                }
            }
        }
        if (peak <= 0 || allTask <= 0 || (double) measuredTask / allTask < cfg.threshold(ID + ".minMeasuredShare")) {
            return null;
        }
        long heap = conf.executorMemoryBytes();
        long recommended = roundUp(Math.max(Units.GiB, (long) Math.ceil(peak * (1 + margin))));
        // A smaller heap shrinks the container with it: never below what the processes were measured to hold.
        long floor = containerFloorBytes(app);
        while (recommended < heap && ContainerMemory.executorWithHeap(conf, recommended).totalBytes() < floor) {
            recommended = roundUp(recommended + Units.GiB);
        }
        if (heap - recommended < cfg.bytes(ID + ".minSavingBytes")) {
            return null;
        }
        double unused = 1 - (double) peak / heap;
        long before = ContainerMemory.executor(conf).totalBytes();
        long after = ContainerMemory.executorWithHeap(conf, recommended).totalBytes();
        double savedGbHours = 0;
        double heldGbHours = 0;
        for (ExecutorUse u : eff.executors()) {
            savedGbHours += (double) u.lifetimeMs() * (before - after) / Units.GiB / 3_600_000.0;
            heldGbHours += (double) u.lifetimeMs() * before / Units.GiB / 3_600_000.0;
        }
        boolean big = savedGbHours >= cfg.threshold(ID + ".minGbHours");
        Severity severity = cfg.levels(ID + ".unusedShare").grade(unused, big);
        if (severity == Severity.NONE) {
            return null;
        }
        String marginText = Units.percent(margin);
        SettingAdvice smaller = conf.advise(EXEC_MEM, Units.sparkSize(recommended), "the largest heap any executor"
                + " used was " + Units.bytes(peak) + " of " + Units.bytes(heap));
        int executors = eff.executors().size();
        // Databricks gives each executor its worker node's memory: the lever there is the node type.
        boolean nodeType = conf.platform().executorsSizedByNodeType();
        String recommendation = nodeType
                ? "Choose a worker node type with less memory per core than " + conf.platform().nodeType()
                + " (executors on this platform take their node's memory, so spark.executor.memory is not the"
                + " setting to change): the executors needed about " + Units.sparkSize(recommended) + " of heap, the"
                + " peak plus a " + marginText + " margin."
                : "Size executors to what they use: " + smaller.phrase() + ", the peak heap plus a " + marginText
                + " margin. Watch the next run's GC and spill; the memory freed can run more executors or other"
                + " applications.";
        Finding.Builder f = Finding.builder(ID, severity)
                .location("executorsOverProvisioned")
                .title("Executors used at most " + Units.bytes(peak) + " of their " + Units.bytes(heap) + " heap")
                .message("The largest heap any executor used (executor " + peakExecutor + ") was " + Units.bytes(peak)
                        + " of the " + Units.bytes(heap) + " spark.executor.memory (" + Units.percent(unused)
                        + " never used), measured on " + measured + " of " + executors + " executors. "
                        + (executors == 1 ? "The executor" : "The " + executors + " executors") + " held "
                        + Units.hours(heldGbHours) + " GB-hours of memory; with "
                        + Units.sparkSize(recommended) + " heaps they would have held " + Units.hours(savedGbHours)
                        + " GB-hours less. The peak counts garbage not yet collected, so the data needed less.")
                .recommendation(recommendation)
                .impact(Impact.of(0, 0, "saves " + Units.hours(savedGbHours) + " GB-hours of executor memory; no time"))
                .detail("peakHeapBytes", peak)
                .detail("heapBytes", heap)
                .detail("recommendedHeapBytes", recommended)
                .detail("margin", margin)
                .detail("unusedShare", Units.round2(unused))
                .detail("gbHoursHeld", Units.round2(heldGbHours))
                .detail("gbHoursSaved", Units.round2(savedGbHours))
                .detail("executorsMeasured", measured)
                .detail("executors", executors)
                .detail("containerFloorBytes", floor);
        if (!nodeType) {
            f.advise(smaller);
        }
        f.executor(peakExecutor);
        return f.build();
    }

    private static Finding lowerDriver(AppSnapshot app, SparkSettings conf, HeuristicConfig cfg, Efficiency eff,
                                       double margin) {
        MemoryPeaks p = eff.driverPeaks();
        long appMs = eff.appMs();
        if (!p.measured() || appMs <= 0 || app.driverGcTimeMs() > 0.05 * appMs) {
            return null;
        }
        long heap = conf.driverMemoryBytes();
        long recommended = roundUp(Math.max(Units.GiB, (long) Math.ceil(p.jvmHeap() * (1 + margin))));
        if (heap - recommended < cfg.bytes(ID + ".minSavingBytes")) {
            return null;
        }
        double unused = 1 - (double) p.jvmHeap() / heap;
        // The driver's container exists in cluster deploy mode; in client mode its heap is still memory held.
        long before = ContainerMemory.driver(conf, -1).totalBytes();
        long after = before - (heap - recommended) - overheadDrop(conf, heap, recommended);
        double savedGbHours = (double) appMs * (before - after) / Units.GiB / 3_600_000.0;
        Severity severity = cfg.levels(ID + ".unusedShare").grade(unused, savedGbHours >= cfg.threshold(ID + ".minGbHours"));
        if (severity == Severity.NONE) {
            return null;
        }
        SettingAdvice smaller = conf.advise("spark.driver.memory", Units.sparkSize(recommended),
                "the driver's heap peaked at " + Units.bytes(p.jvmHeap()) + " of " + Units.bytes(heap));
        return Finding.builder(ID, Severity.LOW)
                .location("driverOverProvisioned")
                .title("The driver used at most " + Units.bytes(p.jvmHeap()) + " of its " + Units.bytes(heap) + " heap")
                .message("The driver's heap peaked at " + Units.bytes(p.jvmHeap()) + " of the " + Units.bytes(heap)
                        + " spark.driver.memory (" + Units.percent(unused) + " never used) over the application's "
                        + Units.duration(appMs) + "; a " + Units.sparkSize(recommended) + " driver would have held "
                        + Units.hours(savedGbHours) + " GB-hours less.")
                .recommendation("Give the driver what it uses: " + smaller.phrase() + ", the peak heap plus a "
                        + Units.percent(margin) + " margin (raise it again if the application starts to collect"
                        + " large results).")
                .executor("driver")
                .advise(smaller)
                .impact(Impact.of(0, 0, "saves " + Units.hours(savedGbHours) + " GB-hours of driver memory; no time"))
                .detail("peakHeapBytes", p.jvmHeap())
                .detail("heapBytes", heap)
                .detail("recommendedHeapBytes", recommended)
                .detail("margin", margin)
                .detail("unusedShare", Units.round2(unused))
                .detail("gbHoursSaved", Units.round2(savedGbHours))
                .build();
    }

    private static long overheadDrop(SparkSettings conf, long heap, long recommended) {
        if (conf.isSet("spark.driver.memoryOverhead")) {
            return 0;
        }
        return Math.max(SparkSettings.MIN_OVERHEAD_BYTES, heap / 10) - Math.max(SparkSettings.MIN_OVERHEAD_BYTES,
                recommended / 10);
    }

    // ---- under-provisioned ----------------------------------------------------------------------------------

    private static Finding raiseHeap(AppSnapshot app, SparkSettings conf, HeuristicConfig cfg, MemoryFailures failures,
                                     String heapKey, long heap, long peakHeap, double gcShare, boolean heapShort,
                                     double margin) {
        long target = (long) Math.ceil(heap * cfg.threshold(ID + ".raiseFactor"));
        long recommended = roundUp(Math.max(target, (long) Math.ceil(Math.max(0, peakHeap) * (1 + margin))));
        String why = heapShort ? failures.count(MemoryFailures.Shortage.HEAP) + failures.count(MemoryFailures.Shortage.OFF_HEAP)
                + " task attempts ran out of heap" : "the heap peaked at " + Units.bytes(peakHeap) + " of "
                + Units.bytes(heap) + " with " + Units.percent(gcShare) + " of task time in GC";
        SettingAdvice more = conf.advise(heapKey, Units.sparkSize(recommended), why);
        long lost = failures.lostTaskMs(MemoryFailures.Shortage.HEAP) + failures.lostTaskMs(MemoryFailures.Shortage.OFF_HEAP);
        long gcSaved = heapShort ? 0 : gcAboveHealthy(app);
        Finding.Builder f = Finding.builder(ID, heapShort ? Severity.HIGH : Severity.LOW)
                .location("heap")
                .title(heapShort ? "Tasks ran out of heap (" + Units.count(failures.count(MemoryFailures.Shortage.HEAP)
                        + failures.count(MemoryFailures.Shortage.OFF_HEAP)) + " attempts)"
                        : "The heap peaked at " + Units.percent((double) peakHeap / heap) + " of its size with heavy GC")
                .message(heapShort
                        ? Units.count(failures.count(MemoryFailures.Shortage.HEAP) + failures.count(MemoryFailures.Shortage.OFF_HEAP))
                        + " task attempts failed for want of heap (" + failures.example(MemoryFailures.Shortage.HEAP, MemoryFailures.Shortage.OFF_HEAP)
                        + ")" + (peakHeap > 0 ? "; the largest heap measured was " + Units.bytes(peakHeap) + " of "
                        + Units.bytes(heap) : "") + "."
                        : "The largest heap an executor used was " + Units.bytes(peakHeap) + " of the "
                        + Units.bytes(heap) + " " + heapKey + ", and tasks spent " + Units.percent(gcShare)
                        + " of their run time in GC: the heap is full, and collecting it is what the tasks wait for.")
                .recommendation(conf.platform().executorsSizedByNodeType()
                        ? "Choose a worker node type with more memory per core than " + conf.platform().nodeType()
                        + " (executors on this platform take their node's memory, so spark.executor.memory is not"
                        + " the setting to change); smaller partitions also lower what one task holds at once."
                        : "Raise the heap: " + more.phrase() + (conf.isLocal() ? " (set it before the driver"
                        + " JVM starts)" : ", or give each task more of it with fewer spark.executor.cores")
                        + "; smaller partitions also lower what one task holds at once.")
                .impact(WallTime.ofApp(app, lost + gcSaved), lost + gcSaved, heapShort
                        ? "time of the task attempts that ran out of memory"
                        : "GC time above " + Units.percent(ExecutorGc.HEALTHY_SHARE) + " of task run time")
                .detail("shortOf", "heap")
                .detail("heapBytes", heap)
                .detail("peakHeapBytes", peakHeap)
                .detail("recommendedBytes", recommended)
                .detail("gcShare", Units.round2(gcShare))
                .detail("failedAttempts", failures.count(MemoryFailures.Shortage.HEAP) + failures.count(MemoryFailures.Shortage.OFF_HEAP));
        if (!conf.platform().executorsSizedByNodeType() || conf.isLocal()) {
            f.advise(more);
        }
        failures.stages(MemoryFailures.Shortage.HEAP).forEach(f::stage);
        failures.executors(MemoryFailures.Shortage.HEAP).forEach(f::executor);
        return f.build();
    }

    private static Finding raiseOverhead(AppSnapshot app, SparkSettings conf, Efficiency eff, MemoryFailures failures,
                                         double margin) {
        ContainerMemory c = ContainerMemory.executor(conf);
        long outside = 0; // the most memory measured outside the heap
        for (ExecutorUse u : eff.executors()) {
            if (u.peaks().processTreeMeasured()) {
                outside = Math.max(outside, u.peaks().usedBytes() - c.heapBytes());
            }
        }
        long recommended = roundUp(Math.max(2 * c.overheadBytes(), (long) Math.ceil(outside * (1 + margin))));
        SettingAdvice more = conf.advise(OVERHEAD, Units.sparkSize(recommended), failures.count(MemoryFailures.Shortage.OVERHEAD)
                + " times the cluster manager killed an executor for exceeding its memory");
        long lost = failures.lostTaskMs(MemoryFailures.Shortage.OVERHEAD);
        Finding.Builder f = Finding.builder(ID, Severity.HIGH)
                .location("overhead")
                .title("Executors killed for exceeding their memory (" + Units.count(failures.count(MemoryFailures.Shortage.OVERHEAD))
                        + ")")
                .message("The cluster manager killed executors whose process grew past the container ("
                        + failures.example(MemoryFailures.Shortage.OVERHEAD) + "). The container is the heap ("
                        + Units.bytes(c.heapBytes()) + ") plus the overhead (" + Units.bytes(c.overheadBytes())
                        + ")" + (outside > 0 ? "; the processes used up to " + Units.bytes(outside)
                        + " outside the heap" : "") + ": memory outside the heap (network buffers, native libraries,"
                        + " Python workers) ran short, not the heap.")
                .recommendation("Raise the overhead: " + more.phrase() + ". A larger heap would not help here.")
                .advise(more)
                .impact(WallTime.ofApp(app, lost), lost, "time of the task attempts lost with killed executors")
                .detail("shortOf", "memoryOverhead")
                .detail("overheadBytes", c.overheadBytes())
                .detail("recommendedBytes", recommended)
                .detail("outsideHeapBytes", outside)
                .detail("kills", failures.count(MemoryFailures.Shortage.OVERHEAD));
        failures.executors(MemoryFailures.Shortage.OVERHEAD).forEach(f::executor);
        failures.stages(MemoryFailures.Shortage.OVERHEAD).forEach(f::stage);
        return f.build();
    }

    private static Finding raisePython(AppSnapshot app, SparkSettings conf, Efficiency eff, MemoryFailures failures,
                                       double margin) {
        long pythonPeak = 0;
        for (ExecutorUse u : eff.executors()) {
            pythonPeak = Math.max(pythonPeak, u.peaks().pythonRss());
        }
        boolean limited = conf.isSet(PYSPARK);
        String key = limited ? PYSPARK : OVERHEAD;
        long current = limited ? conf.size(PYSPARK, Units.MiB).orElse(0)
                : ContainerMemory.executor(conf).overheadBytes();
        long recommended = roundUp(Math.max(current * 3 / 2, (long) Math.ceil(pythonPeak * (1 + margin))));
        SettingAdvice more = conf.advise(key, Units.sparkSize(recommended), failures.count(MemoryFailures.Shortage.PYTHON)
                + " Python workers ran out of memory");
        long lost = failures.lostTaskMs(MemoryFailures.Shortage.PYTHON);
        Finding.Builder f = Finding.builder(ID, Severity.HIGH)
                .location("python")
                .title("Python workers ran out of memory (" + Units.count(failures.count(MemoryFailures.Shortage.PYTHON)) + ")")
                .message("Python workers failed for want of memory (" + failures.example(MemoryFailures.Shortage.PYTHON) + ")"
                        + (pythonPeak > 0 ? "; they used up to " + Units.bytes(pythonPeak) : "") + ". Python"
                        + " workers live outside the JVM heap, in " + (limited ? PYSPARK + " (set)"
                        : "the executor's memory overhead (" + PYSPARK + " is not set)") + ".")
                .recommendation("Raise the Python workers' memory: " + more.phrase() + "; a larger heap would not"
                        + " help them.")
                .advise(more)
                .impact(WallTime.ofApp(app, lost), lost, "time of the task attempts whose Python worker failed")
                .detail("shortOf", limited ? "pysparkMemory" : "memoryOverhead")
                .detail("currentBytes", current)
                .detail("recommendedBytes", recommended)
                .detail("pythonPeakBytes", pythonPeak)
                .detail("failedAttempts", failures.count(MemoryFailures.Shortage.PYTHON));
        failures.stages(MemoryFailures.Shortage.PYTHON).forEach(f::stage);
        return f.build();
    }

    private static Finding raiseOffHeap(AppSnapshot app, SparkSettings conf, MemoryFailures failures) {
        long current = conf.size(OFF_HEAP, 1).orElse(0);
        long recommended = roundUp(Math.max(Units.GiB, current * 3 / 2));
        SettingAdvice more = conf.advise(OFF_HEAP, Units.sparkSize(recommended), failures.count(MemoryFailures.Shortage.OFF_HEAP)
                + " task attempts could not get off-heap execution memory");
        long lost = failures.lostTaskMs(MemoryFailures.Shortage.OFF_HEAP);
        Finding.Builder f = Finding.builder(ID, Severity.HIGH)
                .location("offHeap")
                .title("Tasks ran out of off-heap memory (" + Units.count(failures.count(MemoryFailures.Shortage.OFF_HEAP)) + ")")
                .message("With spark.memory.offHeap.enabled=true, tasks failed to get execution memory ("
                        + failures.example(MemoryFailures.Shortage.OFF_HEAP) + ") from the " + Units.bytes(current)
                        + " of spark.memory.offHeap.size.")
                .recommendation("Raise Spark's off-heap memory: " + more.phrase() + " (the container grows with it).")
                .advise(more)
                .impact(WallTime.ofApp(app, lost), lost, "time of the task attempts that ran out of memory")
                .detail("shortOf", "offHeap")
                .detail("currentBytes", current)
                .detail("recommendedBytes", recommended)
                .detail("failedAttempts", failures.count(MemoryFailures.Shortage.OFF_HEAP));
        failures.stages(MemoryFailures.Shortage.OFF_HEAP).forEach(f::stage);
        return f.build();
    }

    // ---- numbers ----------------------------------------------------------------------------------------------

    /** Headroom above the largest measured process tree that any container advice keeps. */
    static final double CONTAINER_MARGIN = 0.10;

    /**
     * The least memory a container (heap + overhead + off-heap + PySpark memory) may be given: the largest process
     * tree any executor measured (JVM, Python and other resident sets, at their peaks) plus
     * {@link #CONTAINER_MARGIN}. Below it the cluster manager would have killed that executor. 0 when the process
     * tree was not measured.
     */
    static long containerFloorBytes(AppSnapshot app) {
        long peak = 0;
        for (ExecutorUse u : Efficiency.of(app).executors()) {
            if (u.peaks().processTreeMeasured()) {
                peak = Math.max(peak, u.peaks().usedBytes());
            }
        }
        return peak <= 0 ? 0 : (long) Math.ceil(peak * (1 + CONTAINER_MARGIN));
    }

    /** The process tree's largest measured peak (what {@link #containerFloorBytes} adds its margin to), or 0. */
    static long processTreePeakBytes(AppSnapshot app) {
        return (long) Math.floor(containerFloorBytes(app) / (1 + CONTAINER_MARGIN));
    }

    /**
     * A size as people write it, rounded up: at least 1g; whole gigabytes up to 8g, then even ones up to 32g, then
     * multiples of 4g.
     */
    static long roundUp(long bytes) {
        long g = Math.max(1, (bytes + Units.GiB - 1) / Units.GiB);
        if (g > 32) {
            g = (g + 3) / 4 * 4;
        } else if (g > 8) {
            g = (g + 1) / 2 * 2;
        }
        return g * Units.GiB;
    }

    private static boolean offHeapEnabled(SparkSettings conf) {
        return conf.bool("spark.memory.offHeap.enabled", false);
    }

    private static double gcShare(AppSnapshot app) {
        long gc = 0;
        long run = 0;
        for (StageSummary s : app.stages()) {
            gc += s.totals().get(TaskMetric.JVM_GC_TIME);
            run += s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
        }
        return run > 0 ? (double) gc / run : 0;
    }

    private static long gcAboveHealthy(AppSnapshot app) {
        long gc = 0;
        long run = 0;
        for (StageSummary s : app.stages()) {
            gc += s.totals().get(TaskMetric.JVM_GC_TIME);
            run += s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
        }
        return Math.max(0, gc - Math.round(ExecutorGc.HEALTHY_SHARE * run));
    }

    private static long diskSpill(AppSnapshot app) {
        long n = 0;
        for (StageSummary s : app.stages()) {
            n += s.totals().get(TaskMetric.DISK_BYTES_SPILLED);
        }
        return n;
    }
}
