package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A partitioned table read whole although the query keeps few of its rows: the scan has partition columns (Spark
 * declares "number of partitions read" only then) but no partition filter, so every partition's files were listed
 * and read, and a filter on another column dropped most rows afterwards. A filter on the partition column would let
 * Spark skip the other partitions' files altogether.
 */
public final class FullPartitionScan implements Heuristic {
    public static final String ID = "FullPartitionScan";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        List<Threshold> own = List.of(
                new Threshold("minPartitions", "8",
                        "scans of fewer partitions are not judged"),
                new Threshold("maxKeptShare", "0.2",
                        "the filter above the scan kept at most this share of its rows (a selective query)"),
                new Threshold("minSavingMs", "500",
                        "scans whose estimated saving is below this wall time (ms) are not reported"));
        return java.util.stream.Stream.concat(own.stream(), FileScans.highThresholds().stream()).toList();
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of(
                "partitionsRead", new DetailLabel("Partitions read", DetailLabel.Unit.COUNT),
                "keptShare", new DetailLabel("Share of the rows the filter kept", DetailLabel.Unit.SHARE),
                "partitionColumns", new DetailLabel("Partition columns", DetailLabel.Unit.TEXT));
    }

    @Override
    public String description() {
        return """
                a scan of a partitioned table (its node declares "number of partitions read") with no partition
                filter, reading ≥ `minPartitions` 8 partitions (all of them), whose rows a filter on other columns
                then cut to ≤ `maxKeptShare` 20 %: a filter on the partition column would have let Spark skip most
                partitions' files. Impact (an upper bound: whether the rows wanted lie in few partitions is not
                known): the scan stages' time less the partitions the kept rows would fill if they were together,
                at least `minSavingMs` 500 ms. LOW, HIGH from `appShare.high` 30 % of the application and
                `highMinMs` 1 min.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minPartitions = cfg.count(ID + ".minPartitions");
        double maxKept = cfg.threshold(ID + ".maxKeptShare");
        long minSavingMs = cfg.count(ID + ".minSavingMs");
        long appMs = app.durationMs();
        Map<Integer, StageSummary> byId = FileScans.stagesById(app);

        List<Finding> out = new ArrayList<>();
        for (FileScans.Scan s : FileScans.scans(app)) {
            if (!FileScans.hasMetric(s.node(), "number of partitions read") || !s.partitionFilters().isEmpty()) {
                continue;
            }
            long partitions = s.metric("number of partitions read");
            long scanRows = s.metric("number of output rows");
            PlanGraph.Node filter = filterAbove(s);
            long keptRows = filter == null ? -1 : FileScans.metric(s.sql(), filter, "number of output rows");
            List<StageSummary> stages = FileScans.stages(byId, s.stageIds());
            if (partitions < Math.max(2, minPartitions) || scanRows <= 0 || keptRows < 0 || stages.isEmpty()) {
                continue;
            }
            double kept = (double) keptRows / scanRows;
            if (kept > maxKept) {
                continue;
            }
            // Were the kept rows together, they would fill this many partitions: the rest need not be read.
            long needed = Math.max(1, (long) Math.ceil(kept * partitions));
            double share = (double) (partitions - needed) / partitions;
            long taskMs = Math.round(FileScans.taskMs(stages) * share);
            long wallMs = WallTime.ofStages(app, stages, share);
            if (wallMs < minSavingMs) {
                continue;
            }
            Severity severity = FileScans.severity(cfg, ID, wallMs, appMs);
            String columns = String.join(", ", s.partitionColumns());
            String onColumns = columns.isEmpty() ? "the partition column" : "the partition column ("
                    + columns + ")";
            String ids = FileScans.ids(stages);
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.sql().executionId() + "." + s.node().id())
                    .title("All " + Units.count(partitions) + " partitions of " + s.input() + " read")
                    .message("SQL execution " + s.sql().executionId() + " read all " + Units.count(partitions)
                            + " partitions of the partitioned " + s.format() + " table " + s.input() + " ("
                            + Units.count(scanRows) + " rows, no partition filter), then kept "
                            + Units.count(keptRows) + " rows (" + Units.percent(kept) + ") with a filter on other"
                            + " columns" + (s.dataFilters().isEmpty() ? "" : " [" + s.dataFilters() + "]") + ", in "
                            + (stages.size() == 1 ? "stage " : "stages ") + ids + ". Spark prunes partitions only"
                            + " with a filter on " + onColumns + ".")
                    .recommendation("Filter on " + onColumns + " as well, with literal values or a join Spark can"
                            + " prune by (e.g. where(\"" + (s.partitionColumns().isEmpty() ? "day"
                            : s.partitionColumns().get(0)) + " = ...\")), so partition pruning skips the other"
                            + " partitions' files; if queries usually filter on another column, partition (or"
                            + " bucket, or Z-order) the table by that column instead.")
                    .stages(FileScans.keys(stages))
                    .impact(wallMs, taskMs, "scan stages' time × (" + partitions + " − " + needed + ") / "
                            + partitions + " partitions: an upper bound, if the " + Units.percent(kept) + " of rows"
                            + " kept lay in " + needed + " partition(s)")
                    .detail("input", s.input())
                    .detail("format", s.format())
                    .detail("partitionsRead", partitions)
                    .detail("partitionColumns", columns)
                    .detail("scanRows", scanRows)
                    .detail("keptRows", keptRows)
                    .detail("keptShare", Units.round2(kept))
                    .planNode(s.sql().executionId(), s.node().id(), s.node().name().trim());
            if (!s.dataFilters().isEmpty()) {
                f.detail("dataFilters", s.dataFilters());
            }
            out.add(f.build());
        }
        out.sort(Comparator.comparingLong((Finding x) -> x.impact().wallMs()).reversed());
        return out;
    }

    /** The Filter operator the scan's rows flow into (through row conversions), or null before any exchange. */
    private static PlanGraph.Node filterAbove(FileScans.Scan s) {
        PlanGraph g = s.plan().graph();
        Map<Long, Long> parent = new HashMap<>();
        for (PlanGraph.Edge e : g.edges()) {
            parent.putIfAbsent(e.fromId(), e.toId());
        }
        Long at = parent.get(s.node().id());
        for (int step = 0; at != null && step < 6; step++) {
            PlanGraph.Node n = g.node(at);
            if (n == null || n.name().contains("Exchange") || n.name().contains("Join")
                    || n.name().contains("Aggregate")) {
                return null;
            }
            if (n.name().equals("Filter")) {
                return n;
            }
            at = parent.get(at);
        }
        return null;
    }
}
