package io.sparkscope.store;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A kept task's metrics as the task table's {@code metrics} column holds them: a bigint array with one element per
 * {@link TaskMetric}, element i + 1 for the metric of ordinal i, zeros included; NULL when Spark reported no metrics.
 * PostgreSQL takes such an array in a COPY without parsing anything, where a JSON object cost it 40 % of the COPY,
 * and it is smaller too.
 *
 * <p>So the enum's order is the stored order: a new metric goes at the end of {@link TaskMetric}. Rows written before
 * it have a shorter array. An element past the end is NULL in SQL, which {@link #sql} turns into 0, and 0 in
 * {@link #read}: Spark's value for a metric an older version did not report.
 */
public final class TaskMetricArray {
    private TaskMetricArray() {
    }

    /** The column's value for {@code metrics}, or null. */
    static long[] of(TaskMetrics metrics) {
        if (metrics == null) {
            return null;
        }
        long[] values = new long[TaskMetric.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = metrics.valueAt(i);
        }
        return values;
    }

    /** The metrics in column {@code column} of the current row, or null when Spark reported none. */
    public static TaskMetrics read(ResultSet rs, String column) throws SQLException {
        Array a = rs.getArray(column);
        if (a == null) {
            return null;
        }
        try {
            Object[] values = (Object[]) a.getArray();
            TaskMetric[] metrics = TaskMetric.values();
            TaskMetrics.Builder b = TaskMetrics.builder();
            for (int i = 0; i < values.length && i < metrics.length; i++) {
                if (values[i] != null) {
                    b.set(metrics[i], ((Number) values[i]).longValue());
                }
            }
            return b.build();
        } finally {
            a.free();
        }
    }

    /** SQL for one metric of the task row ({@code qualifier} is a table alias with its dot, or empty); 0 when absent. */
    public static String sql(String qualifier, TaskMetric metric) {
        return "COALESCE(" + qualifier + "metrics[" + (metric.ordinal() + 1) + "], 0)";
    }
}
