package io.sparkscope.core.recorder;

import io.sparkscope.core.model.SqlMetricAggregate;

import java.util.Arrays;
import java.util.List;

/**
 * Gathers the values of one SQL metric from every stage of an execution and the driver, filters them as Spark's
 * {@code MetricUtils.stringValue} does (≥ 0; > 0 for {@code average} metrics) and reduces them to a
 * {@link SqlMetricAggregate}. Values of stages kept one by one are collected exactly; a stage kept as a histogram
 * turns the whole population into one, and the median into an estimate.
 */
final class SqlMetricPopulation {
    final String metricType;
    private final boolean positiveOnly;
    private long[] values = new long[16];
    private int n;
    private SqlValueHistogram histogram;
    private long count;
    private long filteredSum;
    private long allSum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private long reported;

    SqlMetricPopulation(String metricType) {
        this.metricType = metricType;
        this.positiveOnly = "average".equals(metricType);
    }

    private boolean kept(long v) {
        return positiveOnly ? v > 0 : v >= 0;
    }

    /** A value a task or the driver reported. */
    void reported(long v) {
        reported++;
        value(v);
    }

    /** Zeros of task indices that reported nothing (Spark's arrays start at 0). */
    void unreportedZeros(long zeros) {
        if (zeros <= 0) {
            return;
        }
        if (!positiveOnly) {
            count += zeros;
            min = Math.min(min, 0);
            max = Math.max(max, 0);
            if (histogram != null) {
                histogram.addZeros(zeros);
            } else {
                for (long i = 0; i < zeros; i++) {
                    push(0);
                }
            }
        }
    }

    private void value(long v) {
        allSum = Sums.add(allSum, v);
        if (!kept(v)) {
            return;
        }
        count++;
        filteredSum = Sums.add(filteredSum, v);
        min = Math.min(min, v);
        max = Math.max(max, v);
        if (histogram != null) {
            histogram.add(v);
        } else {
            push(v);
        }
    }

    private void push(long v) {
        if (n == values.length) {
            values = Arrays.copyOf(values, n * 2);
        }
        values[n++] = v;
    }

    /**
     * Values already reduced by a stage too large to keep one by one; their exact count, sums and extremes, and
     * their distribution as a histogram.
     */
    void histogram(SqlValueHistogram h, long hCount, long hFilteredSum, long hAllSum, long hMin, long hMax,
                   long hReported) {
        if (histogram == null) {
            histogram = new SqlValueHistogram();
            for (int i = 0; i < n; i++) {
                histogram.add(values[i]);
            }
            values = null;
            n = 0;
        }
        histogram.addAll(h);
        count += hCount;
        filteredSum = Sums.add(filteredSum, hFilteredSum);
        allSum = Sums.add(allSum, hAllSum);
        reported += hReported;
        if (hCount > 0) {
            min = Math.min(min, hMin);
            max = Math.max(max, hMax);
        }
    }

    SqlMetricAggregate aggregate(long accumulatorId, int maxStageId, int maxStageAttempt, long maxTaskId,
                                 List<Integer> stageIds) {
        long median = 0;
        long lower = 0;
        boolean exact = histogram == null;
        if (count > 0) {
            if (exact) {
                long[] sorted = Arrays.copyOf(values, n);
                Arrays.sort(sorted);
                median = sorted[n / 2];
                lower = sorted[(n - 1) / 2];
            } else {
                median = clamp(histogram.valueAt(count / 2));
                lower = clamp(histogram.valueAt((count - 1) / 2));
            }
        }
        long total = "sum".equals(metricType) ? allSum : filteredSum;
        return new SqlMetricAggregate(accumulatorId, metricType, total, count, count > 0 ? min : 0, median, lower,
                count > 0 ? max : 0, maxStageId, maxStageAttempt, maxTaskId, reported, exact, stageIds);
    }

    private long clamp(long v) {
        return Math.max(min, Math.min(max, v));
    }

    /** Spark's Scala sum wraps on overflow; a total near 2⁶³ is a broken log either way, so saturate instead. */
    static final class Sums {
        private Sums() {
        }

        static long add(long a, long b) {
            long r = a + b;
            if (((a ^ r) & (b ^ r)) < 0) {
                return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return r;
        }
    }
}
