package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.store.query.AppFilter;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The what-if page from whatIf.jte is the page the code wrote, byte for byte, on real simulations (both task
 * orders, default and asked-for counts, with and without prices), and the application's name is escaped.
 */
class WhatIfTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    static List<AppSnapshot> snapshots() {
        return List.of(DiagnosisViewTest.APP, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-synthetic",
                "synthetic", "ann", 1_700_000_000_000L, 1_800_000L)));
    }

    @Test
    void sameBytesAsTheCodeOnRealSimulations() {
        String json = "{\"name\":\"</script><script>alert('x')</script> naïve\"}";
        for (AppSnapshot s : snapshots()) {
            for (String name : Arrays.asList(null, "ETL " + EVIL + " naïve —")) {
                var header = AppTemplateTest.header(name, AppFilter.Status.COMPLETE, null, "HIGH");
                for (TaskOrder order : TaskOrder.values()) {
                    for (List<Integer> counts : Arrays.asList(null, List.of(1, 2, 7, 64))) {
                        for (Prices prices : List.of(Prices.NONE, new Prices(0.05, 0.006, "EUR"))) {
                            AppWhatIf w = AppWhatIf.of(header, s, order, counts, prices);
                            SameBytes.assertSame(CodeWhatIfView.render(w, json), WhatIfView.render(w, json),
                                    s.appId() + " " + name + " " + order + " " + counts + " " + prices);
                        }
                    }
                }
            }
        }
    }

    @Test
    void escapesTheApplicationsName() {
        var header = AppTemplateTest.header("ETL " + EVIL, AppFilter.Status.COMPLETE, null, "HIGH");
        String html = WhatIfView.render(AppWhatIf.of(header, DiagnosisViewTest.APP, TaskOrder.LONGEST_FIRST, null,
                Prices.NONE), "{}");
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("<span id=\"app-title\">ETL &lt;script&gt;"), "the name as text");
        assertTrue(html.contains("<title>What-if &#183; ETL &lt;script&gt;"), "the name in the title");
        assertTrue(html.contains("id=\"whatif-table\""), html);
    }
}
