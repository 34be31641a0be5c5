package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.prediction.AdviceLedger;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.store.query.HistoryQuery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The history of one job (its runs under one job key) with the "much slower than usual" mark: a run is slow when its
 * duration exceeds {@link #SLOW_FACTOR} × the median of up to {@link #WINDOW} previous runs, judged once at least
 * {@link #MIN_PREVIOUS} previous runs exist (fewer give no meaningful "usual"). A run that read more input and took
 * no longer per byte of it is not slow: its input grew ({@link Point#inputGrowth}).
 *
 * @param job    the job key and what it is made of
 * @param name   the newest run's application name
 * @param advice the settings the runs' findings advised, whether the next run applied them and what that did
 */
public record RunHistory(JobView job, String name, List<Point> runs, List<AdviceLedger.Entry> advice) {
    public static final double SLOW_FACTOR = 1.5;
    public static final int WINDOW = 20;
    public static final int MIN_PREVIOUS = 3;

    /**
     * @param previousMedianMs  median duration of the previous runs, or -1 when there were too few
     * @param inputGrowth       when the run would be slow but its input grew as much: its input ÷ the median input of
     *                          the previous runs; 0 otherwise
     * @param perByteRatio      then, its wall time per byte of input ÷ the previous runs' median (below the factor)
     * @param regression        the run's stored Regression finding, or null
     */
    public record Point(HistoryQuery.Run run, long previousMedianMs, boolean slow, double inputGrowth,
                        double perByteRatio, Finding regression) {
        public Point(HistoryQuery.Run run, long previousMedianMs, boolean slow) {
            this(run, previousMedianMs, slow, 0, 0, null);
        }

        public boolean inputGrew() {
            return inputGrowth > 0;
        }
    }

    public RunHistory {
        runs = List.copyOf(runs);
        advice = List.copyOf(advice);
    }

    public RunHistory(JobView job, String name, List<Point> runs) {
        this(job, name, runs, List.of());
    }

    public static RunHistory of(String jobKey, List<HistoryQuery.Run> runs) {
        return of(jobKey, runs, Map.of(), List.of());
    }

    /** @param findings the stored findings of the runs, by {@link HistoryQuery.Run#pathKey} */
    public static RunHistory of(String jobKey, List<HistoryQuery.Run> runs, Map<String, List<Finding>> findings,
                                List<AdviceLedger.Entry> advice) {
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
            double growth = 0;
            double perByte = 0;
            if (slow) {
                // the wall time alone, as the mark: the task times are left at 0 so only durations are compared
                List<RegressionCheck.Run> previous = runs.subList(from, i).stream()
                        .map(p -> new RegressionCheck.Run(p.appId(), p.attemptId(), p.durationMs(), 0, p.inputBytes(),
                                0, 0, 0)).toList();
                RegressionCheck.Verdict v = RegressionCheck.judge(new RegressionCheck.Run(r.appId(), r.attemptId(),
                        r.durationMs(), 0, r.inputBytes(), 0, 0, 0), previous, SLOW_FACTOR, SLOW_FACTOR);
                if (v.outcome() == RegressionCheck.Outcome.INPUT_GREW) {
                    slow = false;
                    growth = v.inputRatio();
                    perByte = v.perByteDurationRatio();
                }
            }
            Finding regression = findings.getOrDefault(r.pathKey(), List.of()).stream()
                    .filter(f -> RegressionCheck.HEURISTIC.equals(f.heuristic())).findFirst().orElse(null);
            out.add(new Point(r, median, slow, growth, perByte, regression));
        }
        String name = runs.isEmpty() ? JobView.of(jobKey).name() : runs.get(runs.size() - 1).name();
        return new RunHistory(JobView.of(jobKey), name, List.copyOf(out), List.copyOf(advice));
    }
}
