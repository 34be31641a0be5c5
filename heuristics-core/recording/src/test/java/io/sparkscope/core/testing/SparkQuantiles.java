package io.sparkscope.core.testing;

import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.Quantiles;

/**
 * The fixtures' one way to turn task values into a stage's {@link TaskDistributions}: Spark's rule (each metric
 * sorted on its own, value at index {@code min(floor(q·n), n−1)}, no interpolation) at the standard quantiles.
 */
final class SparkQuantiles {
    private SparkQuantiles() {
    }

    /**
     * @param byMetric per {@link DistributionMetric} ordinal, the values of the {@code n} successful tasks (a longer
     *                 row is read up to {@code n}; a metric nobody set is a row of zeros)
     * @return null when {@code n} is 0, as a stage without a successful task has no distribution
     */
    static TaskDistributions of(long[][] byMetric, int n) {
        if (n == 0) {
            return null;
        }
        double[] qs = TaskDistributions.STANDARD_QUANTILES;
        double[][] values = new double[DistributionMetric.count()][];
        for (int m = 0; m < values.length; m++) {
            values[m] = Quantiles.of(byMetric[m], n, qs);
        }
        return new TaskDistributions(n, qs, values);
    }

    /** Rows for {@link #of}: one per metric, {@code n} zeros each. */
    static long[][] rows(int n) {
        return new long[DistributionMetric.count()][n];
    }
}
