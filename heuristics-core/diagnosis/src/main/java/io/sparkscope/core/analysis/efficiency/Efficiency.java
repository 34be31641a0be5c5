package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.ArrayList;
import java.util.List;

/**
 * How much of what an application held it used: core-hours and GB-hours allocated against used, the share held
 * while only the driver worked, and the waste in each. One GB here is a GiB (2^30 bytes), as in Spark's {@code g}.
 *
 * <ul>
 *   <li>Cores allocated: each executor's lifetime × its cores (local mode: the driver's cores × the application's
 *       time). Used: its tasks' durations × {@code spark.task.cpus}. Idle = allocated − used.</li>
 *   <li>Memory allocated: each executor's lifetime × its container ({@link ContainerMemory}: heap + overhead +
 *       off-heap + PySpark memory; local mode: the driver's heap). Used: lifetime × its peak ({@link
 *       MemoryPeaks#usedBytes()}; local mode: the heap's), for the executors whose memory Spark measured; the waste is counted over those
 *       only ({@code byteMsAllocatedMeasured}), so an unmeasured executor is never called wasteful.</li>
 *   <li>Driver alone: the executors' cores and memory during the stretches in which no task ran anywhere.</li>
 * </ul>
 * In cluster mode the driver's own resources are not counted: the figures are about the executors.
 *
 * @param appMs                   the application's wall time
 * @param driverAloneMs           wall time in which no task ran
 * @param local                   the driver ran the tasks (local mode)
 * @param coreMsAllocated         Σ lifetime × cores (core-milliseconds)
 * @param coreMsUsed              Σ task time
 * @param coreMsDriverAlone       Σ cores × driver-alone time within the lifetime
 * @param byteMsAllocated         Σ lifetime × container bytes
 * @param byteMsAllocatedMeasured the same over the executors whose memory was measured
 * @param byteMsPeakUsed          Σ lifetime × peak used bytes over those executors
 * @param byteMsDriverAlone       Σ container bytes × driver-alone time within the lifetime
 * @param executors               per executor that ran tasks (local mode: the driver)
 * @param driverPeaks             the driver's own memory peaks ({@link MemoryPeaks#NONE} when not measured)
 * @param coverage                what was measured, and which settings would measure the rest
 * @param basis                   how used memory was counted: {@link MemoryPeaks.Basis#PROCESS_TREE} when every
 *                                measured executor's process tree was measured, else {@link MemoryPeaks.Basis#JVM}
 */
public record Efficiency(long appMs, long driverAloneMs, boolean local,
                         double coreMsAllocated, double coreMsUsed, double coreMsDriverAlone,
                         double byteMsAllocated, double byteMsAllocatedMeasured, double byteMsPeakUsed,
                         double byteMsDriverAlone,
                         List<ExecutorUse> executors, MemoryPeaks driverPeaks, PeakCoverage coverage,
                         MemoryPeaks.Basis basis) {

    static final double MS_PER_HOUR = 3_600_000.0;
    static final double GIB = Units.GiB;

    public Efficiency {
        executors = List.copyOf(executors);
    }

    public static Efficiency of(AppSnapshot app) {
        SparkSettings conf = SparkSettings.of(app);
        long start = app.startTime() > 0 ? app.startTime() : firstKnownTime(app);
        long end = app.endTime() > 0 ? app.endTime() : app.lastEventTime();
        if (start <= 0 || end < start) {
            end = start = Math.max(0, start);
        }
        // A long-running application's snapshot lists its recent stages only; the run's totals sum up the others.
        DriverAloneTime alone = DriverAloneTime.of(app.stages(), app.totals().taskSpans(), start, end);
        int taskCpus = Math.max(1, conf.integer("spark.task.cpus").orElse(1));

        List<ExecutorSummary> workers = new ArrayList<>();
        ExecutorSummary driver = null;
        for (ExecutorSummary e : app.executors()) {
            if (e.isDriver()) {
                driver = e;
            } else {
                workers.add(e);
            }
        }
        boolean local = workers.isEmpty() && (conf.isLocal() || driver != null && driver.completedTasks()
                + driver.failedTasks() + driver.killedTasks() > 0);
        List<ExecutorUse> uses = new ArrayList<>();
        if (local) {
            if (driver != null) {
                int cores = driver.totalCores() > 0 ? driver.totalCores() : conf.localCores().orElse(0);
                long heap = ContainerMemory.driver(conf, ContainerMemory.localHeapFromBlockManager(conf,
                        app.driverMaxMemory() > 0 ? app.driverMaxMemory() : driver.maxMemory())).totalBytes();
                uses.add(use(driver, cores, start, end, start, end, taskCpus, heap, true, alone));
            }
        } else {
            long container = ContainerMemory.executor(conf).totalBytes();
            int defaultCores = conf.integer("spark.executor.cores").orElse(0);
            for (ExecutorSummary e : workers) {
                int cores = e.totalCores() > 0 ? e.totalCores() : Math.max(0, defaultCores);
                long from = e.addTime() > 0 ? e.addTime() : start;
                long to = e.removeTime() > 0 ? e.removeTime() : end;
                uses.add(use(e, cores, from, to, start, end, taskCpus, container, false, alone));
            }
        }
        double coreAlloc = 0;
        double coreUsed = 0;
        double coreAlone = 0;
        double byteAlloc = 0;
        double byteAllocMeasured = 0;
        double byteUsed = 0;
        double byteAlone = 0;
        boolean allTree = true;
        for (ExecutorUse u : uses) {
            coreAlloc += u.coreMsAllocated();
            coreUsed += u.coreMsUsed();
            coreAlone += u.coreMsDriverAlone();
            byteAlloc += u.byteMsAllocated();
            byteAlone += u.byteMsDriverAlone();
            double used = u.byteMsPeakUsed();
            if (used >= 0) {
                byteAllocMeasured += u.byteMsAllocated();
                byteUsed += used;
                allTree &= u.peaks().processTreeMeasured();
            }
        }
        MemoryPeaks driverPeaks = driver == null ? MemoryPeaks.NONE : MemoryPeaks.of(driver.peakMetrics());
        PeakCoverage coverage = PeakCoverage.of(conf, uses, driverPeaks);
        MemoryPeaks.Basis basis = coverage.anyMeasured() && allTree ? MemoryPeaks.Basis.PROCESS_TREE
                : MemoryPeaks.Basis.JVM;
        return new Efficiency(Math.max(0, end - start), alone.totalMs(), local, coreAlloc, coreUsed, coreAlone,
                byteAlloc, byteAllocMeasured, byteUsed, byteAlone, uses, driverPeaks, coverage, basis);
    }

    private static ExecutorUse use(ExecutorSummary e, int cores, long from, long to, long start, long end,
                                   int taskCpus, long containerBytes, boolean heapOnly, DriverAloneTime alone) {
        long a = Math.max(start, from);
        long b = Math.min(end, to);
        long lifetime = Math.max(0, b - a);
        double task = (double) Math.max(0, e.totalDuration()) * taskCpus;
        long taskMs = (long) Math.min(task, (double) lifetime * Math.max(0, cores));
        MemoryPeaks peaks = MemoryPeaks.of(e.peakMetrics());
        long used = heapOnly ? peaks.jvmHeap() : peaks.usedBytes();
        return new ExecutorUse(e.executorId(), Math.max(0, cores), lifetime, taskMs, containerBytes, peaks,
                used < 0 ? -1 : Math.min(used, containerBytes), alone.within(a, b));
    }

    private static long firstKnownTime(AppSnapshot app) {
        long first = Long.MAX_VALUE;
        for (ExecutorSummary e : app.executors()) {
            if (e.addTime() > 0) {
                first = Math.min(first, e.addTime());
            }
        }
        for (var s : app.stages()) {
            if (s.submissionTime() > 0) {
                first = Math.min(first, s.submissionTime());
            }
        }
        return first == Long.MAX_VALUE ? 0 : first;
    }

    public double coreHoursAllocated() {
        return coreMsAllocated / MS_PER_HOUR;
    }

    public double coreHoursUsed() {
        return coreMsUsed / MS_PER_HOUR;
    }

    public double coreHoursIdle() {
        return Math.max(0, coreMsAllocated - coreMsUsed) / MS_PER_HOUR;
    }

    public double coreHoursDriverAlone() {
        return coreMsDriverAlone / MS_PER_HOUR;
    }

    /** Idle share of the allocated core time; 0 without allocation. */
    public double coreWasteShare() {
        return coreMsAllocated > 0 ? Math.max(0, coreMsAllocated - coreMsUsed) / coreMsAllocated : 0;
    }

    /** Share of the allocated core time held while only the driver worked. */
    public double coreDriverAloneShare() {
        return coreMsAllocated > 0 ? coreMsDriverAlone / coreMsAllocated : 0;
    }

    public double gbHoursAllocated() {
        return byteMsAllocated / GIB / MS_PER_HOUR;
    }

    /** GB-hours of the measured executors' peaks; -1 when no executor's memory was measured. */
    public double gbHoursPeakUsed() {
        return memoryMeasured() ? byteMsPeakUsed / GIB / MS_PER_HOUR : -1;
    }

    /** Allocated minus peak used, over the measured executors; -1 when none was measured. */
    public double gbHoursWasted() {
        return memoryMeasured() ? Math.max(0, byteMsAllocatedMeasured - byteMsPeakUsed) / GIB / MS_PER_HOUR : -1;
    }

    public double gbHoursDriverAlone() {
        return byteMsDriverAlone / GIB / MS_PER_HOUR;
    }

    /** Unused share of the measured executors' memory; -1 when none was measured. */
    public double memoryWasteShare() {
        return memoryMeasured() && byteMsAllocatedMeasured > 0
                ? Math.max(0, byteMsAllocatedMeasured - byteMsPeakUsed) / byteMsAllocatedMeasured : -1;
    }

    /** Share of the allocated memory time held while only the driver worked. */
    public double memoryDriverAloneShare() {
        return byteMsAllocated > 0 ? byteMsDriverAlone / byteMsAllocated : 0;
    }

    /** Whether Spark measured the memory of at least one executor that ran tasks. */
    public boolean memoryMeasured() {
        return coverage.anyMeasured();
    }

    /** The largest peak heap of an executor that ran tasks; -1 when none was measured. */
    public long maxPeakHeapBytes() {
        long max = -1;
        for (ExecutorUse u : executors) {
            max = Math.max(max, u.peaks().jvmHeap());
        }
        return max;
    }
}
