package io.sparkscope.core.analysis.prediction;

import java.util.List;

/**
 * A predicted run time for one input size, from runs of the same application: the key stages' fitted times plus
 * the other stages' mean times plus the run's mean start and end overhead.
 *
 * @param appName          the application
 * @param inputBytes       the input size asked about
 * @param predictedMs      Σ key-stage fits + Σ other stages' means + overhead
 * @param keyStages        key stages, slowest first
 * @param otherStages      the other stages, slowest first
 * @param overheadMs       mean of (run duration − Σ its stage times): start-up, driver work, clean-up (negative when
 *                         stages overlapped more than the driver idled)
 * @param meanStageMs      T_mean: mean of the stages' mean times
 * @param meanChangeMs     D_mean: mean change of the candidate stages (those above T_mean)
 * @param trainingRuns     runs used
 * @param minInputBytes    smallest training input
 * @param maxInputBytes    largest training input
 * @param warnings         what makes the number unreliable; empty when it is not
 * @param leftOut          runs left out of the fit as outliers (a cold first run), each with what the other runs
 *                         predicted for it; empty when none was
 */
public record Prediction(
        String appName,
        long inputBytes,
        long predictedMs,
        List<KeyStage> keyStages,
        List<StageMean> otherStages,
        double overheadMs,
        double meanStageMs,
        double meanChangeMs,
        int trainingRuns,
        long minInputBytes,
        long maxInputBytes,
        List<PredictionWarning> warnings,
        List<LeftOut> leftOut) {

    public Prediction {
        keyStages = List.copyOf(keyStages);
        otherStages = List.copyOf(otherStages);
        warnings = List.copyOf(warnings);
        leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
    }

    /**
     * A run left out of the fit because the other runs predict it badly.
     *
     * @param expectedMs what the other runs' line of duration against input gives for its input size
     */
    public record LeftOut(String appId, String attemptId, long inputBytes, long durationMs, long expectedMs) {
    }

    /** True when nothing warns against the number (a run left out as an outlier is not a reason to doubt it). */
    public boolean reliable() {
        return warnings.stream().allMatch(w -> w == PredictionWarning.OUTLIER_RUNS);
    }
}
