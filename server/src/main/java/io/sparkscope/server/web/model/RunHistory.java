package io.sparkscope.server.web.model;

import io.sparkscope.store.query.HistoryQuery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The history of one job (its runs under one job key) with the "much slower than usual" mark: a run is slow when its
 * duration exceeds {@link #SLOW_FACTOR} × the median of up to {@link #WINDOW} previous runs, judged once at least
 * {@link #MIN_PREVIOUS} previous runs exist (fewer give no meaningful "usual").
 *
 * @param job  the job key and what it is made of
 * @param name the newest run's application name
 */
public record RunHistory(JobView job, String name, List<Point> runs) {
    public static final double SLOW_FACTOR = 1.5;
    public static final int WINDOW = 20;
    public static final int MIN_PREVIOUS = 3;

    /** @param previousMedianMs median duration of the previous runs, or -1 when there were too few */
    public record Point(HistoryQuery.Run run, long previousMedianMs, boolean slow) {
    }

    public static RunHistory of(String jobKey, List<HistoryQuery.Run> runs) {
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            HistoryQuery.Run r = runs.get(i);
            int from = Math.max(0, i - WINDOW);
            long median = -1;
            if (i - from >= MIN_PREVIOUS) {
                long[] prev = new long[i - from];
                for (int j = from; j < i; j++) {
                    prev[j - from] = runs.get(j).durationMs();
                }
                Arrays.sort(prev);
                int n = prev.length;
                median = n % 2 == 1 ? prev[n / 2] : (prev[n / 2 - 1] + prev[n / 2]) / 2;
            }
            boolean slow = median > 0 && r.durationMs() > SLOW_FACTOR * median;
            out.add(new Point(r, median, slow));
        }
        String name = runs.isEmpty() ? JobView.of(jobKey).name() : runs.get(runs.size() - 1).name();
        return new RunHistory(JobView.of(jobKey), name, out);
    }
}
