package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.sql.SqlPlans;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A single task reading or writing gigabytes: it needs memory to match, spills, and cannot be retried cheaply. The
 * quantile maximum covers successful tasks; kept tasks add failed ones (a too-large partition often is what failed).
 */
public final class LargePartition implements Heuristic {
    public static final String ID = "LargePartition";
    private static final DistributionMetric[] SIZES = {DistributionMetric.INPUT_BYTES_READ,
            DistributionMetric.OUTPUT_BYTES_WRITTEN, DistributionMetric.SHUFFLE_READ_BYTES,
            DistributionMetric.SHUFFLE_WRITE_BYTES};

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("bytes", "5g",
                        "a task reading or writing more than this is LOW"));
    }

    @Override
    public String description() {
        return """
                a task (quantile max, or a kept failed task) reading or writing > `bytes` 5g → LOW, because it needs
                memory to match and is expensive to retry; partition advice by stage kind.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long limit = cfg.bytes(ID + ".bytes");
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
        SqlPlans plans = SqlPlans.of(app);
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            long largest = 0;
            String what = null;
            TaskDistributions d = Facts.summary(s);
            if (d != null) {
                for (DistributionMetric m : SIZES) {
                    long v = Math.round(d.max(m));
                    if (v > largest) {
                        largest = v;
                        what = m.path;
                    }
                }
            }
            TaskRecord largestTask = null;
            for (TaskRecord t : s.keptTasks()) {
                if (t.metrics() == null) {
                    continue;
                }
                long v = taskMax(t);
                if (v >= largest && v > 0) {
                    if (v > largest) {
                        what = kind(t, v);
                    }
                    largest = v;
                    largestTask = t;
                }
            }
            if (largest <= limit) {
                continue;
            }
            long factor = Math.max(2, (largest + limit - 1) / limit);
            Partitioning p = Partitioning.of(app, conf, kinds.get(s.key()), s, Math.max(2, s.numTasks()) * factor, slots,
                    "a task of stage " + s.stageId() + " handled " + Units.bytes(largest));
            Finding.Builder f = Finding.builder(ID, Severity.LOW)
                    .location(s.key())
                    .title("A " + Units.bytes(largest) + " partition in stage " + s.stageId())
                    .message("In " + Facts.stageLabel(s, app) + ", one task handled " + Units.bytes(largest) + " ("
                            + what + "), above " + Units.bytes(limit) + ".")
                    .recommendation("Split the data finer: " + p.text() + "; if only a few partitions are large, see"
                            + " StageSkew.")
                    .stage(s.key())
                    .detail("largestBytes", largest)
                    .detail("metric", what)
                    .detail("limitBytes", limit);
            p.advice().forEach(f::advise);
            if (largestTask != null) {
                f.executor(largestTask.executorId()).detail("taskId", largestTask.taskId());
            }
            // A partition that large read from input comes from a scan: the operator to look at (its files).
            if (DistributionMetric.INPUT_BYTES_READ.path.equals(what)) {
                plans.operators(s.stageId(), n -> n.startsWith("Scan") || n.contains("FileScan")
                                || n.startsWith("BatchScan"))
                        .forEach(o -> f.planNode(o.sql().executionId(), o.node().id(), o.node().name()));
            }
            out.add(f.build());
        }
        return out;
    }

    private static long taskMax(TaskRecord t) {
        return Math.max(Math.max(t.metrics().get(TaskMetric.INPUT_BYTES), t.metrics().get(TaskMetric.OUTPUT_BYTES)),
                Math.max(t.metrics().shuffleReadBytes(), t.metrics().get(TaskMetric.SHUFFLE_BYTES_WRITTEN)));
    }

    private static String kind(TaskRecord t, long v) {
        if (t.metrics().get(TaskMetric.INPUT_BYTES) == v) {
            return DistributionMetric.INPUT_BYTES_READ.path;
        }
        if (t.metrics().get(TaskMetric.OUTPUT_BYTES) == v) {
            return DistributionMetric.OUTPUT_BYTES_WRITTEN.path;
        }
        return t.metrics().shuffleReadBytes() == v ? DistributionMetric.SHUFFLE_READ_BYTES.path
                : DistributionMetric.SHUFFLE_WRITE_BYTES.path;
    }
}
