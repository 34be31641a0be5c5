package io.sparkscope.core.analysis.whatif;

import java.util.Arrays;
import java.util.Objects;

/**
 * How to run the what-if simulation.
 *
 * @param order        task order within a stage
 * @param scaleFactors executor counts to simulate, as fractions of the actual count (1.0 is always added)
 */
public record WhatIfOptions(TaskOrder order, double[] scaleFactors) {
    /** 25 % to 400 % of the actual executors: from a quarter of the cluster to four times it. */
    public static final double[] DEFAULT_SCALES = {0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0};
    public static final WhatIfOptions DEFAULTS = new WhatIfOptions(TaskOrder.LONGEST_FIRST, DEFAULT_SCALES);

    public WhatIfOptions {
        Objects.requireNonNull(order, "order");
        scaleFactors = scaleFactors.clone();
        for (double f : scaleFactors) {
            if (!(f > 0) || Double.isInfinite(f)) {
                throw new IllegalArgumentException("scale factors must be positive, got " + f);
            }
        }
    }

    public WhatIfOptions withOrder(TaskOrder newOrder) {
        return new WhatIfOptions(newOrder, scaleFactors);
    }

    @Override
    public double[] scaleFactors() {
        return scaleFactors.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WhatIfOptions other && order == other.order
                && Arrays.equals(scaleFactors, other.scaleFactors);
    }

    @Override
    public int hashCode() {
        return order.hashCode() * 31 + Arrays.hashCode(scaleFactors);
    }

    @Override
    public String toString() {
        return "WhatIfOptions[order=" + order + ", scaleFactors=" + Arrays.toString(scaleFactors) + "]";
    }
}
