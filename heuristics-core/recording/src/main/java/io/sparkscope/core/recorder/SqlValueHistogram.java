package io.sparkscope.core.recorder;

import java.util.Arrays;

/**
 * Counts of non-negative values in buckets of geometrically growing width, for the SQL metric values of stages too
 * large to keep value by value. A value v ≥ 1 falls in bucket {@code ceil(log_γ v)} with γ = 1.02; every bucket's
 * representative {@code 2γ^k / (γ + 1)} is within {@link #RELATIVE_ERROR} (0.99 %) of each value in it, so a
 * quantile read from the counts has the exact rank and a value within 1 % of the true one. Zero has its own count.
 * Memory: one int per bucket up to the largest value's, at most {@value #MAX_BUCKETS} (9 KB) for values up to 2⁶³.
 */
final class SqlValueHistogram {
    static final double GAMMA = 1.02;
    static final double RELATIVE_ERROR = (GAMMA - 1) / (GAMMA + 1);
    static final int MAX_BUCKETS = 2210;
    private static final double LOG_GAMMA = Math.log(GAMMA);

    private int[] counts = new int[64];
    private long zeros;
    private long size;

    static int bucket(long v) {
        if (v <= 1) {
            return 0;
        }
        int b = (int) Math.ceil(Math.log(v) / LOG_GAMMA);
        // Floating-point rounding near a boundary can put v one bucket off; either neighbour keeps the bound.
        return Math.min(MAX_BUCKETS - 1, Math.max(0, b));
    }

    static long representative(int bucket) {
        if (bucket == 0) {
            return 1;
        }
        double v = 2 * Math.pow(GAMMA, bucket) / (GAMMA + 1);
        return v >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(v);
    }

    /** @param v ≥ 0 */
    void add(long v) {
        add(v, 1);
    }

    void add(long v, int delta) {
        size += delta;
        if (v == 0) {
            zeros += delta;
            return;
        }
        int b = bucket(v);
        if (b >= counts.length) {
            counts = Arrays.copyOf(counts, Math.min(MAX_BUCKETS, Math.max(b + 1, counts.length * 2)));
        }
        counts[b] += delta;
    }

    void addZeros(long n) {
        zeros += n;
        size += n;
    }

    void addAll(SqlValueHistogram other) {
        if (other.counts.length > counts.length) {
            counts = Arrays.copyOf(counts, other.counts.length);
        }
        for (int i = 0; i < other.counts.length; i++) {
            counts[i] += other.counts[i];
        }
        zeros += other.zeros;
        size += other.size;
    }

    long size() {
        return size;
    }

    /** The value at 0-based {@code rank} of the sorted values, within {@link #RELATIVE_ERROR}; 0 on zeros. */
    long valueAt(long rank) {
        if (rank < zeros) {
            return 0;
        }
        long seen = zeros;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (rank < seen) {
                return representative(b);
            }
        }
        return representative(counts.length - 1);
    }
}
