package io.sparkscope.core.event;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spark's {@code StreamingQueryProgress}, the report a Structured Streaming query posts after each trigger, as both
 * adapters hand it over: the live listener from the progress object, the event-log reader from its JSON. Values a
 * source could not measure are -1 (Spark's NaN rates, a sink without an output count); offsets are summarised
 * ({@link StreamingOffsets}) so that a Kafka source with thousands of partitions costs a line, not kilobytes, per
 * batch.
 *
 * @param timestamp       epoch ms at which the trigger started (Spark's ISO timestamp), or -1
 * @param batchDurationMs the trigger's wall time (Spark's {@code batchDuration}, else {@code triggerExecution})
 * @param durationMs      Spark's {@code durationMs}: time per phase of the trigger ({@code triggerExecution} is the
 *                        whole, {@code addBatch}, {@code getBatch}, {@code queryPlanning}, {@code walCommit},
 *                        {@code latestOffset}, {@code commitOffsets}, … its parts), in the order Spark wrote them
 * @param eventTime       epoch ms of Spark's {@code eventTime} entries ({@code min}, {@code max}, {@code avg},
 *                        {@code watermark}); {@code watermark} is present exactly when the query defines one
 */
public record StreamingProgress(
        String queryId,
        String runId,
        String name,
        long timestamp,
        long batchId,
        long batchDurationMs,
        Map<String, Long> durationMs,
        Map<String, Long> eventTime,
        List<StateOperator> stateOperators,
        List<Source> sources,
        Sink sink) {

    /** Phases Spark may report, at most: more is a damaged line, not a query. */
    static final int MAX_MAP_ENTRIES = 32;

    public StreamingProgress {
        durationMs = OrderedLongMap.of(durationMs, MAX_MAP_ENTRIES);
        eventTime = OrderedLongMap.of(eventTime, MAX_MAP_ENTRIES);
        stateOperators = stateOperators == null ? List.of() : List.copyOf(stateOperators);
        sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /** Input rows of the trigger: the sum over its sources, as Spark's {@code numInputRows} is. */
    public long numInputRows() {
        long n = 0;
        for (Source s : sources) {
            n += Math.max(0, s.numInputRows());
        }
        return n;
    }

    /** Spark's {@code inputRowsPerSecond}: the sum over the sources; -1 when no source measured it. */
    public double inputRowsPerSecond() {
        return sumRates(true);
    }

    /** Spark's {@code processedRowsPerSecond}: the sum over the sources; -1 when no source measured it. */
    public double processedRowsPerSecond() {
        return sumRates(false);
    }

    private double sumRates(boolean input) {
        double sum = 0;
        boolean any = false;
        for (Source s : sources) {
            double r = input ? s.inputRowsPerSecond() : s.processedRowsPerSecond();
            if (r >= 0) {
                sum += r;
                any = true;
            }
        }
        return any ? sum : -1;
    }

    /**
     * Whether the trigger ran a batch. Spark before 3.5 also reports a trigger that found no new data (every
     * {@code spark.sql.streaming.noDataProgressEventInterval}) under the id of the batch still to come; such a
     * report has no {@code addBatch} phase and no input rows.
     */
    public boolean executed() {
        return durationMs.containsKey("addBatch") || numInputRows() > 0;
    }

    private static <V> Map<String, V> bounded(Map<String, V> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        Map<String, V> out = new LinkedHashMap<>();
        for (Map.Entry<String, V> e : in.entrySet()) {
            if (out.size() >= MAX_MAP_ENTRIES) {
                break;
            }
            if (e.getKey() != null && e.getValue() != null) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * Spark's {@code StateOperatorProgress}. Fields a Spark version does not report are -1 ({@code operatorName},
     * {@code numRowsRemoved}, the times and the partition counts came with 3.3; before 3.1
     * {@code numRowsDroppedByWatermark} was {@code numLateInputs}).
     */
    public record StateOperator(
            String operatorName,
            long numRowsTotal,
            long numRowsUpdated,
            long numRowsRemoved,
            long allUpdatesTimeMs,
            long allRemovalsTimeMs,
            long commitTimeMs,
            long memoryUsedBytes,
            long numRowsDroppedByWatermark,
            int numShufflePartitions,
            int numStateStoreInstances,
            Map<String, Long> customMetrics) {
        public StateOperator {
            customMetrics = OrderedLongMap.of(customMetrics, MAX_MAP_ENTRIES);
        }
    }

    /**
     * Spark's {@code SourceProgress}; offsets as {@link StreamingOffsets#summary} gives them.
     *
     * @param metrics a source's own figures (Kafka's {@code avgOffsetsBehindLatest}, …), at most
     *                {@value #MAX_MAP_ENTRIES}, each value at most {@value StreamingOffsets#MAX_CHARS} characters
     */
    public record Source(
            String description,
            String startOffset,
            String endOffset,
            String latestOffset,
            long numInputRows,
            double inputRowsPerSecond,
            double processedRowsPerSecond,
            Map<String, String> metrics) {
        public Source {
            startOffset = StreamingOffsets.summary(startOffset);
            endOffset = StreamingOffsets.summary(endOffset);
            latestOffset = StreamingOffsets.summary(latestOffset);
            inputRowsPerSecond = rate(inputRowsPerSecond);
            processedRowsPerSecond = rate(processedRowsPerSecond);
            Map<String, String> m = bounded(metrics);
            if (!m.isEmpty()) {
                Map<String, String> cut = new LinkedHashMap<>();
                m.forEach((k, v) -> cut.put(k, StreamingOffsets.cut(v)));
                m = java.util.Collections.unmodifiableMap(cut);
            }
            metrics = m;
        }
    }

    /** Spark's {@code SinkProgress}; {@code numOutputRows} is -1 when the sink does not count (as in Spark). */
    public record Sink(String description, long numOutputRows) {
    }

    /** A rate as stored: Spark's NaN and infinities (no previous trigger, a zero-length one) become -1, unknown. */
    public static double rate(double r) {
        return Double.isNaN(r) || Double.isInfinite(r) || r < 0 ? -1 : r;
    }
}
