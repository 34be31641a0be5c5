package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.WasteQuery;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dashboard from dashboard.jte is the page the code wrote, byte for byte (empty and full, with and without the
 * waste panel and prices), and application names and heuristics are escaped.
 */
class DashboardTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    static AppListRow newest(String name) {
        return new AppListRow(1, "app-1 " + EVIL, null, name, "ann", 1_700_000_000_000L, 1_700_000_100_000L, 100_000,
                AppFilter.Status.COMPLETE, 3, 5, 100, 0, 2, "HIGH", List.of(), 0, null);
    }

    static DashboardQuery.Dashboard dashboard(boolean empty, String name) {
        return empty ? new DashboardQuery.Dashboard(0, 0, 0, 0, 0, Optional.empty(),
                new DashboardQuery.Health(0, 0, 0), new DashboardQuery.Health(0, 0, 0), List.of())
                : new DashboardQuery.Dashboard(12_345, 600, 4_000, 9_000, 1_234_567, Optional.of(newest(name)),
                        new DashboardQuery.Health(1, 2, 3), new DashboardQuery.Health(10, 2_000, 30_000), List.of(
                        new DashboardQuery.TopFinding("Skew " + EVIL, "HIGH", 12, 3_600_000, 7_200_000),
                        new DashboardQuery.TopFinding("Config", "LOW", 1, 0, 0),
                        new DashboardQuery.TopFinding("Spill", null, 2_000, 60_000, 0)));
    }

    @Test
    void sameBytesAsTheCodeEmptyAndFull() {
        for (DashboardQuery.Dashboard d : List.of(dashboard(true, null), dashboard(false, null),
                dashboard(false, "ETL " + EVIL + " naïve"))) {
            SameBytes.assertSame(CodeDashboardView.render(d), DashboardView.render(d), "without waste");
            for (Prices prices : List.of(Prices.NONE, new Prices(0.05, 0.01, "EUR"))) {
                for (WasteQuery.Result w : Arrays.asList(WasteTemplateTest.result(false, 2),
                        WasteTemplateTest.result(true, 0))) {
                    SameBytes.assertSame(CodeDashboardView.render(d, w, prices), DashboardView.render(d, w, prices),
                            prices + " " + w);
                }
            }
        }
    }

    @Test
    void escapesNamesAndHeuristics() {
        String html = DashboardView.render(dashboard(false, "ETL " + EVIL), null, Prices.NONE);
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains(">ETL &lt;script&gt;"), "the newest application's name");
        assertTrue(html.contains("<tr data-heuristic=\"Skew &lt;script&gt;"), "a heuristic in an attribute");
        assertTrue(html.contains("href=\"/apps?since=1d&amp;severity=high\""), html);
    }
}
