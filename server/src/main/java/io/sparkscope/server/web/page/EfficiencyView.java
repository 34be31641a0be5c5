package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.store.query.AppEfficiency;

/**
 * The application page's efficiency section: core-hours and GB-hours held against used, the share held while only
 * the driver worked, the waste, and the cost at the operator's prices with its formula written out. Without prices
 * it shows the figures and says how to set them; without figures it says "not computed" (never 0). The markup is
 * efficiency.jte.
 */
final class EfficiencyView {
    /** How an operator sets prices, for every page that has none to show. */
    static final String HOW_TO_PRICE = "start the server with --cost-core-hour, --cost-gb-hour and --currency,"
            + " e.g. sparkscope serve … --cost-core-hour 0.05 --cost-gb-hour 0.006 --currency EUR";

    private EfficiencyView() {
    }

    static void render(Html h, AppEfficiency e, Prices prices) {
        JteefficiencyGenerated.render(new PageOutput(h), null, e, prices);
    }
}
