package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.store.query.AppEfficiency;

/**
 * A stored application's cost at the operator's prices, priced when a page shows it (the database holds resources,
 * not money): {@code core-hours × price per core-hour + GB-hours × price per GB-hour}, as {@link Cost#of} prices a
 * fresh analysis. Memory Spark did not measure is never called waste.
 */
public final class StoredCost {
    private StoredCost() {
    }

    /** The cost, or null when there are no prices or no figures. */
    public static Cost of(AppEfficiency e, Prices p) {
        if (e == null || p == null || !p.configured()) {
            return null;
        }
        double unusedGbHours = e.gbHoursWasted() == null ? 0 : Math.max(0, e.gbHoursWasted());
        return new Cost(p, e.coreHoursAllocated() * p.perCoreHour(), e.gbHoursAllocated() * p.perGbHour(),
                e.coreHoursWasted() * p.perCoreHour(), unusedGbHours * p.perGbHour(),
                e.coreHoursDriverAlone() * p.perCoreHour() + e.gbHoursDriverAlone() * p.perGbHour(),
                e.memoryMeasured());
    }

    /** The wasted amount the dashboard and search rank by: idle core-hours alone when there are no prices. */
    public static double wasteWeight(AppEfficiency e, Prices p) {
        Cost c = of(e, p);
        return c != null ? c.wasted() : e == null ? -1 : e.coreHoursWasted();
    }
}
