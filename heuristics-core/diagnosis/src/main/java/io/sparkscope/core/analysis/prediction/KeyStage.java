package io.sparkscope.core.analysis.prediction;

/**
 * A key stage: longer than the mean stage and changing with the input more than the candidates do on average; its
 * time is fitted against the input size (docs/architecture.md, "Key-stage prediction").
 *
 * @param meanMs      mean time over the training runs
 * @param changeMs    how much its time moves over the training inputs: |slope| × (largest − smallest input)
 * @param fit         its time (ms) against input bytes
 * @param predictedMs the fit at the requested input size, never below 0
 */
public record KeyStage(StageKey key, double meanMs, double changeMs, LinearFit fit, double predictedMs) {
}
