package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.store.query.WasteQuery;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The waste panel from waste.jte is the panel the code wrote, byte for byte, and application names are escaped. */
class WasteTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    static WasteQuery.Result result(boolean empty, long notComputed) {
        List<WasteQuery.Wasteful> top = List.of(
                new WasteQuery.Wasteful("app-1 " + EVIL, null, "ETL " + EVIL, "ann", 1_700_000_000_000L, 60_000,
                        "HIGH", new AppEfficiency(10.5, 4, 6.5, 0.5, 40, 20.0, 20.0, 1, 1_000)),
                new WasteQuery.Wasteful("app-2", "1", "", "bob", 1_700_000_100_000L, 60_000, "OK",
                        new AppEfficiency(1, 1, 0, 0, 4, null, null, 0, 0)),
                new WasteQuery.Wasteful("app-3", null, null, "bob", 1_700_000_200_000L, 60_000, "LOW",
                        new AppEfficiency(3, 2, 1, 0, 8, 4.0, 4.0, 0, 0)));
        return new WasteQuery.Result(empty ? List.of() : top,
                new WasteQuery.Totals(3, notComputed, 7.5, 24.0, 14.5, 52.0));
    }

    @Test
    void sameBytesAsTheCodeWithAndWithoutPrices() {
        for (Prices prices : List.of(Prices.NONE, new Prices(0.05, 0.01, "EUR"), new Prices(1, 0, "$"))) {
            for (WasteQuery.Result w : List.of(result(false, 0), result(false, 2), result(true, 0))) {
                Html code = new Html();
                CodeWasteView.render(code, w, prices);
                Html template = new Html();
                WasteView.render(template, w, prices);
                assertEquals(code.toString(), template.toString(), prices + " " + w);
            }
        }
    }

    @Test
    void escapesApplicationIdsAndNames() {
        Html h = new Html();
        WasteView.render(h, result(false, 1), new Prices(0.05, 0.01, "EUR"));
        String html = h.toString();
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("<tr data-app=\"app-1 &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;\">"),
                html);
        assertTrue(html.contains(">ETL &lt;script&gt;"), "the name as text");
        assertTrue(html.contains("id=\"waste-total-cost\""), "the priced total");
    }
}
