package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.store.query.WasteQuery;

/**
 * The dashboard's waste panel: what the applications started this week held and did not use, in all, and the most
 * wasteful of them (by wasted money at the operator's prices, by idle core-hours without). The markup is waste.jte.
 */
final class WasteView {
    private WasteView() {
    }

    static void render(Html h, WasteQuery.Result w, Prices prices) {
        JtewasteGenerated.render(new PageOutput(h), null, w, prices);
    }
}
