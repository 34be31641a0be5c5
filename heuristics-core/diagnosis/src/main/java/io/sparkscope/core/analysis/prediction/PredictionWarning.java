package io.sparkscope.core.analysis.prediction;

/** Why a prediction should not be taken at face value; the caller words it. */
public enum PredictionWarning {
    /** A key stage's fit has R² below 0.8. */
    POOR_FIT,
    /** The requested size is more than twice the largest training input. */
    EXTRAPOLATION,
    /** Fewer than three training runs: any line fits two points. */
    FEW_RUNS,
    /** All training runs had the same input size: nothing to fit; the prediction is the mean run. */
    INPUT_NOT_VARIED,
    /** Not every stage ran in every training run; a missing stage counted 0 ms there. */
    STAGES_DIFFER,
    /** No stage qualified as key: the prediction does not depend on the input size. */
    NO_KEY_STAGES,
    /** A key stage's line fell below 0 ms at the requested size and was clamped to 0. */
    CLAMPED_AT_ZERO,
    /** Runs the others predict badly (a cold first run) were left out of the fit; {@link Prediction#leftOut} names them. */
    OUTLIER_RUNS
}
