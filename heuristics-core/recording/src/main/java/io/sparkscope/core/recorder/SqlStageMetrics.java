package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent.AccumUpdates;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SQL metric values of one stage of a SQL execution, as Spark's {@code LiveStageMetrics} keeps them: for the
 * stage's latest attempt, per metric one value per task index — the last update a task of that index reported,
 * frozen once an attempt of the index succeeded (a later speculative copy or retry changes nothing) — and per metric
 * the largest update any task reported, with its task id, for Spark's "(stage s.a: task t)".
 *
 * <p>Memory: a metric of a stage whose values fit the execution's budget ({@link LiveSqlExecution}) takes Spark's
 * own array, 8 bytes per task of the stage plus a bit per task for "reported"; past the budget (or for stages over
 * {@link #EXACT_TASKS_PER_STAGE} tasks) its successful values go into a {@link SqlValueHistogram} (at most 9 KB),
 * and only the values of task indices not yet succeeded are kept one by one, until one succeeds.
 */
final class SqlStageMetrics {
    /** A stage with more tasks than this keeps its metrics as histograms whatever the budget. */
    static final int EXACT_TASKS_PER_STAGE = 100_000;

    final int stageId;
    final int attemptId;
    final int numTasks;
    private final SparseBits completedIndices = new SparseBits();
    /** Insertion order: the first update of each metric in this stage. */
    final Map<Long, Values> byMetric = new LinkedHashMap<>();

    SqlStageMetrics(int stageId, int attemptId, int numTasks) {
        this.stageId = stageId;
        this.attemptId = attemptId;
        this.numTasks = Math.max(0, numTasks);
    }

    /**
     * One task's updates, as Spark's {@code updateTaskMetrics}: ignored when the index already succeeded or lies
     * outside the stage (Spark fails on it, after creating the first metric's array).
     *
     * @param types accumulator id → metric type of the execution; updates of other accumulators are ignored
     */
    void taskEnded(long taskId, int index, boolean successful, AccumUpdates updates, Map<Long, String> types,
                   LiveSqlExecution budget) {
        if (completedIndices.contains(index)) {
            return;
        }
        boolean inRange = index >= 0 && index < numTasks;
        for (int i = 0; i < updates.size(); i++) {
            long id = updates.ids()[i];
            String type = types.get(id);
            if (type == null) {
                continue;
            }
            Values v = byMetric.get(id);
            if (v == null) {
                v = budget.reserve(numTasks) ? new ExactValues(numTasks) : new HistogramValues();
                byMetric.put(id, v);
            }
            if (!inRange) {
                return;
            }
            long value = updates.values()[i];
            v.set(index, value, successful);
            if (!"sum".equals(type) && (!v.hasMax || value > v.maxValue)) {
                v.hasMax = true;
                v.maxValue = value;
                v.maxTaskId = taskId;
            }
        }
        if (successful && inRange) {
            completedIndices.add(index);
            for (Values v : byMetric.values()) {
                v.completed(index);
            }
        }
    }

    /** Cells this stage reserved from the execution's budget. */
    long reservedCells() {
        long cells = 0;
        for (Values v : byMetric.values()) {
            if (v instanceof ExactValues) {
                cells += numTasks;
            }
        }
        return cells;
    }

    /** The values of one metric in this stage. */
    abstract static class Values {
        boolean hasMax;
        long maxValue;
        long maxTaskId;

        abstract void set(int index, long value, boolean successful);

        /** The index succeeded: its value (reported now or by an earlier attempt) is final. */
        void completed(int index) {
        }

        abstract void addTo(SqlMetricPopulation pop, int numTasks);
    }

    /** Spark's array: one slot per task index, 0 until reported. */
    static final class ExactValues extends Values {
        private final long[] values;
        private final long[] reported;
        private int reportedCount;

        ExactValues(int numTasks) {
            values = new long[numTasks];
            reported = new long[(numTasks + 63) >>> 6];
        }

        @Override
        void set(int index, long value, boolean successful) {
            values[index] = value;
            long bit = 1L << (index & 63);
            if ((reported[index >>> 6] & bit) == 0) {
                reported[index >>> 6] |= bit;
                reportedCount++;
            }
        }

        @Override
        void addTo(SqlMetricPopulation pop, int numTasks) {
            for (int i = 0; i < values.length; i++) {
                if ((reported[i >>> 6] & (1L << (i & 63))) != 0) {
                    pop.reported(values[i]);
                }
            }
            pop.unreportedZeros(values.length - (long) reportedCount);
        }
    }

    /**
     * Final values reduced to exact count, sums and extremes plus a histogram; values of indices that have not
     * succeeded yet are kept one by one, since a later attempt of the index replaces them.
     */
    static final class HistogramValues extends Values {
        private final SqlValueHistogram nonNegative = new SqlValueHistogram();
        private final SqlValueHistogram positive = new SqlValueHistogram();
        private final Map<Integer, Long> pending = new HashMap<>();
        private long finals;
        private long allSum;
        private long nonNegativeSum;
        private long positiveSum;
        private long minNonNegative = Long.MAX_VALUE;
        private long minPositive = Long.MAX_VALUE;
        private long max = Long.MIN_VALUE;

        @Override
        void set(int index, long value, boolean successful) {
            if (successful) {
                pending.remove(index);
                fold(value);
            } else {
                pending.put(index, value);
            }
        }

        @Override
        void completed(int index) {
            Long earlier = pending.remove(index);
            if (earlier != null) {
                fold(earlier);
            }
        }

        private void fold(long v) {
            finals++;
            allSum = SqlMetricPopulation.Sums.add(allSum, v);
            if (v >= 0) {
                nonNegative.add(v);
                nonNegativeSum = SqlMetricPopulation.Sums.add(nonNegativeSum, v);
                minNonNegative = Math.min(minNonNegative, v);
                max = Math.max(max, v);
            }
            if (v > 0) {
                positive.add(v);
                positiveSum = SqlMetricPopulation.Sums.add(positiveSum, v);
                minPositive = Math.min(minPositive, v);
            }
        }

        @Override
        void addTo(SqlMetricPopulation pop, int numTasks) {
            boolean avg = "average".equals(pop.metricType);
            SqlValueHistogram h = avg ? positive : nonNegative;
            pop.histogram(h, h.size(), avg ? positiveSum : nonNegativeSum, allSum,
                    avg ? minPositive : minNonNegative, max, finals);
            for (long v : pending.values()) {
                pop.reported(v);
            }
            pop.unreportedZeros(numTasks - finals - pending.size());
        }
    }
}
