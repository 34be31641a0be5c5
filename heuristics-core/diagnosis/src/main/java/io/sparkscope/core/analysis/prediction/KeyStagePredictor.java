package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Key-stage run-time prediction (docs/architecture.md, "Key-stage prediction"). From runs of one application at
 * different input sizes:
 * <ol>
 *   <li>each stage's time per run (completion − submission, attempts added up; a stage absent from a run counts
 *       0 ms there, as a stage whose output was cached does), matched across runs by {@link StageKey};</li>
 *   <li>{@code T_mean} = the mean of the stages' mean times; candidates = stages whose mean exceeds it;</li>
 *   <li>each candidate's change with the input: the least-squares slope of its time against input bytes times the
 *       training input range (a fitted change, so one noisy run does not make a stage key); {@code D_mean} = the
 *       candidates' mean change;</li>
 *   <li>key stages = candidates whose change is at least {@code D_mean} and above 0. The method's own rule is "greater
 *       than"; "at least" keeps a single candidate, or candidates changing alike, from all dropping out;</li>
 *   <li>prediction = Σ key stages' lines at the requested size + Σ other stages' means + the mean overhead
 *       (run duration − Σ stage times).</li>
 * </ol>
 * It never extrapolates silently: a poor fit (R² &lt; 0.8), a size beyond twice the largest seen, too few runs and
 * the like come back as {@link PredictionWarning}s with the number.
 *
 * <p><b>Outlier runs.</b> The first run of a recurring job is often much slower than the ones after it (cold caches
 * and file systems, JIT warm-up, a table materialised once), and a least-squares line follows such a run. So before
 * fitting, each run's duration is compared with the straight line of duration against input size through the
 * <em>other</em> runs (leave-one-out; a sum of stages linear in the input is itself linear): the run missed worst is
 * left out when it is missed by more than {@link #OUTLIER_MIN_ERROR} of its prediction and more
 * than {@link #OUTLIER_RATIO}× the median miss of the other runs (so uniformly noisy runs are all kept), and the test
 * repeats. It needs at least {@link #OUTLIER_MIN_RUNS} runs and leaves out at most one run in four, never so many
 * that fewer than three remain. The runs left out are named in {@link Prediction#leftOut()} with
 * {@link PredictionWarning#OUTLIER_RUNS}: flagged, not hidden.
 */
public final class KeyStagePredictor {
    /** Below this R² a key stage's line is not trusted. */
    public static final double MIN_R2 = 0.8;
    /** Beyond this multiple of the largest training input, the prediction is an extrapolation. */
    public static final double MAX_EXTRAPOLATION = 2.0;
    /** Runs needed before any is judged an outlier: with fewer, one odd run is as likely to be the right one. */
    public static final int OUTLIER_MIN_RUNS = 4;
    /** A run is an outlier only when its leave-one-out prediction misses it by more than this share … */
    public static final double OUTLIER_MIN_ERROR = 0.25;
    /** … and by more than this multiple of the other runs' median miss. */
    public static final double OUTLIER_RATIO = 3.0;

    private KeyStagePredictor() {
    }

    /**
     * Predicts from runs whose input size is the bytes Spark measured: Σ over stage attempts of input bytes read.
     *
     * @throws IllegalArgumentException with no runs, runs of different applications, or a run that measured no input
     *                                  (give sizes with {@link #predictWithSizes})
     */
    public static Prediction predict(List<AppSnapshot> runs, long inputBytes) {
        List<TrainingRun> sized = new ArrayList<>();
        for (AppSnapshot run : runs) {
            long measured = inputBytes(run);
            if (measured <= 0) {
                throw new IllegalArgumentException("run " + run.appId() + " measured no input bytes; "
                        + "give the input sizes with predictWithSizes");
            }
            sized.add(new TrainingRun(run, measured));
        }
        return predictWithSizes(sized, inputBytes);
    }

    /** Predicts from runs with input sizes the caller gives, leaving out outlier runs (see the class comment). */
    public static Prediction predictWithSizes(List<TrainingRun> runs, long inputBytes) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no training runs");
        }
        if (inputBytes <= 0) {
            throw new IllegalArgumentException("input size must be positive, got " + inputBytes);
        }
        JobKey job = JobKey.of(runs.get(0).run());
        for (TrainingRun r : runs) {
            if (!Objects.equals(job.value(), JobKey.of(r.run()).value())) {
                throw new IllegalArgumentException("runs of different jobs: '" + runs.get(0).run().appName()
                        + "' and '" + r.run().appName() + "' (job keys '" + job.value() + "' and '"
                        + JobKey.of(r.run()).value() + "')");
            }
        }
        List<TrainingRun> kept = new ArrayList<>(runs);
        List<Prediction.LeftOut> leftOut = new ArrayList<>();
        int maxLeftOut = runs.size() < OUTLIER_MIN_RUNS ? 0 : Math.min(runs.size() / 4, runs.size() - 3);
        while (leftOut.size() < maxLeftOut) {
            Prediction.LeftOut worst = worstOutlier(kept);
            if (worst == null) {
                break;
            }
            leftOut.add(worst);
            kept.removeIf(r -> r.run().appId().equals(worst.appId())
                    && Objects.equals(r.run().attemptId(), worst.attemptId()));
        }
        Prediction p = fitAll(kept, inputBytes);
        if (leftOut.isEmpty()) {
            return p;
        }
        List<PredictionWarning> warnings = new ArrayList<>(p.warnings());
        warnings.add(PredictionWarning.OUTLIER_RUNS);
        return new Prediction(p.appName(), p.inputBytes(), p.predictedMs(), p.keyStages(), p.otherStages(),
                p.overheadMs(), p.meanStageMs(), p.meanChangeMs(), p.trainingRuns(), p.minInputBytes(),
                p.maxInputBytes(), warnings, leftOut);
    }

    /**
     * The run the line of duration against input through the other runs misses worst, when it is missed by more than {@link #OUTLIER_MIN_ERROR}
     * and {@link #OUTLIER_RATIO}× the median miss of the others; else null.
     */
    private static Prediction.LeftOut worstOutlier(List<TrainingRun> runs) {
        int n = runs.size();
        double[] miss = new double[n];
        long[] expected = new long[n];
        for (int i = 0; i < n; i++) {
            double[] x = new double[n - 1];
            double[] y = new double[n - 1];
            for (int j = 0, k = 0; j < n; j++) {
                if (j != i) {
                    x[k] = runs.get(j).inputBytes();
                    y[k++] = runs.get(j).run().durationMs();
                }
            }
            long predicted = Math.max(1, Math.round(LinearFit.of(x, y).at(runs.get(i).inputBytes())));
            expected[i] = predicted;
            miss[i] = Math.abs(runs.get(i).run().durationMs() - predicted) / (double) predicted;
        }
        int worst = 0;
        for (int i = 1; i < n; i++) {
            if (miss[i] > miss[worst]) {
                worst = i;
            }
        }
        double[] rest = new double[n - 1];
        for (int i = 0, j = 0; i < n; i++) {
            if (i != worst) {
                rest[j++] = miss[i];
            }
        }
        java.util.Arrays.sort(rest);
        double median = rest.length % 2 == 1 ? rest[rest.length / 2]
                : (rest[rest.length / 2 - 1] + rest[rest.length / 2]) / 2;
        if (miss[worst] <= OUTLIER_MIN_ERROR || miss[worst] <= OUTLIER_RATIO * median) {
            return null;
        }
        AppSnapshot run = runs.get(worst).run();
        return new Prediction.LeftOut(run.appId(), run.attemptId(), runs.get(worst).inputBytes(), run.durationMs(),
                expected[worst]);
    }

    /** Algorithm 1 over every run given, none left out. */
    static Prediction fitAll(List<TrainingRun> runs, long inputBytes) {
        String name = runs.get(0).run().appName();
        Set<PredictionWarning> warnings = EnumSet.noneOf(PredictionWarning.class);
        int n = runs.size();
        double[] x = new double[n];
        long minInput = Long.MAX_VALUE;
        long maxInput = Long.MIN_VALUE;
        double overhead = 0;
        List<Map<StageKey, Long>> times = new ArrayList<>();
        Map<StageKey, Integer> presence = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            AppSnapshot run = runs.get(i).run();
            x[i] = runs.get(i).inputBytes();
            minInput = Math.min(minInput, runs.get(i).inputBytes());
            maxInput = Math.max(maxInput, runs.get(i).inputBytes());
            Map<StageKey, Long> t = stageTimes(run);
            times.add(t);
            long sum = 0;
            for (Map.Entry<StageKey, Long> e : t.entrySet()) {
                sum += e.getValue();
                presence.merge(e.getKey(), 1, Integer::sum);
            }
            overhead += run.durationMs() - sum;
        }
        overhead /= n;
        if (n < 3) {
            warnings.add(PredictionWarning.FEW_RUNS);
        }
        boolean varied = minInput != maxInput;
        if (!varied) {
            warnings.add(PredictionWarning.INPUT_NOT_VARIED);
        }
        if (presence.values().stream().anyMatch(c -> c < n)) {
            warnings.add(PredictionWarning.STAGES_DIFFER);
        }

        // Step 1: each stage's times across runs, its mean, and T_mean.
        Map<StageKey, double[]> series = new LinkedHashMap<>();
        Map<StageKey, Double> means = new HashMap<>();
        double meanOfMeans = 0;
        for (StageKey key : presence.keySet()) {
            double[] y = new double[n];
            double mean = 0;
            for (int i = 0; i < n; i++) {
                y[i] = times.get(i).getOrDefault(key, 0L);
                mean += y[i];
            }
            mean /= n;
            series.put(key, y);
            means.put(key, mean);
            meanOfMeans += mean;
        }
        double tMean = presence.isEmpty() ? 0 : meanOfMeans / presence.size();

        // Steps 2–3: candidates above T_mean, their fitted change over the input range, D_mean.
        double range = (double) maxInput - minInput;
        Map<StageKey, LinearFit> fits = new HashMap<>();
        Map<StageKey, Double> change = new HashMap<>();
        double dMean = 0;
        int candidates = 0;
        for (StageKey key : presence.keySet()) {
            if (means.get(key) > tMean) {
                LinearFit fit = LinearFit.of(x, series.get(key));
                fits.put(key, fit);
                change.put(key, Math.abs(fit.slope()) * range);
                dMean += Math.abs(fit.slope()) * range;
                candidates++;
            }
        }
        dMean = candidates == 0 ? 0 : dMean / candidates;

        // Step 4 and formula 5.
        List<KeyStage> keys = new ArrayList<>();
        List<StageMean> others = new ArrayList<>();
        double predicted = overhead;
        for (StageKey key : presence.keySet()) {
            Double d = change.get(key);
            if (varied && d != null && d > 0 && d >= dMean) {
                LinearFit fit = fits.get(key);
                double at = fit.at(inputBytes);
                if (at < 0) {
                    warnings.add(PredictionWarning.CLAMPED_AT_ZERO);
                    at = 0;
                }
                if (fit.r2() < MIN_R2) {
                    warnings.add(PredictionWarning.POOR_FIT);
                }
                keys.add(new KeyStage(key, means.get(key), d, fit, at));
                predicted += at;
            } else {
                others.add(new StageMean(key, means.get(key), presence.get(key)));
                predicted += means.get(key);
            }
        }
        if (keys.isEmpty()) {
            warnings.add(PredictionWarning.NO_KEY_STAGES);
        }
        if (inputBytes > MAX_EXTRAPOLATION * maxInput) {
            warnings.add(PredictionWarning.EXTRAPOLATION);
        }
        keys.sort(Comparator.comparingDouble(KeyStage::meanMs).reversed());
        others.sort(Comparator.comparingDouble(StageMean::meanMs).reversed());
        return new Prediction(name, inputBytes, Math.max(0, Math.round(predicted)), keys, others, overhead, tMean,
                dMean, n, minInput, maxInput, new ArrayList<>(warnings), List.of());
    }

    /** Input bytes Spark measured for a run: Σ over its stage attempts of {@code inputMetrics.bytesRead}. */
    public static long inputBytes(AppSnapshot run) {
        long bytes = 0;
        for (StageSummary s : run.stages()) {
            bytes += s.totals().get(TaskMetric.INPUT_BYTES);
        }
        return bytes;
    }

    /** Each stage's time in one run, keyed for matching across runs, in job then stage order. */
    static Map<StageKey, Long> stageTimes(AppSnapshot run) {
        return stageTimes(run, StageSummary::durationMs);
    }

    /** {@code measure} of each stage in one run (retries added to the first attempt's key), in job then stage order. */
    static Map<StageKey, Long> stageTimes(AppSnapshot run, java.util.function.ToLongFunction<StageSummary> measure) {
        List<JobSummary> jobs = new ArrayList<>(run.jobs());
        jobs.sort(Comparator.comparingLong(JobSummary::submissionTime).thenComparingInt(JobSummary::jobId));
        Map<Integer, Integer> jobPosition = new HashMap<>();
        for (int i = 0; i < jobs.size(); i++) {
            jobPosition.put(jobs.get(i).jobId(), i);
        }
        List<StageSummary> stages = new ArrayList<>();
        for (StageSummary s : run.stages()) {
            if (s.status() != StageSummary.StageStatus.SKIPPED && s.submissionTime() > 0) {
                stages.add(s);
            }
        }
        stages.sort(Comparator.comparingInt((StageSummary s) -> position(s, jobPosition))
                .thenComparingInt(StageSummary::stageId).thenComparingInt(StageSummary::attemptId));
        Map<StageKey, Long> out = new LinkedHashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        Map<Integer, StageKey> keyOfStageId = new HashMap<>();
        for (StageSummary s : stages) {
            // Retries of a stage add to its time under the key its first attempt got.
            StageKey key = keyOfStageId.get(s.stageId());
            if (key == null) {
                int job = position(s, jobPosition);
                int occurrence = seen.merge(job + "\u0000" + s.name(), 1, Integer::sum) - 1;
                key = new StageKey(job == Integer.MAX_VALUE ? -1 : job, s.name(), occurrence);
                keyOfStageId.put(s.stageId(), key);
            }
            out.merge(key, measure.applyAsLong(s), Long::sum);
        }
        return out;
    }

    private static int position(StageSummary s, Map<Integer, Integer> jobPosition) {
        int best = Integer.MAX_VALUE;
        for (int job : s.jobIds()) {
            Integer p = jobPosition.get(job);
            if (p != null) {
                best = Math.min(best, p);
            }
        }
        return best;
    }
}
