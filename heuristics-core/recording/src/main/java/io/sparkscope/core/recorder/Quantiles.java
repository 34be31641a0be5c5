package io.sparkscope.core.recorder;

import java.util.Arrays;

/** Spark's History Server quantile rule (AppStatusStore.taskSummary): nearest rank, no interpolation. */
public final class Quantiles {
    /** Below this many values a range is simply sorted: selection's bookkeeping costs more than it saves. */
    private static final int SORT_BELOW = 24;

    private Quantiles() {
    }

    /** Index into {@code n} ascending values for quantile {@code q}: {@code min(floor(q·n), n−1)}. */
    public static int index(double q, long n) {
        return (int) Math.min((long) (q * n), n - 1);
    }

    /**
     * Values at the given quantiles of the first {@code n} entries of {@code values}. Works on a copy; the input is
     * left as it is.
     *
     * <p>The values at a handful of ranks are found by selection (each rank's value moved into place, smaller ones
     * before it, larger ones after), not by sorting everything: a live stage's distributions are computed again at
     * every flush over up to tens of thousands of tasks and some forty metrics, and sorting them all was a visible
     * part of the listener's CPU on the driver. The values returned are exactly those a full sort gives.
     */
    public static double[] of(long[] values, int n, double[] quantiles) {
        if (n <= 0) {
            throw new IllegalArgumentException("no values");
        }
        return selectInPlace(Arrays.copyOf(values, n), n, quantiles);
    }

    /**
     * As {@link #of} over the values that are known ({@code >= 0}; {@code TaskTimes.UNKNOWN} marks the others): the
     * driver-time metrics of tasks with unknown timestamps are left out rather than counted as -1. All zeros when no
     * value is known. With every value known this is exactly {@link #of}.
     */
    public static double[] ofKnown(long[] values, int n, double[] quantiles) {
        return knownInPlace(Arrays.copyOf(values, n), n, quantiles);
    }

    /**
     * As {@link #of}, reordering the first {@code n} entries of {@code values} in place: for values about to be freed
     * (a completed stage's columns), which then need no copy.
     */
    static double[] inPlace(long[] values, int n, double[] quantiles) {
        if (n <= 0) {
            throw new IllegalArgumentException("no values");
        }
        return selectInPlace(values, n, quantiles);
    }

    /** As {@link #ofKnown}, moving the known values to the front of {@code values} and selecting among them in place. */
    static double[] knownInPlace(long[] values, int n, double[] quantiles) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (values[i] >= 0) {
                values[k++] = values[i];
            }
        }
        if (k == 0) {
            return new double[quantiles.length];
        }
        return selectInPlace(values, k, quantiles);
    }

    /** The quantiles of {@code a[0, n)}, reordering that range. */
    private static double[] selectInPlace(long[] a, int n, double[] quantiles) {
        int[] ranks = new int[quantiles.length];
        for (int i = 0; i < quantiles.length; i++) {
            ranks[i] = index(quantiles[i], n);
        }
        int[] ascending = ranks.clone();
        Arrays.sort(ascending);
        // After a rank is in place nothing before it is larger, so the next (higher) rank is looked for after it.
        int lo = 0;
        for (int r : ascending) {
            if (r >= lo) {
                select(a, lo, n - 1, r);
                lo = r + 1;
            }
        }
        double[] out = new double[quantiles.length];
        for (int i = 0; i < quantiles.length; i++) {
            out[i] = a[ranks[i]];
        }
        return out;
    }

    /**
     * Moves the value of rank {@code k} (0-based, within {@code a[lo, hi]} in ascending order) to {@code a[k]}, with
     * no larger value before it and no smaller one after it in that range. Quickselect with a median-of-three pivot
     * and a three-way partition, so that runs of equal values (tiny tasks: many zeros) end at once; a range that
     * keeps partitioning badly is sorted instead, which bounds the worst case by a sort's.
     */
    static void select(long[] a, int lo, int hi, int k) {
        int rounds = 2 * (32 - Integer.numberOfLeadingZeros(hi - lo + 1)) + 4;
        while (hi > lo) {
            if (hi - lo < SORT_BELOW || rounds-- == 0) {
                Arrays.sort(a, lo, hi + 1);
                return;
            }
            long p = median(a[lo], a[lo + (hi - lo) / 2], a[hi]);
            // [lo, lt) < p, [lt, i) == p, (gt, hi] > p
            int lt = lo;
            int i = lo;
            int gt = hi;
            while (i <= gt) {
                long x = a[i];
                if (x < p) {
                    a[i++] = a[lt];
                    a[lt++] = x;
                } else if (x > p) {
                    a[i] = a[gt];
                    a[gt--] = x;
                } else {
                    i++;
                }
            }
            if (k < lt) {
                hi = lt - 1;
            } else if (k > gt) {
                lo = gt + 1;
            } else {
                return;
            }
        }
    }

    private static long median(long x, long y, long z) {
        return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    }
}
