package io.sparkscope.core.analysis.prediction;

/**
 * A stage predicted by its mean time over the training runs: its time barely depends on the input size, or it is
 * too short to matter.
 *
 * @param meanMs mean over the training runs, a run without the stage counting 0 ms
 * @param runs   training runs in which the stage ran
 */
public record StageMean(StageKey key, double meanMs, int runs) {
}
