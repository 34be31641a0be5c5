package io.sparkscope.core.event;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One sample of an executor's (or the driver's) peak {@link ExecutorMetric}s as Spark reports them: per task in a
 * task end ("Task Executor Metrics", Spark 3.0+), per heartbeat, per stage in the event log. Immutable; one long per
 * metric, {@link #ABSENT} for a metric the source did not carry. A primitive array because every task end of a
 * Spark 3 log has one.
 *
 * <p>Spark fills a task end's sample with zeros when the executor had not measured anything yet (metrics polling
 * off, or the task ended before the first poll): {@link #measuredNothing()} tells such a sample apart, and it
 * means "not measured", never "used 0 bytes".
 */
public final class ExecutorPeaks {
    public static final long ABSENT = -1;
    public static final ExecutorPeaks NONE = new ExecutorPeaks(filledAbsent());

    private final long[] values;

    private ExecutorPeaks(long[] values) {
        this.values = values;
    }

    private static long[] filledAbsent() {
        long[] v = new long[ExecutorMetric.count()];
        Arrays.fill(v, ABSENT);
        return v;
    }

    /** The value, or {@link #ABSENT}. */
    public long get(ExecutorMetric metric) {
        return values[metric.ordinal()];
    }

    /** {@code get(ExecutorMetric.byOrdinal(ordinal))}, for hot loops. */
    public long valueAt(int ordinal) {
        return values[ordinal];
    }

    /** True when no metric is present or every present one is 0: Spark had measured nothing. */
    public boolean measuredNothing() {
        for (long v : values) {
            if (v > 0) {
                return false;
            }
        }
        return true;
    }

    /** Present metrics under Spark's names, in Spark's order. */
    public Map<String, Long> asMap() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (ExecutorMetric m : ExecutorMetric.values()) {
            long v = values[m.ordinal()];
            if (v != ABSENT) {
                out.put(m.sparkName, v);
            }
        }
        return out;
    }

    /** From Spark names to values; names this version does not know, and negative values, are left out. */
    public static ExecutorPeaks of(Map<String, Long> bySparkName) {
        Builder b = builder();
        bySparkName.forEach((name, v) -> {
            ExecutorMetric m = ExecutorMetric.bySparkName(name);
            if (m != null && v != null) {
                b.set(m, v);
            }
        });
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExecutorPeaks other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "ExecutorPeaks" + asMap();
    }

    /** Collects values; {@link #build()} hands its array over (no copy) and starts the next one empty. */
    public static final class Builder {
        private long[] values;

        /** A negative value is no measurement: it stays absent. */
        public Builder set(ExecutorMetric metric, long value) {
            if (value < 0) {
                return this;
            }
            long[] v = values;
            if (v == null) {
                values = v = filledAbsent();
            }
            v[metric.ordinal()] = value;
            return this;
        }

        public ExecutorPeaks build() {
            long[] v = values;
            values = null;
            return v == null ? NONE : new ExecutorPeaks(v);
        }
    }
}
