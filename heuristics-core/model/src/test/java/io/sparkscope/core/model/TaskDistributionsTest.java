package io.sparkscope.core.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * All-zero quantile rows are shared between summaries to keep a long-running driver's window small; sharing must
 * never be visible: no caller can change another summary's values, and equality is what it was.
 */
class TaskDistributionsTest {
    private static final double[] Q = TaskDistributions.STANDARD_QUANTILES;

    private static double[][] rows(double runTime, double spill) {
        double[][] v = new double[DistributionMetric.count()][Q.length];
        java.util.Arrays.fill(v[DistributionMetric.values()[0].ordinal()], runTime);
        java.util.Arrays.fill(v[DistributionMetric.values()[1].ordinal()], spill);
        return v;
    }

    @Test
    void sharedZeroRowsCannotBeChangedThroughACopy() {
        DistributionMetric zeroMetric = DistributionMetric.values()[1];
        TaskDistributions a = new TaskDistributions(1, Q, rows(5, 0));
        TaskDistributions b = new TaskDistributions(1, Q, rows(7, 0));
        double[] fromA = a.values(zeroMetric);
        fromA[0] = 99;
        assertArrayEquals(new double[Q.length], b.values(zeroMetric));
        assertArrayEquals(new double[Q.length], a.values(zeroMetric));
        assertEquals(0.0, b.max(zeroMetric));
    }

    @Test
    void theInputArraysAreCopiedNotKept() {
        double[][] input = rows(5, 0);
        TaskDistributions a = new TaskDistributions(1, Q, input);
        input[0][0] = 42;
        input[1][0] = 42;
        assertEquals(5.0, a.min(DistributionMetric.values()[0]));
        assertEquals(0.0, a.min(DistributionMetric.values()[1]));
    }

    @Test
    void equalityIsUnchangedBySharing() {
        assertEquals(new TaskDistributions(1, Q, rows(5, 0)), new TaskDistributions(1, Q, rows(5, 0)));
        assertNotEquals(new TaskDistributions(1, Q, rows(5, 0)), new TaskDistributions(1, Q, rows(5, 1)));
        // -0.0 is not shared as zero: equals() compares bits and tells it from +0.0, before and after
        assertNotEquals(new TaskDistributions(1, Q, rows(5, 0.0)), new TaskDistributions(1, Q, rows(5, -0.0)));
        assertEquals(new TaskDistributions(1, Q, rows(5, -0.0)), new TaskDistributions(1, Q, rows(5, -0.0)));
    }
}
