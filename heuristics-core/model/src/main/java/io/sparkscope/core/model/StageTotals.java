package io.sparkscope.core.model;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/** Per-stage sums of every {@link TaskMetric} over all task-end events (failed and killed included, as Spark). */
public final class StageTotals {
    private final long[] sums;

    private StageTotals(long[] sums) {
        this.sums = sums;
    }

    public static StageTotals of(long[] sums) {
        if (sums.length != TaskMetric.count()) {
            throw new IllegalArgumentException("expected " + TaskMetric.count() + " sums, got " + sums.length);
        }
        return new StageTotals(sums.clone());
    }

    public static StageTotals zero() {
        return new StageTotals(new long[TaskMetric.count()]);
    }

    public long get(TaskMetric metric) {
        return sums[metric.ordinal()];
    }

    /** Remote + local shuffle bytes read: Spark's {@code StageData.shuffleReadBytes}. */
    public long shuffleReadBytes() {
        return StageTotals.add(get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ), get(TaskMetric.SHUFFLE_LOCAL_BYTES_READ));
    }

    /** Adds one task's metrics into a mutable sums array (used by the recorder's live stage). */
    public static void accumulate(long[] sums, TaskMetrics metrics) {
        for (int i = 0; i < sums.length; i++) {
            sums[i] = add(sums[i], metrics.get(TaskMetric.byOrdinal(i)));
        }
    }

    /** a + b without wrapping ({@link TaskMetrics#saturatingAdd}). */
    public static long add(long a, long b) {
        return TaskMetrics.saturatingAdd(a, b);
    }

    /** Totals under Spark's StageData field names, plus {@code shuffleReadBytes}. */
    public Map<String, Long> asSparkFields() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (TaskMetric m : TaskMetric.values()) {
            out.put(m.stageTotalName, sums[m.ordinal()]);
        }
        out.put("shuffleReadBytes", shuffleReadBytes());
        return out;
    }

    public Map<TaskMetric, Long> asMap() {
        Map<TaskMetric, Long> map = new EnumMap<>(TaskMetric.class);
        for (TaskMetric m : TaskMetric.values()) {
            map.put(m, sums[m.ordinal()]);
        }
        return map;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StageTotals other && Arrays.equals(sums, other.sums);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sums);
    }

    @Override
    public String toString() {
        return "StageTotals" + asSparkFields();
    }
}
