package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.analysis.whatif.WhatIfPoint;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.List;

/**
 * The executor what-if with a price on each point: at each simulated executor count, the core-hours and GB-hours
 * the executors would hold for the simulated wall time, their cost, and the change in time and cost against the
 * actual count simulated the same way (so the model's own error cancels out). Without prices the cost is the
 * core-hours ({@link #priced()} false).
 *
 * <p>The conclusion picks the cheapest count whose time is at most {@link #TIME_TOLERANCE} above the actual's and
 * that saves at least {@link #MIN_SAVING} of the cost; failing that, the fastest count that saves at least
 * {@link #MIN_SAVING} of the time for at most {@link #TIME_TOLERANCE} more cost; failing that, the actual count.
 *
 * @param points     by executor count, ascending
 * @param priced     whether the cost is money at the operator's prices (else core-hours)
 * @param prices     the prices (NONE when not priced)
 * @param conclusion the recommended count and its changes
 */
public record WhatIfCost(List<Point> points, boolean priced, Prices prices, Conclusion conclusion) {
    public static final double TIME_TOLERANCE = 0.10;
    public static final double COST_TOLERANCE = 0.10;
    public static final double MIN_SAVING = 0.05;

    public WhatIfCost {
        points = List.copyOf(points);
    }

    /**
     * @param timeChange relative to the actual count's simulated time (+0.03 = 3 % slower)
     * @param costChange relative to the actual count's cost (−0.48 = 48 % cheaper)
     */
    public record Point(int executors, long wallMs, double coreHours, double gbHours, double cost, boolean actual,
                        double timeChange, double costChange) {
    }

    /** What the curve suggests. */
    public enum Verdict {
        /** Another count costs less for about the same time. */
        CHEAPER,
        /** Another count is clearly faster for about the same cost. */
        FASTER,
        /** The actual count is the best trade-off simulated. */
        AS_RUN
    }

    public record Conclusion(Verdict verdict, Point point) {
    }

    /** The what-if of {@code app} priced with its own containers (local mode: the driver's heap). */
    public static WhatIfCost of(AppSnapshot app, WhatIfResult whatIf, Prices prices) {
        long container;
        if (whatIf.local()) {
            Efficiency e = Efficiency.of(app);
            container = e.executors().isEmpty() ? 0 : e.executors().get(0).containerBytes();
        } else {
            container = ContainerMemory.executor(SparkSettings.of(app)).totalBytes();
        }
        return of(whatIf, whatIf.coresPerExecutor(), container, prices);
    }

    /**
     * The curve priced point by point. In local mode (the result says so) a point's executors are the driver's
     * cores, and its memory is the driver's heap, held whatever the core count.
     *
     * @param coresPerExecutor  cores of each simulated executor (1 in local mode)
     * @param containerBytes    memory one executor holds (local mode: the driver's heap)
     */
    public static WhatIfCost of(WhatIfResult whatIf, int coresPerExecutor, long containerBytes, Prices prices) {
        boolean priced = prices != null && prices.configured();
        List<double[]> raw = new ArrayList<>();
        double actualCost = -1;
        long actualWall = -1;
        for (WhatIfPoint p : whatIf.curve()) {
            double hours = p.estimatedWallMs() / Efficiency.MS_PER_HOUR;
            double coreHours = (double) p.executors() * coresPerExecutor * hours;
            double gbHours = (whatIf.local() ? 1 : p.executors()) * (containerBytes / Efficiency.GIB) * hours;
            double cost = priced ? coreHours * prices.perCoreHour() + gbHours * prices.perGbHour() : coreHours;
            raw.add(new double[]{coreHours, gbHours, cost});
            if (p.actual()) {
                actualCost = cost;
                actualWall = p.estimatedWallMs();
            }
        }
        List<Point> points = new ArrayList<>();
        Point actual = null;
        for (int i = 0; i < whatIf.curve().size(); i++) {
            WhatIfPoint p = whatIf.curve().get(i);
            double[] r = raw.get(i);
            Point point = new Point(p.executors(), p.estimatedWallMs(), r[0], r[1], r[2], p.actual(),
                    change(p.estimatedWallMs(), actualWall), change(r[2], actualCost));
            points.add(point);
            if (p.actual()) {
                actual = point;
            }
        }
        return new WhatIfCost(points, priced, priced ? prices : Prices.NONE, conclude(points, actual));
    }

    private static double change(double value, double base) {
        return base > 0 ? value / base - 1 : 0;
    }

    private static Conclusion conclude(List<Point> points, Point actual) {
        if (actual == null) {
            return new Conclusion(Verdict.AS_RUN, null);
        }
        Point cheapest = null;
        for (Point p : points) {
            if (!p.actual() && p.timeChange() <= TIME_TOLERANCE && p.costChange() <= -MIN_SAVING
                    && (cheapest == null || p.cost() < cheapest.cost())) {
                cheapest = p;
            }
        }
        if (cheapest != null) {
            return new Conclusion(Verdict.CHEAPER, cheapest);
        }
        Point fastest = null;
        for (Point p : points) {
            if (!p.actual() && p.timeChange() <= -MIN_SAVING && p.costChange() <= COST_TOLERANCE
                    && (fastest == null || p.wallMs() < fastest.wallMs())) {
                fastest = p;
            }
        }
        if (fastest != null) {
            return new Conclusion(Verdict.FASTER, fastest);
        }
        return new Conclusion(Verdict.AS_RUN, actual);
    }
}
