package io.sparkscope.core.recorder;

import java.util.Arrays;

/** Spark's History Server quantile rule (AppStatusStore.taskSummary): nearest rank, no interpolation. */
public final class Quantiles {
    private Quantiles() {
    }

    /** Index into {@code n} ascending values for quantile {@code q}: {@code min(floor(q·n), n−1)}. */
    public static int index(double q, long n) {
        return (int) Math.min((long) (q * n), n - 1);
    }

    /**
     * Values at the given quantiles of the first {@code n} entries of {@code values}. Sorts a copy; the input is
     * left as it is.
     */
    public static double[] of(long[] values, int n, double[] quantiles) {
        if (n <= 0) {
            throw new IllegalArgumentException("no values");
        }
        return sorting(Arrays.copyOf(values, n), n, quantiles);
    }

    /**
     * As {@link #of}, sorting the first {@code n} entries of {@code values} in place: for values about to be freed
     * (a completed stage's columns), which then need no copy.
     */
    static double[] sorting(long[] values, int n, double[] quantiles) {
        if (n <= 0) {
            throw new IllegalArgumentException("no values");
        }
        Arrays.sort(values, 0, n);
        double[] out = new double[quantiles.length];
        for (int i = 0; i < quantiles.length; i++) {
            out[i] = values[index(quantiles[i], n)];
        }
        return out;
    }

    /**
     * As {@link #of} over the values that are known ({@code >= 0}; {@code TaskTimes.UNKNOWN} marks the others): the
     * driver-time metrics of tasks with unknown timestamps are left out rather than counted as -1. All zeros when no
     * value is known. With every value known this is exactly {@link #of}.
     */
    public static double[] ofKnown(long[] values, int n, double[] quantiles) {
        return knownSorting(Arrays.copyOf(values, n), n, quantiles);
    }

    /** As {@link #ofKnown}, moving the known values to the front of {@code values} and sorting them in place. */
    static double[] knownSorting(long[] values, int n, double[] quantiles) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (values[i] >= 0) {
                values[k++] = values[i];
            }
        }
        if (k == 0) {
            return new double[quantiles.length];
        }
        return sorting(values, k, quantiles);
    }
}
