package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StateOperatorTotals;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Micro-batches with far more shuffle partitions than data: a stateful query runs every batch's stateful stage with
 * {@code spark.sql.shuffle.partitions} tasks, each opening and committing a state store, however few rows the batch
 * has, so small batches pay hundreds of near-empty tasks every trigger. Judged on stateful queries (their progress
 * reports the state's partitions, Spark 3.3+; before that the configured value stands in). The count is fixed by the
 * checkpoint at the query's first run, which the advice says.
 */
public final class StreamingShufflePartitions implements Heuristic {
    public static final String ID = "StreamingShufflePartitions";
    static final String KEY = "spark.sql.shuffle.partitions";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("excess.low", "4",
                        "shuffle partitions / partitions needed at or above which it is LOW"),
                new Threshold("excess.high", "16",
                        "shuffle partitions / partitions needed at or above which it is HIGH"),
                new Threshold("rowsPerPartition", "100000",
                        "input rows per batch one partition should take"),
                new Threshold("minBatches", "10",
                        "runs with fewer batches are not judged"));
    }

    @Override
    public String description() {
        return """
                a stateful query whose micro-batches run far more shuffle partitions than their data needs:
                partitions (as the state reports them, Spark 3.3+; else `spark.sql.shuffle.partitions`) / needed ≥ 4
                LOW, ≥ 16 HIGH over ≥ 10 batches, needed = max(task slots, mean input rows per batch /
                `rowsPerPartition` 100 000), because each batch runs and commits that many near-empty tasks and
                state stores. Recommends `spark.sql.shuffle.partitions` = needed and says that a stateful query
                keeps the count of its checkpoint's first run (Spark stores it in the checkpoint), so the value
                takes effect only from a new checkpoint location, with fresh state; when the setting already has
                that value, only the checkpoint is named. Judged once per query, on its latest run: every run of a
                checkpoint has the same count.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minBatches = cfg.count(ID + ".minBatches");
        double rowsPerPartition = Math.max(1, cfg.threshold(ID + ".rowsPerPartition"));
        SparkSettings conf = SparkSettings.of(app);
        int slots = Facts.slots(app, conf); // 0 when the snapshot cannot tell
        // The checkpoint fixes the partition count for every run of a query, so a restarted query would repeat the
        // same finding once per run: judge each query once, on its latest run with enough batches.
        Map<String, StreamingQuerySummary> latestRuns = new LinkedHashMap<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            if (!q.totals().stateOperators().isEmpty() && q.totals().batches() >= minBatches) {
                latestRuns.remove(q.queryId());
                latestRuns.put(q.queryId(), q);
            }
        }
        List<Finding> out = new ArrayList<>();
        for (StreamingQuerySummary q : latestRuns.values()) {
            StreamingTotals t = q.totals();
            int reported = -1;
            for (StateOperatorTotals op : t.stateOperators()) {
                reported = Math.max(reported, op.numShufflePartitions());
            }
            SparkSettings.Value configured = conf.current(KEY);
            long partitions = reported > 0 ? reported : parse(configured.value());
            if (partitions <= 0) {
                continue;
            }
            double meanRows = t.meanInputRows();
            long needed = Math.max(Math.max(1, slots), (long) Math.ceil(meanRows / rowsPerPartition));
            double excess = (double) partitions / needed;
            Severity severity = cfg.levels(ID + ".excess").grade(excess);
            if (severity == Severity.NONE) {
                continue;
            }
            boolean alreadySet = configured.known() && parse(configured.value()) == needed;
            SettingAdvice advice = alreadySet ? null : conf.advise(KEY, Long.toString(needed),
                    "stateful micro-batches of " + Units.count(Math.round(meanRows)) + " rows run " + partitions
                            + " tasks each");
            String checkpoint = " A stateful query keeps the partition count of its checkpoint's first run: Spark"
                    + " stores " + KEY + " in the checkpoint and uses that value on every restart, so "
                    + (alreadySet ? "this query, though " + KEY + " is already " + needed + ", still runs "
                    + partitions + "; the new value" : "the new value")
                    + " takes effect only when the query starts from a new checkpoint location, which also starts its"
                    + " state afresh.";
            Finding.Builder f = Finding.builder(ID, severity)
                    .title(StreamingFacts.label(q) + ": " + partitions + " shuffle partitions for "
                            + Units.count(Math.round(meanRows)) + " rows a batch")
                    .message(Facts.capitalize(StreamingFacts.label(q)) + " runs each micro-batch with " + partitions
                            + " shuffle partitions" + (reported > 0 ? "" : " (" + KEY + "; this Spark does not report"
                            + " the state's own)") + " for a mean of " + Units.count(Math.round(meanRows))
                            + " input rows per batch (" + perPartition(meanRows / partitions) + ")" + (slots > 0 ? " on " + slots + " task slots" : "")
                            + ": its stateful stage runs " + partitions
                            + " tasks and commits " + partitions + " state stores every batch, most of them with next"
                            + " to nothing to do.")
                    .recommendation("Use about " + needed + " partitions ("
                            + (advice == null ? KEY + " is already " + needed : advice.phrase()) + ": "
                            + (needed == slots ? "one per task slot" : "about " + Units.count((long) rowsPerPartition)
                            + " rows each") + ")." + checkpoint)
                    .impact(0, 0, "")
                    .detail("partitions", partitions)
                    .detail("partitionsReportedByState", reported > 0)
                    .detail("meanInputRows", Units.round2(meanRows))
                    .detail("slots", slots)
                    .detail("suggestedPartitions", needed)
                    .detail("excess", Units.round2(excess));
            StreamingFacts.where(f, q);
            if (advice != null) {
                f.advise(advice);
            }
            out.add(f.build());
        }
        return out;
    }

    /** "6 rows a partition", "1 row a partition", "less than one row a partition". */
    private static String perPartition(double rows) {
        long r = Math.round(rows);
        return rows < 1 ? "less than one row a partition" : r == 1 ? "1 row a partition" : Units.count(r) + " rows a partition";
    }

    private static long parse(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException | NullPointerException e) {
            return -1;
        }
    }
}
