package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * Stages that spilled much of the data they handled to disk (thesis §4.2.3): spilled memory bytes over the largest
 * of input, output, shuffle read and shuffle write — the most memory the stage could have needed.
 */
public final class DiskSpill implements Heuristic {
    public static final String ID = "DiskSpill";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        double low = cfg.threshold(ID + ".ratio.low");
        double high = cfg.threshold(ID + ".ratio.high");
        long minSpill = cfg.bytes(ID + ".minSpillBytes");
        SparkSettings conf = SparkSettings.of(app);
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
            Severity severity = Severity.atOrAbove(ratio, low, high);
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
            String memKey = Facts.taskMemoryKey(conf);
            long mem = Facts.taskMemoryBytes(conf);
            int partitions = conf.integer("spark.sql.shuffle.partitions").orElse(200);
            String fraction = conf.get("spark.memory.fraction", "0.6");
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title("Stage " + s.stageId() + " spilled " + Units.bytes(diskSpill > 0 ? diskSpill : memSpill)
                            + " to disk")
                    .message(capitalize(Facts.stageLabel(s)) + " spilled " + Units.bytes(memSpill) + " from memory ("
                            + Units.bytes(diskSpill) + " on disk), "
                            + (handled > 0 ? Units.percent(ratio) + " of the " + Units.bytes(handled)
                            + " it read or wrote at most" : "with no measured input or output") + ".")
                    .recommendation("Give each task more memory or less data: raise " + memKey + " (now "
                            + Units.bytes(mem) + ", try " + Units.sparkSize(mem * 3 / 2) + ")"
                            + (conf.isLocal() ? "" : " or lower spark.executor.cores")
                            + "; make partitions smaller by raising spark.sql.shuffle.partitions (now " + partitions
                            + ", try " + partitions * 2 + ") or letting AQE split them"
                            + " (spark.sql.adaptive.enabled=true); or raise spark.memory.fraction (now " + fraction
                            + ") if little is cached.")
                    .stage(s.key())
                    .configKeys(memKey, "spark.sql.shuffle.partitions", "spark.memory.fraction")
                    .detail("memoryBytesSpilled", memSpill)
                    .detail("diskBytesSpilled", diskSpill)
                    .detail("spillRatio", handled > 0 ? Units.round2(ratio) : null)
                    .detail("inputBytes", input)
                    .detail("outputBytes", output)
                    .detail("shuffleReadBytes", shuffleRead)
                    .detail("shuffleWriteBytes", shuffleWrite);
            if (biggest != null && biggest.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED) > 0) {
                f.executor(biggest.executorId())
                        .detail("largestSpillTaskId", biggest.taskId())
                        .detail("largestSpillTaskMemoryBytes", biggest.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED))
                        .detail("largestSpillTaskDiskBytes", biggest.metrics().get(TaskMetric.DISK_BYTES_SPILLED));
            }
            out.add(f.build());
        }
        return out;
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
