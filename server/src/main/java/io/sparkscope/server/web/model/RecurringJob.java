package io.sparkscope.server.web.model;

import io.sparkscope.store.query.HistoryQuery;

import java.util.Arrays;
import java.util.List;

/**
 * A job with several stored runs, for the history page's list to pick from: its runs, its last run and its trend.
 *
 * @param trendRatio the newest complete run's wall time ÷ the median of the (at most nine) complete runs before it;
 *                   0 when fewer than two complete runs are stored
 */
public record RecurringJob(JobView job, String name, String user, long runs, long firstStart, long lastStart,
                           long lastDurationMs, double trendRatio) {
    /** At or above: "slower"; at or below its inverse: "faster". */
    public static final double TREND_FACTOR = 1.25;

    public enum Trend { SLOWER, STEADY, FASTER, UNKNOWN }

    public static RecurringJob of(HistoryQuery.Job j) {
        List<Long> d = j.recentDurationsMs();
        double ratio = 0;
        if (d.size() >= 2) {
            double median = median(d.subList(1, d.size()).stream().mapToLong(Long::longValue).toArray());
            ratio = median > 0 ? d.get(0) / median : 0;
        }
        return new RecurringJob(JobView.of(j.jobKey()), j.name(), j.sparkUser(), j.runs(), j.firstStart(),
                j.lastStart(), d.isEmpty() ? -1 : d.get(0), ratio);
    }

    public Trend trend() {
        if (trendRatio <= 0) {
            return Trend.UNKNOWN;
        }
        return trendRatio >= TREND_FACTOR ? Trend.SLOWER : trendRatio <= 1 / TREND_FACTOR ? Trend.FASTER : Trend.STEADY;
    }

    /** "1.8× slower than usual", "steady", "0.6× (faster)", "—". */
    public String trendText() {
        return switch (trend()) {
            case UNKNOWN -> "—";
            case STEADY -> "steady (" + ratio() + ")";
            case SLOWER -> ratio() + " slower than usual";
            case FASTER -> ratio() + " (faster than usual)";
        };
    }

    private String ratio() {
        return String.format(java.util.Locale.ROOT, "%.1f×", trendRatio);
    }

    static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }
}
