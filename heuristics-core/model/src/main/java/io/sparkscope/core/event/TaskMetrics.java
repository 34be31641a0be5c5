package io.sparkscope.core.event;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * The metrics of one task, one long per {@link TaskMetric}. Immutable: built through {@link Builder}.
 * Kept as a primitive array because a busy stage produces hundreds of thousands of these.
 */
public final class TaskMetrics {
    private final long[] values;

    private TaskMetrics(long[] values) {
        this.values = values;
    }

    public long get(TaskMetric metric) {
        return values[metric.ordinal()];
    }

    /** The value of the {@link TaskMetric} with this ordinal: {@code get(TaskMetric.values()[ordinal])}, for hot loops. */
    public long valueAt(int ordinal) {
        return values[ordinal];
    }

    /** Remote plus local shuffle bytes read: Spark's {@code shuffleReadMetrics.readBytes}. */
    /**
     * a + b, held at {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} instead of wrapping: a log may carry metric
     * values near 2^63 that are valid one by one, and a wrapped sum would show a negative total.
     */
    public static long saturatingAdd(long a, long b) {
        long r = a + b;
        // Overflow iff both operands have the sign opposite to the result's.
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    public long shuffleReadBytes() {
        return saturatingAdd(get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ), get(TaskMetric.SHUFFLE_LOCAL_BYTES_READ));
    }

    /** Remote plus local blocks fetched: Spark's {@code shuffleReadMetrics.totalBlocksFetched}. */
    public long shuffleTotalBlocksFetched() {
        return get(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED) + get(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED);
    }

    public Map<TaskMetric, Long> asMap() {
        Map<TaskMetric, Long> map = new EnumMap<>(TaskMetric.class);
        for (TaskMetric m : TaskMetric.values()) {
            map.put(m, values[m.ordinal()]);
        }
        return map;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static TaskMetrics of(Map<TaskMetric, Long> map) {
        Builder b = builder();
        map.forEach(b::set);
        return b.build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TaskMetrics other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "TaskMetrics" + asMap();
    }

    /**
     * Collects values; {@link #build()} hands its array to the new {@code TaskMetrics} (no copy) and starts the next
     * one empty, so a builder can be reused. The array is only allocated when needed: building one
     * {@code TaskMetrics} costs exactly one {@code long[]}.
     */
    public static final class Builder {
        private long[] values;

        public Builder set(TaskMetric metric, long value) {
            long[] v = values;
            if (v == null) {
                values = v = new long[TaskMetric.count()];
            }
            v[metric.ordinal()] = value;
            return this;
        }

        public TaskMetrics build() {
            long[] v = values;
            values = null;
            return new TaskMetrics(v == null ? new long[TaskMetric.count()] : v);
        }
    }
}
