package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToLongFunction;

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
        AppSnapshot newest = null;
        for (AppSnapshot p : previousRunsSameName) {
            boolean same = Objects.equals(p.appId(), run.appId()) && Objects.equals(p.attemptId(), run.attemptId());
            if (p.complete()) {
                previous.add(Run.of(p));
                if (!same && (newest == null || p.startTime() > newest.startTime())) {
                    newest = p;
                }
            }
        }
        return judge(Run.of(run), previous, lowFactor, highFactor).finding(run.appName(),
                newest == null ? null : RunChanges.between(newest, run));
    }

    /**
     * One run reduced to what the check compares: light rows a store can read without whole snapshots.
     *
     * @param taskTimeMs Σ executor run time, as {@link #taskTimeMs(AppSnapshot)}
     * @param inputBytes bytes read from the sources (0: unknown, and the time per byte is not judged)
     */
    public record Run(String appId, String attemptId, long durationMs, long taskTimeMs, long inputBytes,
                      long outputBytes, long shuffleReadBytes, long shuffleWriteBytes) {
        /** A run whose data read and written is not known. */
        public Run(String appId, String attemptId, long durationMs, long taskTimeMs) {
            this(appId, attemptId, durationMs, taskTimeMs, 0, 0, 0, 0);
        }

        public static Run of(AppSnapshot s) {
            StageTotals m = s.totals().metrics();
            return new Run(s.appId(), s.attemptId(), s.durationMs(), RegressionCheck.taskTimeMs(s),
                    m.get(TaskMetric.INPUT_BYTES), m.get(TaskMetric.OUTPUT_BYTES), m.shuffleReadBytes(),
                    m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN));
        }
    }

    /** What the comparison concluded. */
    public enum Outcome {
        /** Not slower than usual (or nothing to compare with). */
        NONE,
        /** Slower, but it read more input and took no longer per byte: the job grew, nothing regressed. */
        INPUT_GREW,
        /** Slower, and not only because it read more. */
        REGRESSION
    }

    /**
     * The comparison of one run with the median of its previous runs.
     *
     * @param severity            of the Regression; NONE unless {@code outcome} is REGRESSION
     * @param inputRatio          this run's input over the median input of the previous runs; 0 when unknown
     * @param perByteDurationRatio wall time per input byte over the median of the previous runs'; 0 when unknown
     * @param perByteTaskRatio    task time per input byte, likewise
     */
    public record Verdict(Outcome outcome, Severity severity, Run run, List<Run> previous, double durationRatio,
                          double taskRatio, double medianDurationMs, double medianTaskTimeMs, double inputRatio,
                          double perByteDurationRatio, double perByteTaskRatio, double lowFactor, double highFactor) {
        static final Verdict NOTHING = new Verdict(Outcome.NONE, Severity.NONE, null, List.of(), 0, 0, 0, 0, 0, 0, 0,
                0, 0);

        public boolean perByteKnown() {
            return inputRatio > 0;
        }

        /**
         * The Regression finding, with what changed against the previous run when known.
         *
         * @param changes settings, plan and stages against the newest previous run; null when not compared
         */
        public Optional<Finding> finding(String appName, RunChanges changes) {
            if (outcome != Outcome.REGRESSION) {
                return Optional.empty();
            }
            return Optional.of(RegressionCheck.finding(this, appName, changes));
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
        return judge(run, previousCompleteRuns, lowFactor, highFactor).finding(appName, null);
    }

    /**
     * Compares a run with the median of its previous runs, in wall time and in task time. When both it and some
     * previous runs know their input, the time per byte of input must have grown too: a run that read twice the data
     * in twice the time did what it was asked, so it is {@link Outcome#INPUT_GREW}, not a Regression.
     */
    public static Verdict judge(Run run, List<Run> previousCompleteRuns, double lowFactor, double highFactor) {
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
            return Verdict.NOTHING;
        }
        double medianDuration = median(previous.stream().mapToLong(Run::durationMs).toArray());
        double medianTaskTime = median(previous.stream().mapToLong(Run::taskTimeMs).toArray());
        double durationRatio = medianDuration > 0 ? run.durationMs() / medianDuration : 0;
        double taskRatio = medianTaskTime > 0 ? run.taskTimeMs() / medianTaskTime : 0;
        Severity severity = Severity.max(Severity.atOrAbove(durationRatio, lowFactor, highFactor),
                Severity.atOrAbove(taskRatio, lowFactor, highFactor));

        List<Run> withInput = previous.stream().filter(p -> p.inputBytes() > 0).toList();
        double inputRatio = 0;
        double perByteDuration = 0;
        double perByteTask = 0;
        if (run.inputBytes() > 0 && !withInput.isEmpty()) {
            inputRatio = run.inputBytes() / median(withInput.stream().mapToLong(Run::inputBytes).toArray());
            perByteDuration = perByteRatio(run.durationMs(), run.inputBytes(), withInput, Run::durationMs);
            perByteTask = perByteRatio(run.taskTimeMs(), run.inputBytes(), withInput, Run::taskTimeMs);
        }
        Outcome outcome = severity == Severity.NONE ? Outcome.NONE : Outcome.REGRESSION;
        if (outcome == Outcome.REGRESSION && inputRatio > 0) {
            Severity perByte = Severity.max(Severity.atOrAbove(perByteDuration, lowFactor, highFactor),
                    Severity.atOrAbove(perByteTask, lowFactor, highFactor));
            if (perByte == Severity.NONE) {
                outcome = Outcome.INPUT_GREW;
            }
            // Slower in all and per byte: only as bad as the milder of the two says.
            severity = perByte.compareTo(severity) < 0 ? perByte : severity;
        }
        return new Verdict(outcome, outcome == Outcome.REGRESSION ? severity : Severity.NONE, run, previous,
                durationRatio, taskRatio, medianDuration, medianTaskTime, inputRatio, perByteDuration, perByteTask,
                lowFactor, highFactor);
    }

    /** This run's time per input byte over the median of the previous runs' time per byte. */
    private static double perByteRatio(long time, long input, List<Run> previous, ToLongFunction<Run> measure) {
        double[] perByte = previous.stream().mapToDouble(p -> (double) measure.applyAsLong(p) / p.inputBytes())
                .sorted().toArray();
        int n = perByte.length;
        double median = n % 2 == 1 ? perByte[n / 2] : (perByte[n / 2 - 1] + perByte[n / 2]) / 2;
        return median > 0 ? ((double) time / input) / median : 0;
    }

    private static Finding finding(Verdict v, String appName, RunChanges changes) {
        Run run = v.run();
        List<Run> previous = v.previous();
        long duration = run.durationMs();
        long taskTime = run.taskTimeMs();
        boolean byDuration = v.durationRatio() >= v.taskRatio();
        String what = byDuration ? "wall time" : "total task time";
        double ratio = byDuration ? v.durationRatio() : v.taskRatio();
        StringBuilder message = new StringBuilder("This run's " + what + " is " + Units.times(ratio)
                + " the median of the previous " + Units.count(previous.size(), "run") + " of "
                + (appName == null || appName.isBlank() ? "this job" : "'" + appName + "'") + " (wall time "
                + Units.duration(duration) + " against a median of " + Units.duration(Math.round(v.medianDurationMs()))
                + "; task time " + Units.duration(taskTime) + " against "
                + Units.duration(Math.round(v.medianTaskTimeMs())) + ").");
        List<Map<String, Object>> data = data(run, previous);
        if (v.perByteKnown()) {
            message.append(" It read ").append(Units.bytes(run.inputBytes())).append(" of input, ")
                    .append(Units.times(v.inputRatio())).append(" the usual, and took ")
                    .append(Units.times(byDuration ? v.perByteDurationRatio() : v.perByteTaskRatio()))
                    .append(" the usual ").append(what).append(" per byte of input.");
        }
        if (!data.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (Map<String, Object> d : data) {
                parts.add(d.get("data") + " " + Units.bytes((Long) d.get("thisRunBytes")) + " (median "
                        + Units.bytes((Long) d.get("medianBytes")) + ")");
            }
            message.append(" Data read and written: ").append(String.join(", ", parts)).append(".");
        }
        if (changes != null && !changes.isEmpty()) {
            message.append(" ").append(changes.sentences());
        }
        String advice;
        if (changes != null && !changes.settings().isEmpty()) {
            advice = "Settings differ from the previous run " + changes.baselineAppId()
                    + ": try this run's job with the previous values to see whether they made it slower.";
        } else if (changes != null && !changes.stagesGrown().isEmpty()) {
            advice = "Start with the stage that grew most, '" + changes.stagesGrown().get(0).stage()
                    + "', and compare it with the same stage of " + changes.baselineAppId() + ".";
        } else {
            advice = v.taskRatio() >= v.lowFactor()
                    ? "The executors did more work than before: compare input sizes and the slowest stages with a previous run."
                    : "The work was as before but took longer: look for fewer executors, queueing or driver time in this run.";
        }
        Finding.Builder b = Finding.builder(HEURISTIC, v.severity())
                .title("Slower than its previous runs")
                .message(message.toString())
                .recommendation(advice)
                .impact(Math.max(0, duration - Math.round(v.medianDurationMs())), Math.max(0, taskTime
                        - Math.round(v.medianTaskTimeMs())), "this run's time above the median of its previous runs")
                .detail("metric", byDuration ? "duration" : "taskTime")
                .detail("ratio", ratio)
                .detail("durationMs", duration)
                .detail("medianDurationMs", v.medianDurationMs())
                .detail("durationRatio", v.durationRatio())
                .detail("taskTimeMs", taskTime)
                .detail("medianTaskTimeMs", v.medianTaskTimeMs())
                .detail("taskTimeRatio", v.taskRatio())
                .detail("previousRuns", previous.size())
                .detail("previousAppIds", previous.stream().map(Run::appId).toList())
                .detail("lowFactor", v.lowFactor())
                .detail("highFactor", v.highFactor());
        if (v.perByteKnown()) {
            b.detail("inputRatio", Units.round2(v.inputRatio()))
                    .detail("perByteDurationRatio", Units.round2(v.perByteDurationRatio()))
                    .detail("perByteTaskTimeRatio", Units.round2(v.perByteTaskRatio()));
        }
        if (!data.isEmpty()) {
            b.detail("dataReadWritten", data);
        }
        if (changes != null) {
            changes.toDetails().forEach(b::detail);
            changes.settings().forEach(c -> b.configKeys(c.key()));
        }
        return b.build();
    }

    /** Each kind of data the run or its previous runs read or wrote: this run's bytes against the median. */
    private static List<Map<String, Object>> data(Run run, List<Run> previous) {
        List<Map<String, Object>> out = new ArrayList<>();
        addData(out, "input read", run, previous, Run::inputBytes);
        addData(out, "shuffle read", run, previous, Run::shuffleReadBytes);
        addData(out, "shuffle written", run, previous, Run::shuffleWriteBytes);
        addData(out, "output written", run, previous, Run::outputBytes);
        return out;
    }

    private static void addData(List<Map<String, Object>> out, String what, Run run, List<Run> previous,
                                ToLongFunction<Run> bytes) {
        long median = Math.round(median(previous.stream().mapToLong(bytes).toArray()));
        long now = bytes.applyAsLong(run);
        if (now > 0 || median > 0) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("data", what);
            m.put("thisRunBytes", now);
            m.put("medianBytes", median);
            out.add(m);
        }
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
