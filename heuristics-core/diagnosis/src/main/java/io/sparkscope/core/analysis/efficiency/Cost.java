package io.sparkscope.core.analysis.efficiency;

/**
 * An application's cost at the operator's prices:
 * {@code cost = core-hours × price per core-hour + GB-hours × price per GB-hour}, for what the executors held
 * (allocated), what they used and the difference (wasted), and the part held while only the driver worked.
 * Memory that Spark did not measure counts as used: it is never called waste.
 *
 * @param prices          the prices applied
 * @param coreAllocated   core-hours allocated × price per core-hour
 * @param memoryAllocated GB-hours allocated × price per GB-hour
 * @param coreWasted      idle core-hours × price per core-hour
 * @param memoryWasted    unused GB-hours (measured executors) × price per GB-hour; 0 when nothing was measured
 * @param driverAlone     core- and GB-hours held while only the driver worked, priced
 * @param memoryMeasured  whether {@code memoryWasted} rests on measured peaks
 */
public record Cost(Prices prices, double coreAllocated, double memoryAllocated, double coreWasted,
                   double memoryWasted, double driverAlone, boolean memoryMeasured) {

    public static Cost of(Efficiency e, Prices p) {
        double memWasteGbHours = Math.max(0, e.gbHoursWasted());
        return new Cost(p, e.coreHoursAllocated() * p.perCoreHour(), e.gbHoursAllocated() * p.perGbHour(),
                e.coreHoursIdle() * p.perCoreHour(), memWasteGbHours * p.perGbHour(),
                e.coreHoursDriverAlone() * p.perCoreHour() + e.gbHoursDriverAlone() * p.perGbHour(),
                e.memoryMeasured());
    }

    public double allocated() {
        return coreAllocated + memoryAllocated;
    }

    public double wasted() {
        return coreWasted + memoryWasted;
    }

    public double used() {
        return Math.max(0, allocated() - wasted());
    }

    /** Wasted share of the allocated cost; 0 without cost. */
    public double wastedShare() {
        return allocated() > 0 ? wasted() / allocated() : 0;
    }
}
