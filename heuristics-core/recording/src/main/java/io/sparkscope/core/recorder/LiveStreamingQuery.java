package io.sparkscope.core.recorder;

import io.sparkscope.core.event.OrderedLongMap;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.StateOperatorTotals;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingQuerySummary.Status;
import io.sparkscope.core.model.StreamingTotals;
import io.sparkscope.core.model.StreamingTotals.Streak;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Mutable state of one run of a Structured Streaming query: its lifecycle, a window of its latest batches (at most
 * {@link StreamingLimits#batchesPerQuery()}) and running totals over every batch it reported, so that memory stays
 * bounded however long the query runs while totals, trends of state and "falling behind" stay right for the whole
 * run.
 *
 * <p>A run's batch ids only grow: a report for a batch id the run already reported (a repeated log line) changes
 * nothing, and a report of a trigger that ran no batch counts as an idle trigger, not a batch.
 */
final class LiveStreamingQuery extends LiveEntity {
    final String runId;
    String queryId;
    String name;
    long startTime = -1;
    long endTime = -1;
    Status status = Status.RUNNING;
    String exception;
    String errorClass;
    String triggerKind;
    long triggerIntervalMs = -1;
    String sinkDescription;
    long lastProgressTime = -1;
    /** Set by the first terminated event: a repeated one changes nothing. */
    boolean terminated;

    private final int windowSize;
    private final ArrayDeque<StreamingBatch> window = new ArrayDeque<>();
    /** The list handed out by the last summary, reused while no batch came (cheap repeated snapshots). */
    private List<StreamingBatch> windowCopy = List.of();
    private boolean windowChanged;

    private long batches;
    private long idleTriggers;
    private long firstBatchId = -1;
    private long lastBatchId = -1;
    private long firstBatchTime = -1;
    private long lastBatchEndTime = -1;
    private long inputRows;
    private long outputRows = -1;
    private long batchDurationMs;
    private long maxBatchDurationMs;
    private final Map<String, Long> durationPartsMs = new LinkedHashMap<>();
    private long behindBatches;
    private Streak longestBehind = Streak.NONE;
    private Streak currentBehind = Streak.NONE;
    private long batchesOverTrigger;
    private long rowsDroppedByWatermark;
    private long batchesDroppingRows;
    private boolean watermarkDefined;
    private long lastWatermark = -1;
    private long watermarkAdvances;
    private final List<OperatorTotals> operators = new ArrayList<>(1);

    LiveStreamingQuery(String runId, String queryId, int windowSize) {
        this.runId = runId;
        this.queryId = queryId;
        this.windowSize = windowSize;
    }

    void started(String queryId, String name, long time) {
        this.queryId = queryId;
        if (name != null) {
            this.name = name;
        }
        if (time > 0 && startTime < 0) {
            startTime = time;
        }
    }

    void idle(long time) {
        idleTriggers++;
        if (time > lastProgressTime) {
            lastProgressTime = time;
        }
    }

    void trigger(String kind, long intervalMs) {
        triggerKind = kind;
        triggerIntervalMs = intervalMs;
        // The trigger is looked up after the query started, so batches may already be in: count them now.
        batchesOverTrigger = 0;
        if (intervalMs > 0) {
            for (StreamingBatch b : window) {
                if (b.durationMs() > intervalMs) {
                    batchesOverTrigger++;
                }
            }
        }
    }

    void terminated(String exception, String errorClass, long time) {
        if (terminated) {
            return;
        }
        terminated = true;
        this.exception = exception;
        this.errorClass = errorClass;
        status = exception == null ? Status.STOPPED : Status.FAILED;
        endTime = time;
    }

    void progress(StreamingProgress p) {
        if (p.name() != null) {
            name = p.name();
        }
        if (p.timestamp() > lastProgressTime) {
            lastProgressTime = p.timestamp();
        }
        if (p.sink() != null && p.sink().description() != null) {
            sinkDescription = same(sinkDescription, p.sink().description());
        }
        if (!p.executed()) {
            idleTriggers++;
            return;
        }
        if (p.batchId() <= lastBatchId) {
            return;
        }
        StreamingBatch b = batch(p);
        addToWindow(b);
        count(b, p.sink() == null ? -1 : p.sink().numOutputRows());
    }

    /** The batch as kept, with texts equal to the previous batch's shared (one copy per run, not per batch). */
    private StreamingBatch batch(StreamingProgress p) {
        StreamingBatch previous = window.peekLast();
        List<StreamingProgress.Source> sources = p.sources();
        if (previous != null && !sources.isEmpty()) {
            List<StreamingProgress.Source> shared = new ArrayList<>(sources.size());
            for (int i = 0; i < sources.size(); i++) {
                StreamingProgress.Source s = sources.get(i);
                StreamingProgress.Source before = i < previous.sources().size() ? previous.sources().get(i) : null;
                String description = before == null ? s.description() : same(before.description(), s.description());
                shared.add(description == s.description() ? s : new StreamingProgress.Source(description,
                        s.startOffset(), s.endOffset(), s.latestOffset(), s.numInputRows(), s.inputRowsPerSecond(),
                        s.processedRowsPerSecond(), s.metrics()));
            }
            sources = shared;
        }
        List<StreamingProgress.StateOperator> operators = p.stateOperators();
        if (previous != null && !operators.isEmpty()) {
            List<StreamingProgress.StateOperator> shared = new ArrayList<>(operators.size());
            for (int i = 0; i < operators.size(); i++) {
                StreamingProgress.StateOperator op = operators.get(i);
                StreamingProgress.StateOperator before = i < previous.stateOperators().size()
                        ? previous.stateOperators().get(i) : null;
                shared.add(before == null ? op : sharingTexts(op, before));
            }
            operators = shared;
        }
        Long watermark = p.eventTime().get("watermark");
        Long max = p.eventTime().get("max");
        long output = p.sink() == null ? -1 : p.sink().numOutputRows();
        Map<String, Long> phases = OrderedLongMap.of(p.durationMs(), 64);
        if (previous != null) {
            phases = OrderedLongMap.sharingKeys((OrderedLongMap) phases, previous.durationParts());
        }
        return new StreamingBatch(p.batchId(), p.timestamp(), p.batchDurationMs(), p.numInputRows(),
                p.inputRowsPerSecond(), p.processedRowsPerSecond(), output, phases,
                watermark == null ? -1 : watermark, max == null ? -1 : max, operators, sources);
    }

    private static StreamingProgress.StateOperator sharingTexts(StreamingProgress.StateOperator op,
                                                                StreamingProgress.StateOperator before) {
        String name = same(before.operatorName(), op.operatorName());
        OrderedLongMap custom = OrderedLongMap.sharingKeys(OrderedLongMap.of(op.customMetrics(), 64),
                before.customMetrics());
        if (name == op.operatorName() && custom == op.customMetrics()) {
            return op;
        }
        return new StreamingProgress.StateOperator(name, op.numRowsTotal(), op.numRowsUpdated(), op.numRowsRemoved(),
                op.allUpdatesTimeMs(), op.allRemovalsTimeMs(), op.commitTimeMs(), op.memoryUsedBytes(),
                op.numRowsDroppedByWatermark(), op.numShufflePartitions(), op.numStateStoreInstances(), custom);
    }

    private static String same(String kept, String incoming) {
        return kept != null && kept.equals(incoming) ? kept : incoming;
    }

    private void addToWindow(StreamingBatch b) {
        window.addLast(b);
        while (window.size() > windowSize) {
            window.pollFirst();
        }
        windowChanged = true;
    }

    private void count(StreamingBatch b, long sinkRows) {
        batches++;
        if (firstBatchId < 0) {
            firstBatchId = b.batchId();
            firstBatchTime = b.timestamp();
        }
        lastBatchId = b.batchId();
        if (b.endTime() > lastBatchEndTime) {
            lastBatchEndTime = b.endTime();
        }
        inputRows = TaskMetrics.saturatingAdd(inputRows, b.numInputRows());
        if (sinkRows >= 0) {
            outputRows = TaskMetrics.saturatingAdd(Math.max(0, outputRows), sinkRows);
        }
        long duration = Math.max(0, b.durationMs());
        batchDurationMs = TaskMetrics.saturatingAdd(batchDurationMs, duration);
        maxBatchDurationMs = Math.max(maxBatchDurationMs, duration);
        b.durationParts().forEach((phase, ms) -> {
            if (durationPartsMs.size() < 64 || durationPartsMs.containsKey(phase)) {
                durationPartsMs.merge(phase, ms, TaskMetrics::saturatingAdd);
            }
        });
        if (b.behind()) {
            behindBatches++;
            currentBehind = currentBehind.plus(b);
            if (currentBehind.batches() > longestBehind.batches()) {
                longestBehind = currentBehind;
            }
        } else {
            currentBehind = Streak.NONE;
        }
        if (triggerIntervalMs > 0 && b.durationMs() > triggerIntervalMs) {
            batchesOverTrigger++;
        }
        if (b.rowsDroppedByWatermark() > 0) {
            batchesDroppingRows++;
            rowsDroppedByWatermark = TaskMetrics.saturatingAdd(rowsDroppedByWatermark, b.rowsDroppedByWatermark());
        }
        if (b.watermark() >= 0) {
            watermarkDefined = true;
            if (b.watermark() > lastWatermark && lastWatermark >= 0) {
                watermarkAdvances++;
            }
            lastWatermark = Math.max(lastWatermark, b.watermark());
        }
        List<StreamingProgress.StateOperator> ops = b.stateOperators();
        for (int i = 0; i < ops.size() && i < 64; i++) {
            if (i == operators.size()) {
                operators.add(new OperatorTotals(i));
            }
            operators.get(i).add(ops.get(i));
        }
    }

    StreamingQuerySummary summary() {
        if (windowChanged) {
            windowCopy = List.copyOf(window);
            windowChanged = false;
        }
        List<StateOperatorTotals> ops = new ArrayList<>(operators.size());
        for (OperatorTotals o : operators) {
            ops.add(o.summary());
        }
        StreamingTotals totals = new StreamingTotals(batches, idleTriggers, firstBatchId, lastBatchId, firstBatchTime,
                lastBatchEndTime, inputRows, outputRows, batchDurationMs, maxBatchDurationMs, durationPartsMs,
                behindBatches, longestBehind, currentBehind, triggerIntervalMs > 0 ? batchesOverTrigger : -1,
                rowsDroppedByWatermark, batchesDroppingRows, watermarkDefined, lastWatermark, watermarkAdvances, ops);
        return new StreamingQuerySummary(queryId, runId, name, startTime, endTime, status, exception, errorClass,
                triggerKind, triggerIntervalMs, sinkDescription, lastProgressTime, totals, windowCopy);
    }

    /** Running figures of one stateful operator. */
    private static final class OperatorTotals {
        final int index;
        String name;
        long batches;
        long firstRows = -1;
        long lastRows = -1;
        long maxRows = -1;
        long decreases;
        long removed = -1;
        long dropped;
        long lastMemory = -1;
        long maxMemory = -1;
        int partitions = -1;
        int instances = -1;

        OperatorTotals(int index) {
            this.index = index;
        }

        void add(StreamingProgress.StateOperator op) {
            batches++;
            if (op.operatorName() != null) {
                name = op.operatorName();
            }
            long rows = op.numRowsTotal();
            if (rows >= 0) {
                if (firstRows < 0) {
                    firstRows = rows;
                }
                if (lastRows >= 0 && rows < lastRows) {
                    decreases++;
                }
                lastRows = rows;
                maxRows = Math.max(maxRows, rows);
            }
            if (op.numRowsRemoved() >= 0) {
                removed = TaskMetrics.saturatingAdd(Math.max(0, removed), op.numRowsRemoved());
            }
            dropped = TaskMetrics.saturatingAdd(dropped, Math.max(0, op.numRowsDroppedByWatermark()));
            if (op.memoryUsedBytes() >= 0) {
                lastMemory = op.memoryUsedBytes();
                maxMemory = Math.max(maxMemory, lastMemory);
            }
            if (op.numShufflePartitions() >= 0) {
                partitions = op.numShufflePartitions();
            }
            if (op.numStateStoreInstances() >= 0) {
                instances = op.numStateStoreInstances();
            }
        }

        StateOperatorTotals summary() {
            return new StateOperatorTotals(index, name, batches, firstRows, lastRows, maxRows, decreases, removed,
                    dropped, lastMemory, maxMemory, partitions, instances);
        }
    }
}
