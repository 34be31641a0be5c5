package io.sparkscope.core.model;

import java.util.Arrays;

/**
 * Quantiles of every {@link DistributionMetric} over the successful tasks (with metrics) of one stage attempt,
 * computed exactly as Spark's {@code AppStatusStore.taskSummary}: each metric sorted on its own, value at index
 * {@code min(floor(q·n), n−1)}, no interpolation.
 *
 * <p>Always holds at least {@link #STANDARD_QUANTILES} so heuristics can ask for min, median, p95 and max whatever
 * the caller requested; {@link #restrictTo(double[])} selects the requested ones for output.
 */
public final class TaskDistributions {
    /** Spark's REST default quantiles. */
    public static final double[] SPARK_DEFAULT_QUANTILES = {0.05, 0.25, 0.5, 0.75, 0.95};
    /** Quantiles always computed, for heuristics. */
    public static final double[] STANDARD_QUANTILES = {0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0};

    private final long count;
    private final boolean exact;
    private final double[] quantiles;
    /** values[metric ordinal][quantile index] */
    private final double[][] values;

    public TaskDistributions(long count, double[] quantiles, double[][] values) {
        this(count, true, quantiles, values);
    }

    /**
     * @param count the number of successful tasks the stage had
     * @param exact false when the stage had more tasks than the recorder keeps values for, so the quantiles come
     *              from a uniform random sample of them (see {@code RecorderOptions.exactTaskLimit})
     */
    public TaskDistributions(long count, boolean exact, double[] quantiles, double[][] values) {
        if (values.length != DistributionMetric.count()) {
            throw new IllegalArgumentException("one row per DistributionMetric expected");
        }
        for (double[] row : values) {
            if (row.length != quantiles.length) {
                throw new IllegalArgumentException("one value per quantile expected");
            }
        }
        this.count = count;
        this.exact = exact;
        this.quantiles = quantiles.clone();
        this.values = new double[values.length][];
        for (int i = 0; i < values.length; i++) {
            this.values[i] = isAllZero(values[i]) ? zeroRow(values[i].length) : values[i].clone();
        }
    }

    /*
     * A long-running driver keeps the summaries of its last thousand stages, and a small stage's summary is mostly
     * rows of zeros (no shuffle, no spill, no input...). The rows are never handed out (values() copies), so every
     * all-zero row can be one shared array: that halves the heap a retained stage holds and what young collections
     * copy while it ages. Only +0.0 counts as zero, so that equals() (which compares bits) sees no difference.
     */
    private static final double[][] ZERO_ROWS = new double[16][];

    static {
        for (int n = 0; n < ZERO_ROWS.length; n++) {
            ZERO_ROWS[n] = new double[n];
        }
    }

    private static boolean isAllZero(double[] row) {
        for (double v : row) {
            if (Double.doubleToRawLongBits(v) != 0L) {
                return false;
            }
        }
        return true;
    }

    private static double[] zeroRow(int length) {
        return length < ZERO_ROWS.length ? ZERO_ROWS[length] : new double[length];
    }

    /** Number of tasks the quantiles cover. */
    public long count() {
        return count;
    }

    /** True when every task's value was used; false when the quantiles come from a uniform sample. */
    public boolean exact() {
        return exact;
    }

    public double[] quantiles() {
        return quantiles.clone();
    }

    /** Values of one metric, one per {@link #quantiles()}. */
    public double[] values(DistributionMetric metric) {
        return values[metric.ordinal()].clone();
    }

    /** The value at quantile {@code q}, which must be one of {@link #quantiles()}. */
    public double at(DistributionMetric metric, double q) {
        int i = indexOf(q);
        if (i < 0) {
            throw new IllegalArgumentException("quantile " + q + " was not computed; have " + Arrays.toString(quantiles));
        }
        return values[metric.ordinal()][i];
    }

    public double min(DistributionMetric metric) {
        return at(metric, 0.0);
    }

    public double median(DistributionMetric metric) {
        return at(metric, 0.5);
    }

    public double max(DistributionMetric metric) {
        return at(metric, 1.0);
    }

    public boolean has(double q) {
        return indexOf(q) >= 0;
    }

    /** A copy holding only the given quantiles (each must have been computed), in the given order. */
    public TaskDistributions restrictTo(double[] wanted) {
        double[][] out = new double[values.length][wanted.length];
        for (int j = 0; j < wanted.length; j++) {
            int i = indexOf(wanted[j]);
            if (i < 0) {
                throw new IllegalArgumentException("quantile " + wanted[j] + " was not computed");
            }
            for (int m = 0; m < values.length; m++) {
                out[m][j] = values[m][i];
            }
        }
        return new TaskDistributions(count, exact, wanted, out);
    }

    private int indexOf(double q) {
        for (int i = 0; i < quantiles.length; i++) {
            if (Math.abs(quantiles[i] - q) < 1e-9) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TaskDistributions other && count == other.count && exact == other.exact
                && Arrays.equals(quantiles, other.quantiles) && Arrays.deepEquals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count) * 31 + Arrays.hashCode(quantiles);
    }

    @Override
    public String toString() {
        return "TaskDistributions{count=" + count + ", quantiles=" + Arrays.toString(quantiles) + "}";
    }
}
