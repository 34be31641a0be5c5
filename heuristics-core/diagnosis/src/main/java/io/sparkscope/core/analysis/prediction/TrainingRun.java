package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.model.AppSnapshot;

import java.util.Objects;

/**
 * One past run and the input size it processed, for runs whose input Spark did not measure (data generated in the
 * job, read through a source without input metrics) or when the user knows the size better.
 */
public record TrainingRun(AppSnapshot run, long inputBytes) {
    public TrainingRun {
        Objects.requireNonNull(run, "run");
        if (inputBytes <= 0) {
            throw new IllegalArgumentException("input size must be positive, got " + inputBytes + " for "
                    + run.appId());
        }
    }
}
