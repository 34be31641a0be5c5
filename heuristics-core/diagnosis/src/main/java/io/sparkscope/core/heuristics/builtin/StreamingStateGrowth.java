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
import java.util.List;

/**
 * State that only grows: a stateful operator (aggregation, deduplication, stream-stream join, arbitrary state)
 * whose rows never went down and were never removed over many batches. Without a watermark (or a timeout, or a TTL)
 * Spark keeps every key forever, so the state, its checkpoint and the time each batch spends on it grow until the
 * executors run out of memory. LOW when it is growing; HIGH once it holds {@code highMemoryBytes}.
 */
public final class StreamingStateGrowth implements Heuristic {
    public static final String ID = "StreamingStateGrowth";
    static final String PROVIDER_KEY = "spark.sql.streaming.stateStore.providerClass";
    static final String HDFS_PROVIDER = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
    static final String ROCKSDB_PROVIDER = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
    private static final long DAY_MS = 24 * 3600_000L;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("minBatches", "20",
                        "state must have only grown over at least this many batches"),
                new Threshold("minRows", "10000",
                        "to at least this many rows"),
                new Threshold("growth.min", "2",
                        "grown at least this many times over"),
                new Threshold("highMemoryBytes", "1g",
                        "state holding this much memory is HIGH"));
    }

    @Override
    public String description() {
        return """
                a stateful operator whose state rows never went down and none were removed over ≥ 20 batches, grown
                ≥ `growth.min` 2× to ≥ `minRows` 10 000 rows → LOW; HIGH once it holds `highMemoryBytes` 1g, because
                state without a watermark, timeout or TTL grows until executors run out of memory. Projects the
                memory a day later. *Do*: by operator (Spark 3.3+ names them): a watermark and a window for
                aggregations, `dropDuplicatesWithinWatermark` for deduplication, watermarks and a time-range
                condition for stream-stream joins, `GroupStateTimeout` for (flat)MapGroupsWithState, a TTL for
                transformWithState; when HIGH, the RocksDB state store
                (`spark.sql.streaming.stateStore.providerClass`), which Spark reads from the checkpoint's first run,
                so it takes effect from a new checkpoint.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minBatches = cfg.count(ID + ".minBatches");
        long minRows = cfg.count(ID + ".minRows");
        double minGrowth = cfg.threshold(ID + ".growth.min");
        long highBytes = cfg.bytes(ID + ".highMemoryBytes");
        SparkSettings conf = SparkSettings.of(app);
        List<Finding> out = new ArrayList<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            StreamingTotals t = q.totals();
            for (StateOperatorTotals op : t.stateOperators()) {
                if (op.batches() < minBatches || op.decreases() > 0 || op.rowsRemoved() > 0
                        || op.lastRowsTotal() < minRows
                        || op.lastRowsTotal() < minGrowth * Math.max(1, op.firstRowsTotal())) {
                    continue;
                }
                Severity severity = op.lastMemoryUsedBytes() >= highBytes ? Severity.HIGH : Severity.LOW;
                out.add(finding(q, op, severity, conf, highBytes));
            }
        }
        return out;
    }

    private static Finding finding(StreamingQuerySummary q, StateOperatorTotals op, Severity severity,
                                   SparkSettings conf, long highBytes) {
        StreamingTotals t = q.totals();
        long span = StreamingFacts.spanMs(t);
        double rowsPerDay = span > 0 ? (double) (op.lastRowsTotal() - Math.max(0, op.firstRowsTotal())) * DAY_MS / span
                : 0;
        double bytesPerRow = op.lastRowsTotal() > 0 && op.lastMemoryUsedBytes() > 0
                ? (double) op.lastMemoryUsedBytes() / op.lastRowsTotal() : 0;
        long inADay = Math.round((op.lastRowsTotal() + rowsPerDay) * bytesPerRow);
        String operator = "operator " + op.index() + (op.operatorName() == null ? "" : " (" + op.operatorName() + ")");
        String why = !t.watermarkDefined() ? "the query defines no watermark"
                : t.watermarkAdvances() == 0 ? "its watermark never advanced"
                : "its watermark advanced but this operator's state does not use it";
        StringBuilder message = new StringBuilder("The state of ").append(operator).append(" of ")
                .append(StreamingFacts.label(q)).append(" grew from ").append(Units.count(Math.max(0, op.firstRowsTotal())))
                .append(" to ").append(Units.count(op.lastRowsTotal())).append(" rows");
        if (op.lastMemoryUsedBytes() >= 0) {
            message.append(" (").append(Units.bytes(op.lastMemoryUsedBytes())).append(" in memory)");
        }
        message.append(" over ").append(Units.count(op.batches())).append(" batches and never shrank: no row was")
                .append(" removed, ").append(why).append('.');
        if (inADay > 0 && span > 0) {
            message.append(" At this rate it holds about ").append(Units.bytes(inADay)).append(" a day from now.");
        }
        StringBuilder advice = new StringBuilder("Bound the state: ").append(bound(op.operatorName()));
        SettingAdvice rocksDb = null;
        if (severity == Severity.HIGH && !conf.get(PROVIDER_KEY, HDFS_PROVIDER).contains("RocksDB")) {
            SparkSettings.Value now = conf.current(PROVIDER_KEY);
            rocksDb = new SettingAdvice(PROVIDER_KEY, now.known() ? now.value() : HDFS_PROVIDER,
                    now.known() ? now.source() : SettingAdvice.ValueSource.DEFAULT, ROCKSDB_PROVIDER,
                    "a streaming query's state holds " + Units.bytes(op.lastMemoryUsedBytes()) + " in the JVM heap");
            advice.append(" Until then, keep the state out of the executors' heap with ").append(rocksDb.phrase())
                    .append(" (it bounds memory, not growth); Spark keeps the provider of a checkpoint's first run,"
                            + " so it takes effect from a new checkpoint location.");
        }
        Finding.Builder f = Finding.builder(ID, severity)
                .title("The state of " + StreamingFacts.label(q) + " only grows")
                .message(message.toString())
                .recommendation(advice.toString())
                .impact(0, 0, "")
                .detail("operatorIndex", op.index())
                .detail("operatorName", op.operatorName())
                .detail("batches", op.batches())
                .detail("firstRowsTotal", op.firstRowsTotal())
                .detail("lastRowsTotal", op.lastRowsTotal())
                .detail("memoryUsedBytes", op.lastMemoryUsedBytes())
                .detail("projectedBytesInADay", inADay)
                .detail("watermarkDefined", t.watermarkDefined())
                .detail("highMemoryBytes", highBytes);
        StreamingFacts.where(f, q).location(q.runId() + ":" + op.index());
        if (rocksDb != null) {
            f.advise(rocksDb);
        }
        return f.build();
    }

    /** What bounds this kind of state (operator names as Spark 3.3+ reports them). */
    private static String bound(String operatorName) {
        String name = operatorName == null ? "" : operatorName;
        if (name.equals("stateStoreSave") || name.startsWith("sessionWindow")) {
            return "put .withWatermark(\"<event-time column>\", \"<how late data may be>\") before the aggregation"
                    + " and group by a time window of that column, so Spark drops each window once the watermark"
                    + " passes it (in update or append mode).";
        }
        if (name.startsWith("dedupe")) {
            return "deduplicate within a watermark: .withWatermark(\"<event-time column>\", \"<delay>\") and"
                    + " dropDuplicatesWithinWatermark (Spark 3.5+), or include the event-time column in"
                    + " dropDuplicates, so old keys can be forgotten.";
        }
        if (name.startsWith("symmetricHashJoin")) {
            return "give both sides of the stream-stream join a watermark and a time-range condition"
                    + " (leftTime BETWEEN rightTime - INTERVAL … AND rightTime + INTERVAL …), so Spark knows when a"
                    + " buffered row can no longer match.";
        }
        if (name.contains("GroupsWithState")) {
            return "set a timeout (GroupStateTimeout.ProcessingTimeTimeout or EventTimeTimeout with a watermark) and"
                    + " call state.remove() when a key's timeout fires.";
        }
        if (name.startsWith("transformWithState")) {
            return "give the state variables a time to live (TTLConfig, Spark 4.0+) or clear them when a key is done.";
        }
        return "give the stateful operation a watermark on its event-time column (aggregations, deduplication,"
                + " stream-stream joins), a timeout ((flat)MapGroupsWithState) or a TTL (transformWithState), so Spark"
                + " can forget old keys.";
    }
}
