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
                        "stages spilling less are not judged"));
    }

    @Override
    public String description() {
        return """
                per stage `memoryBytesSpilled / max(input, output, shuffle read, shuffle write)` ≥ 0.1 LOW, ≥ 0.5
                HIGH (and ≥ `minSpillBytes`, default 0), because spilled data is serialized, written and read back.
                The title names disk bytes when some reached disk, else the memory spill ("none to disk", e.g. GPU
                spills to host memory). Impact: how much longer the spilling tasks ran than the median task that did
                not (or, when all spilled, the disk spill at the stage's own shuffle-write speed). *Do*: more memory
                per task (not on GPU executors), smaller partitions for that stage's kind, `spark.memory.fraction`.
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
                    .message(Facts.capitalize(Facts.stageLabel(s)) + " spilled data of " + Units.bytes(memSpill)
                            + " (its size in memory), " + (handled > 0 ? Units.percent(ratio) + " of the "
                            + Units.bytes(handled) + " it read or wrote at most" : "with no measured input or output")
                            + "; " + (diskSpill > 0 ? Units.bytes(diskSpill) + " of it was written to disk."
                            : "none of it reached disk" + (gpu ? " (with GPU executors the spill goes from GPU to host"
                            + " memory)." : ".")))
                    .stage(s.key())
                    .impact(impact(s, diskSpill))
                    .detail("memoryBytesSpilled", memSpill)
                    .detail("diskBytesSpilled", diskSpill)
                    .detail("spillRatio", handled > 0 ? Units.round2(ratio) : null)
                    .detail("inputBytes", input)
                    .detail("outputBytes", output)
                    .detail("shuffleReadBytes", shuffleRead)
                    .detail("shuffleWriteBytes", shuffleWrite);
            String reason = "stage " + s.stageId() + " spilled " + Units.bytes(memSpill);
            Partitioning p = Partitioning.of(conf, kinds.get(s.key()), s, Math.max(s.numTasks() + 1L,
                    s.numTasks() * 2L), slots, reason);
            p.advice().forEach(f::advise);
            if (gpu) {
                f.recommendation("These executors carry GPUs (RAPIDS), so the spill is GPU memory running short, not"
                        + " the executor heap: give each task less data — " + p.text() + " — or let fewer tasks share"
                        + " a GPU (spark.rapids.sql.concurrentGpuTasks, now "
                        + conf.get("spark.rapids.sql.concurrentGpuTasks", "2") + ").");
            } else {
                String memKey = Facts.taskMemoryKey(conf);
                long mem = Facts.taskMemoryBytes(conf);
                SettingAdvice m = conf.advise(memKey, Units.sparkSize(mem * 3 / 2), reason);
                f.advise(m);
                f.recommendation("Give each task more memory or less data: " + m.phrase()
                        + (conf.isLocal() ? "" : " (or fewer spark.executor.cores, so fewer tasks share it)")
                        + "; make partitions smaller — " + p.text() + "; or raise spark.memory.fraction (now "
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
     * What spilling cost, from the stage's own tasks: how much longer the tasks that spilled ran than the median
     * task that did not. When every kept task spilled there is no such comparison, and the cost of writing and
     * reading back the disk spill at the stage's own shuffle-write speed stands in.
     */
    private static Impact impact(StageSummary s, long diskSpill) {
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
            return Impact.of(Facts.stageWallShare(s, excess), excess,
                    "run time of the tasks that spilled beyond the median task that did not");
        }
        long writeNs = s.totals().get(TaskMetric.SHUFFLE_WRITE_TIME);
        long written = s.totals().get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
        if (diskSpill > 0 && writeNs > 0 && written > 0) {
            long ms = Math.round(2.0 * diskSpill * (writeNs / 1e6) / written);
            return Impact.of(Facts.stageWallShare(s, ms), ms,
                    "disk spill written and read back at the stage's own shuffle-write speed");
        }
        return Impact.NONE;
    }
}
