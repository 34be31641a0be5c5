package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.store.query.AppEfficiency;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The efficiency section from efficiency.jte is the section the code wrote, byte for byte. */
class EfficiencyTemplateTest {
    /** Not computed, memory measured or not, a driver-alone share or none, nothing held. */
    static List<AppEfficiency> figures() {
        return Arrays.asList(null, new AppEfficiency(10.5, 4, 6.5, 0.5, 40, 20.0, 20.0, 1, 61_000),
                new AppEfficiency(1, 1, 0, 0, 4, null, null, 0, 0), new AppEfficiency(0, 0, 0, 0, 0, 0.0, 0.0, 0, 0));
    }

    @Test
    void sameBytesAsTheCodeWithAndWithoutPrices() {
        for (Prices prices : List.of(Prices.NONE, new Prices(0.05, 0.006, "EUR"), new Prices(1, 0, "$"))) {
            for (AppEfficiency e : figures()) {
                Html code = new Html();
                CodeEfficiencyView.render(code, e, prices);
                Html template = new Html();
                EfficiencyView.render(template, e, prices);
                assertEquals(code.toString(), template.toString(), prices + " " + e);
            }
        }
    }

    @Test
    void showsTheCostFormulaWhenPriced() {
        Html h = new Html();
        EfficiencyView.render(h, figures().get(1), new Prices(0.05, 0.006, "EUR"));
        assertTrue(h.toString().contains("<p id=\"cost-formula\" data-cost=\""), h.toString());
        assertTrue(h.toString().contains(" paid while only the driver worked."), h.toString());
    }
}
