package io.sparkscope.core.heuristics.builtin;

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
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.SqlPlans;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Stages that spilled much of the data they handled: spilled bytes (their size in memory) over the largest of input,
 * output, shuffle read and shuffle write — the most memory the stage could have needed. Spark counts two numbers:
 * the in-memory size of what was spilled, and the bytes that reached disk (serialized, often far smaller; zero when,
 * as with GPU executors, the spill went to host memory instead). The title names the one that happened.
 */
public final class DiskSpill implements Heuristic {
    public static final String ID = "DiskSpill";
    static final String FRACTION_KEY = "spark.memory.fraction";
    static final String DEFAULT_FRACTION = "0.6";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.1",
                        "spill / largest of the stage's input, output, shuffle read and write at or above which it is LOW"),
                new Threshold("ratio.high", "0.5",
                        "the same share at or above which it is HIGH"),
                new Threshold("minSpillBytes", "0",
                        "stages spilling less are not judged"),
                new Threshold("high.minSavingMs", "1000",
                        "a HIGH spill must be estimated to cost at least this much wall time (ms), else it is LOW"),
                new Threshold("high.minAppShare", "0.02",
                        "and at least this share of the application's wall time"),
                new Threshold("diskBytesPerSecond", "100m",
                        "disk speed assumed for writing and reading back a spill when the application measured none"));
    }

    @Override
    public String description() {
        return """
                per stage `memoryBytesSpilled / max(input, output, shuffle read, shuffle write)` ≥ 0.1 LOW, ≥ 0.5
                HIGH (and ≥ `minSpillBytes`, default 0), because spilled data is serialized, written and read back.
                The title names disk bytes when some reached disk, else the memory spill ("none to disk", e.g. GPU
                spills to host memory). Impact: how much longer the spilling tasks ran than the median task that did
                not; when all spilled, the disk spill written and read back at the stage's own shuffle-write speed,
                else the application's, else `diskBytesPerSecond` 100m. HIGH only when that saving is ≥
                `high.minSavingMs` 1 s and ≥ `high.minAppShare` 2 % of the application (a small spill is LOW).
                *Do*: when the application set `spark.memory.fraction` below Spark's default 0.6, restore 0.6 (and no
                more heap); else more memory per task (not on GPU executors), smaller partitions for that stage's kind
                (with AQE coalescing, a smaller advisory partition size), `spark.memory.fraction`.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        var levels = cfg.levels(ID + ".ratio");
        long minSpill = cfg.bytes(ID + ".minSpillBytes");
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
        SqlPlans plans = SqlPlans.of(app);
        long minHighSavingMs = cfg.count(ID + ".high.minSavingMs");
        double minHighAppShare = cfg.threshold(ID + ".high.minAppShare");
        Speed appWriteSpeed = appShuffleWriteSpeed(app);
        String fractionCut = fractionBelowDefault(conf);
        Speed assumedSpeed = new Speed(cfg.bytes(ID + ".diskBytesPerSecond"), 1_000_000_000L,
                "an assumed disk speed of " + Units.bytes(cfg.bytes(ID + ".diskBytesPerSecond")) + "/s");
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            StageTotals t = s.totals();
            long memSpill = t == null ? 0 : t.get(TaskMetric.MEMORY_BYTES_SPILLED);
            if (memSpill <= 0 || memSpill < minSpill) {
                continue;
            }
            long input = t.get(TaskMetric.INPUT_BYTES);
            long output = t.get(TaskMetric.OUTPUT_BYTES);
            long shuffleRead = t.shuffleReadBytes();
            long shuffleWrite = t.get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
            long handled = Math.max(Math.max(input, output), Math.max(shuffleRead, shuffleWrite));
            // Spilling without any measured I/O (e.g. data generated in the task) counts as spilling everything.
            double ratio = handled > 0 ? (double) memSpill / handled : Double.MAX_VALUE;
            Severity severity = levels.grade(ratio);
            if (severity == Severity.NONE) {
                continue;
            }
            long diskSpill = t.get(TaskMetric.DISK_BYTES_SPILLED);
            Impact impact = impact(app, s, diskSpill, appWriteSpeed, assumedSpeed);
            // Severity follows what the spill costs, not only its share: a few MiB spilled in a short stage is not
            // worth fixing first, however large a share of the stage's data it is.
            if (severity == Severity.HIGH && impact.saves()
                    && (impact.wallMs() < minHighSavingMs || impact.wallMs() < minHighAppShare * app.durationMs())) {
                severity = Severity.LOW;
            }
            TaskRecord biggest = null;
            for (TaskRecord r : s.keptTasks()) {
                if (r.metrics() != null && (biggest == null || r.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED)
                        > biggest.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED))) {
                    biggest = r;
                }
            }
            boolean gpu = conf.gpuExecutors();
            String title = diskSpill > 0
                    ? "Stage " + s.stageId() + " spilled " + Units.bytes(diskSpill) + " to disk"
                    : "Stage " + s.stageId() + " spilled " + Units.bytes(memSpill) + " out of memory (none to disk)";
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title(title)
                    .message(Facts.capitalize(Facts.stageLabel(s, app)) + " spilled data of " + Units.bytes(memSpill)
                            + " (its size in memory), " + (handled > 0 ? Units.percent(ratio) + " of the "
                            + Units.bytes(handled) + " it read or wrote at most" : "with no measured input or output")
                            + "; " + (diskSpill > 0 ? Units.bytes(diskSpill) + " of it was written to disk."
                            : "none of it reached disk" + (gpu ? " (with GPU executors the spill goes from GPU to host"
                            + " memory)." : ".")))
                    .stage(s.key())
                    .impact(impact)
                    .detail("memoryBytesSpilled", memSpill)
                    .detail("diskBytesSpilled", diskSpill)
                    .detail("spillRatio", handled > 0 ? Units.round2(ratio) : null)
                    .detail("inputBytes", input)
                    .detail("outputBytes", output)
                    .detail("shuffleReadBytes", shuffleRead)
                    .detail("shuffleWriteBytes", shuffleWrite);
            String reason = "stage " + s.stageId() + " spilled " + Units.bytes(memSpill);
            Partitioning p = Partitioning.of(app, conf, kinds.get(s.key()), s, Math.max(s.numTasks() + 1L,
                    s.numTasks() * 2L), slots, reason);
            p.advice().forEach(f::advise);
            String partitions = p.text() + aqeAdvisory(f, conf, kinds.get(s.key()), s, reason);
            if (gpu) {
                f.recommendation("These executors carry GPUs (RAPIDS), so the spill is GPU memory running short, not"
                        + " the executor heap: give each task less data — " + partitions + " — or let fewer tasks share"
                        + " a GPU (spark.rapids.sql.concurrentGpuTasks, now "
                        + conf.get("spark.rapids.sql.concurrentGpuTasks", "2") + ").");
            } else if (fractionCut != null) {
                // The application itself gave execution memory a small share of the heap: the heap is not what
                // runs short, so more of it is not the fix; Spark's default share is.
                SettingAdvice restore = conf.advise(FRACTION_KEY, DEFAULT_FRACTION, reason + " with "
                        + FRACTION_KEY + " set to " + fractionCut + ", below Spark's default " + DEFAULT_FRACTION);
                f.advise(restore);
                f.recommendation("The application set " + FRACTION_KEY + " to " + fractionCut + ", below Spark's"
                        + " default of " + DEFAULT_FRACTION + ", so execution and storage share only that fraction"
                        + " of the heap (less 300 MiB reserved): restore it, " + restore.phrase() + ", before giving"
                        + " tasks more heap; else make partitions smaller — " + partitions + ".");
            } else {
                SparkSettings.Value coresNow = conf.current("spark.executor.cores");
                SettingAdvice m = TaskHeap.of(app, conf).more(reason);
                f.advise(m);
                f.recommendation("Give each task more memory or less data: " + m.phrase()
                        + (conf.isLocal() ? "" : " (or fewer spark.executor.cores" + (coresNow.known()
                        ? ", now " + coresNow.value() : "") + ", so fewer tasks share it)")
                        + "; make partitions smaller — " + partitions + "; or raise spark.memory.fraction (now "
                        + conf.current("spark.memory.fraction").value() + ") if little is cached.");
            }
            if (biggest != null && biggest.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED) > 0) {
                f.executor(biggest.executorId())
                        .detail("largestSpillTaskId", biggest.taskId())
                        .detail("largestSpillTaskMemoryBytes", biggest.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED))
                        .detail("largestSpillTaskDiskBytes", biggest.metrics().get(TaskMetric.DISK_BYTES_SPILLED));
            }
            // The operators that spilled in this stage (a sort, an aggregate, a window), by their own spill metric.
            for (SqlPlans.Operator o : plans.operators(s.stageId())) {
                SqlMetricAggregate spill = o.metric("spill size");
                if (spill != null && spill.total() > 0) {
                    f.planNode(o.sql().executionId(), o.node().id(), o.node().name());
                }
            }
            out.add(f.build());
        }
        return out;
    }

    /**
     * The {@code spark.memory.fraction} the application set when it is below Spark's default, else null (unset,
     * unreadable or not below).
     */
    private static String fractionBelowDefault(SparkSettings conf) {
        if (!conf.isSet(FRACTION_KEY)) {
            return null;
        }
        String v = conf.get(FRACTION_KEY, DEFAULT_FRACTION).trim();
        try {
            double f = Double.parseDouble(v);
            return f >= 0 && f < Double.parseDouble(DEFAULT_FRACTION) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * With AQE coalescing a SQL shuffle, more shuffle partitions are merged back toward the advisory size, so that
     * size must shrink too: half the value in force. Empty for other stages.
     */
    private static String aqeAdvisory(Finding.Builder f, SparkSettings conf, Facts.StageKind kind, StageSummary s,
                                      String reason) {
        if (kind != Facts.StageKind.SQL || !conf.aqeCoalesceOn() || s.totals().shuffleReadBytes() <= 0) {
            return "";
        }
        String key = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
        long now = conf.size(key, 1).orElse(64 * Units.MiB);
        SettingAdvice a = conf.advise(key, Units.sparkSize(Math.max(Units.MiB, now / 2)), reason);
        f.advise(a);
        return " (AQE coalesces shuffle partitions toward its advisory size, so lower it too: " + a.phrase() + ")";
    }

    /** Bytes written in so many nanoseconds, and where that speed comes from. */
    private record Speed(long bytes, long nanos, String basis) {
        /** Milliseconds to write {@code n} bytes and read them back at this speed. */
        long writeAndReadMs(long n) {
            return Math.round(2.0 * n * (nanos / 1e6) / bytes);
        }
    }

    /** The speed all stages wrote shuffle data at (Σ bytes / Σ shuffle-write time), or null when none wrote any. */
    private static Speed appShuffleWriteSpeed(AppSnapshot app) {
        long bytes = 0;
        long nanos = 0;
        for (StageSummary s : app.stages()) {
            if (s.totals() != null) {
                bytes += s.totals().get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
                nanos += s.totals().get(TaskMetric.SHUFFLE_WRITE_TIME);
            }
        }
        return bytes > 0 && nanos > 0 ? new Speed(bytes, nanos, "the application's own shuffle-write speed ("
                + Units.bytes(Math.round(bytes / (nanos / 1e9))) + "/s)") : null;
    }

    /**
     * What spilling cost, from the stage's own tasks: how much longer the tasks that spilled ran than the median
     * task that did not. When every kept task spilled there is no such comparison; the disk spill written and read
     * back stands in, at the stage's own shuffle-write speed, else the application's, else an assumed disk speed.
     * Never more than the spilling tasks ran. A spill that never reached disk has no such estimate.
     */
    private static Impact impact(AppSnapshot app, StageSummary s, long diskSpill, Speed appSpeed, Speed assumed) {
        List<Long> clean = new ArrayList<>();
        List<Long> spilled = new ArrayList<>();
        for (TaskRecord r : s.keptTasks()) {
            if (r.metrics() == null || !"SUCCESS".equals(r.status())) {
                continue;
            }
            (r.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED) > 0 ? spilled : clean)
                    .add(r.metrics().get(TaskMetric.EXECUTOR_RUN_TIME));
        }
        if (!clean.isEmpty() && !spilled.isEmpty()) {
            long[] sorted = clean.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(sorted);
            long median = sorted[Math.min(sorted.length / 2, sorted.length - 1)];
            long excess = 0;
            for (long run : spilled) {
                excess += Math.max(0, run - median);
            }
            int kept = clean.size() + spilled.size();
            if (kept < s.numCompleteTasks()) {
                excess = excess * s.numCompleteTasks() / kept;
            }
            return Impact.of(WallTime.ofStage(app, s, excess), excess,
                    "run time of the tasks that spilled beyond the median task that did not");
        }
        if (diskSpill <= 0) {
            return Impact.NONE;
        }
        long writeNs = s.totals().get(TaskMetric.SHUFFLE_WRITE_TIME);
        long written = s.totals().get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
        Speed speed = writeNs > 0 && written > 0
                ? new Speed(written, writeNs, "the stage's own shuffle-write speed")
                : appSpeed != null ? appSpeed : assumed;
        long ms = speed.writeAndReadMs(diskSpill);
        long spilledRunMs = spilled.stream().mapToLong(Long::longValue).sum();
        if (spilledRunMs > 0) {
            ms = Math.min(ms, spilledRunMs);
        }
        return Impact.of(WallTime.ofStage(app, s, ms), ms, Units.bytes(diskSpill) + " of disk spill written and read"
                + " back at " + speed.basis());
    }
}
