package io.sparkscope.core.sql;

import io.sparkscope.core.model.SqlMetricAggregate;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.NumberFormat;
import java.util.Locale;

/**
 * A SQL metric's value as Spark's SQL tab and REST API print it ({@code MetricUtils.stringValue}, Spark 4.0): the sum
 * of a {@code sum} metric; for sizes and times the total, then min, median and max with the task that reported the
 * largest value, e.g. {@code "total (min, med, max (stageId: taskId))\n10.0 KiB (1.0 KiB, 2.0 KiB, 3.0 KiB (stage
 * 2.0: task 7))"}; a single value alone. This is Spark's presentation, kept apart so pages can show the numbers
 * their own way.
 */
public final class SparkMetricText {
    public static final String SUM = "sum";
    public static final String SIZE = "size";
    public static final String TIMING = "timing";
    public static final String NS_TIMING = "nsTiming";
    public static final String AVERAGE = "average";
    /** Spark's prefix of a data source's own metric type; without its class Spark prints "N/A". */
    public static final String V2_CUSTOM = "v2Custom_";
    private static final String SUFFIX = "(min, med, max (stageId: taskId))";

    private SparkMetricText() {
    }

    /** Spark's text, or null for a type Spark does not know (Spark fails on it). */
    public static String of(SqlMetricAggregate m) {
        String type = m.metricType();
        if (type.startsWith(V2_CUSTOM)) {
            return "N/A";
        }
        String taskInfo = m.maxFromDriver() ? "(driver)"
                : "(stage " + m.maxStageId() + "." + m.maxStageAttemptId() + ": task " + m.maxTaskId() + ")";
        switch (type) {
            case SUM:
                return NumberFormat.getIntegerInstance(Locale.US).format(m.total());
            case AVERAGE:
                if (m.count() <= 1) {
                    return average(m.count() == 1 ? m.min() : 0);
                }
                return SUFFIX + ":\n(" + average(m.min()) + ", " + average(m.median()) + ", " + average(m.max()) + " "
                        + taskInfo + ")";
            case SIZE:
            case TIMING:
            case NS_TIMING:
                if (m.count() <= 1) {
                    return format(type, m.count() == 1 ? m.min() : 0);
                }
                return "total " + SUFFIX + "\n" + format(type, m.total()) + " (" + format(type, m.min()) + ", "
                        + format(type, m.median()) + ", " + format(type, m.max()) + " " + taskInfo + ")";
            default:
                return null;
        }
    }

    /** As Spark's REST API shows it: without a leading line break. */
    public static String rest(SqlMetricAggregate m) {
        String s = of(m);
        return s != null && s.startsWith("\n") ? s.substring(1) : s;
    }

    /** One value of the type, as Spark prints it. */
    public static String format(String type, long v) {
        return switch (type) {
            case SIZE -> bytesToString(v);
            case TIMING -> msDurationToString(v);
            case NS_TIMING -> msDurationToString(v / 1_000_000L);
            case AVERAGE -> average(v);
            default -> NumberFormat.getIntegerInstance(Locale.US).format(v);
        };
    }

    /** Spark keeps an average in tenths. */
    private static String average(long v) {
        return NumberFormat.getNumberInstance(Locale.US).format(v / 10.0);
    }

    /** Spark's {@code Utils.bytesToString}. */
    public static String bytesToString(long size) {
        long eib = 1L << 60;
        long pib = 1L << 50;
        long tib = 1L << 40;
        long gib = 1L << 30;
        long mib = 1L << 20;
        long kib = 1L << 10;
        BigDecimal value;
        String unit;
        BigDecimal s = BigDecimal.valueOf(size);
        if (size >= 2 * eib) {
            value = s.divide(BigDecimal.valueOf(eib));
            unit = "EiB";
        } else if (size >= 2 * pib) {
            value = s.divide(BigDecimal.valueOf(pib));
            unit = "PiB";
        } else if (size >= 2 * tib) {
            value = s.divide(BigDecimal.valueOf(tib));
            unit = "TiB";
        } else if (size >= 2 * gib) {
            value = s.divide(BigDecimal.valueOf(gib));
            unit = "GiB";
        } else if (size >= 2 * mib) {
            value = s.divide(BigDecimal.valueOf(mib));
            unit = "MiB";
        } else if (size >= 2 * kib) {
            value = s.divide(BigDecimal.valueOf(kib));
            unit = "KiB";
        } else {
            value = s;
            unit = "B";
        }
        return value.setScale(1, RoundingMode.HALF_UP).toPlainString() + " " + unit;
    }

    /** Spark's {@code Utils.msDurationToString}. */
    public static String msDurationToString(long ms) {
        long second = 1000;
        long minute = 60 * second;
        long hour = 60 * minute;
        if (ms < second) {
            return String.format(Locale.US, "%d ms", ms);
        } else if (ms < minute) {
            return String.format(Locale.US, "%.1f s", (float) ms / second);
        } else if (ms < hour) {
            return String.format(Locale.US, "%.1f m", (float) ms / minute);
        } else {
            return String.format(Locale.US, "%.2f h", (float) ms / hour);
        }
    }
}
