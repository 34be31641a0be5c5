package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code Regression} finding: a run whose wall time or total task time is well above the median of the previous
 * runs of the same job. A pure function: the caller picks the previous runs (the server: the last N of that job, by
 * {@link io.sparkscope.core.analysis.JobKey}, from its database).
 *
 * <p>Task time is Σ executor run time over all stage attempts: work done on executors, not inflated by a busy
 * driver or a crowded queue the way wall time is, so the two together tell "the cluster was slow" from "the job did
 * more work".
 */
public final class RegressionCheck {
    public static final String HEURISTIC = "Regression";
    public static final double DEFAULT_LOW = 1.5;
    public static final double DEFAULT_HIGH = 2.0;

    private RegressionCheck() {
    }

    public static Optional<Finding> check(AppSnapshot run, List<AppSnapshot> previousRunsSameName) {
        return check(run, previousRunsSameName, DEFAULT_LOW, DEFAULT_HIGH);
    }

    /**
     * @param lowFactor  LOW at or above this multiple of the median
     * @param highFactor HIGH at or above this multiple
     * @return the finding, or empty when the run is not slower by {@code lowFactor} on either measure, or there is
     *         nothing to compare with (no previous run with a duration)
     */
    public static Optional<Finding> check(AppSnapshot run, List<AppSnapshot> previousRunsSameName, double lowFactor,
                                          double highFactor) {
        List<Run> previous = new ArrayList<>();
        for (AppSnapshot p : previousRunsSameName) {
            if (p.complete()) {
                previous.add(Run.of(p));
            }
        }
        return check(Run.of(run), run.appName(), previous, lowFactor, highFactor);
    }

    /**
     * One run reduced to what the check compares: light rows a store can read without whole snapshots.
     *
     * @param taskTimeMs Σ executor run time, as {@link #taskTimeMs(AppSnapshot)}
     */
    public record Run(String appId, String attemptId, long durationMs, long taskTimeMs) {
        public static Run of(AppSnapshot s) {
            return new Run(s.appId(), s.attemptId(), s.durationMs(), RegressionCheck.taskTimeMs(s));
        }
    }

    /**
     * The same check on plain numbers.
     *
     * @param previousCompleteRuns earlier COMPLETE runs of the same name (the caller filters on completeness; the
     *                             run itself, if present, and runs without a duration are ignored)
     */
    public static Optional<Finding> check(Run run, String appName, List<Run> previousCompleteRuns, double lowFactor,
                                          double highFactor) {
        if (!(lowFactor > 0) || highFactor < lowFactor) {
            throw new IllegalArgumentException("need 0 < lowFactor <= highFactor, got " + lowFactor + ", " + highFactor);
        }
        List<Run> previous = new ArrayList<>();
        for (Run p : previousCompleteRuns) {
            boolean same = Objects.equals(p.appId(), run.appId()) && Objects.equals(p.attemptId(), run.attemptId());
            if (!same && p.durationMs() > 0) {
                previous.add(p);
            }
        }
        if (previous.isEmpty() || run.durationMs() <= 0) {
            return Optional.empty();
        }
        long duration = run.durationMs();
        long taskTime = run.taskTimeMs();
        double medianDuration = median(previous.stream().mapToLong(Run::durationMs).toArray());
        double medianTaskTime = median(previous.stream().mapToLong(Run::taskTimeMs).toArray());
        double durationRatio = medianDuration > 0 ? duration / medianDuration : 0;
        double taskRatio = medianTaskTime > 0 ? taskTime / medianTaskTime : 0;
        Severity severity = Severity.max(Severity.atOrAbove(durationRatio, lowFactor, highFactor),
                Severity.atOrAbove(taskRatio, lowFactor, highFactor));
        if (severity == Severity.NONE) {
            return Optional.empty();
        }
        boolean byDuration = durationRatio >= taskRatio;
        String what = byDuration ? "wall time" : "total task time";
        double ratio = byDuration ? durationRatio : taskRatio;
        String message = "This run's " + what + " is " + Units.times(ratio) + " the median of the previous "
                + Units.count(previous.size(), "run") + " of " + (appName == null || appName.isBlank() ? "this job"
                : "'" + appName + "'") + " (wall time " + Units.duration(duration) + " against a median of "
                + Units.duration(Math.round(medianDuration)) + "; task time " + Units.duration(taskTime)
                + " against " + Units.duration(Math.round(medianTaskTime)) + ").";
        String advice = taskRatio >= lowFactor
                ? "The executors did more work than before: compare input sizes and the slowest stages with a previous run."
                : "The work was as before but took longer: look for fewer executors, queueing or driver time in this run.";
        return Optional.of(Finding.builder(HEURISTIC, severity)
                .title("Slower than its previous runs")
                .message(message)
                .recommendation(advice)
                .impact(Math.max(0, duration - Math.round(medianDuration)), Math.max(0, taskTime
                        - Math.round(medianTaskTime)), "this run's time above the median of its previous runs")
                .detail("metric", byDuration ? "duration" : "taskTime")
                .detail("ratio", ratio)
                .detail("durationMs", duration)
                .detail("medianDurationMs", medianDuration)
                .detail("durationRatio", durationRatio)
                .detail("taskTimeMs", taskTime)
                .detail("medianTaskTimeMs", medianTaskTime)
                .detail("taskTimeRatio", taskRatio)
                .detail("previousRuns", previous.size())
                .detail("previousAppIds", previous.stream().map(Run::appId).toList())
                .detail("lowFactor", lowFactor)
                .detail("highFactor", highFactor)
                .build());
    }

    /** HIGH threshold for a configured LOW factor: 2× by default, or the factor itself when above 2. */
    public static double highFactorFor(double lowFactor) {
        return Math.max(DEFAULT_HIGH, lowFactor);
    }

    /** Σ executor run time over every stage attempt (failed tasks included, as Spark's stage totals). */
    public static long taskTimeMs(AppSnapshot run) {
        long t = 0;
        for (StageSummary s : run.stages()) {
            t += s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
        }
        return t;
    }

    static double median(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
}
