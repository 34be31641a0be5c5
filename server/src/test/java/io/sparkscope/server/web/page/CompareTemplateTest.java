package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppHeader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The comparison pages from compare.jte and compareForm.jte are the pages the code wrote, byte for byte, but for one
 * change: the code left each section's tbody for the next one (or the table's end) to close, which the template's
 * tag checker refuses, so the template closes them. Browsers build the same table either way (a tbody's end tag may
 * be left out before another tbody or the table's end).
 */
class CompareTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    static AppHeader app(int i, String name, String severity) {
        return new AppHeader(i, "app-" + i + " " + EVIL, i % 2 == 0 ? null : "1", name, "ann", "3.5.1",
                1_700_000_000_000L + i, 1_700_000_100_000L, 1_700_000_100_000L, 100_000, true,
                AppFilter.Status.COMPLETE, 3, 0, 5, 0, 100, 0, 2, 1_000, 900, 800, 10, 0, 0, 0, 0, 0, 0, 0, 1, severity,
                "job", null);
    }

    /**
     * Three runs (one unnamed, one hostile), metrics changed and not (a zero baseline too), findings present and
     * missing, configuration differing and unset, keys left out, stages missing, renamed, failed and changed, and
     * stage positions not shown.
     */
    static Comparison comparison(boolean empty) {
        List<AppHeader> apps = List.of(app(0, "ETL " + EVIL, "HIGH"), app(1, null, "OK"), app(2, "naïve — run", "LOW"));
        List<Comparison.MetricRow> metrics = List.of(
                new Comparison.MetricRow("Duration " + EVIL, Comparison.Unit.MS, List.of(1_000L, 2_000L, 1_010L),
                        List.of(false, true, false)),
                new Comparison.MetricRow("Spill", Comparison.Unit.BYTES, List.of(0L, 5_000_000L, 0L),
                        List.of(false, true, false)),
                new Comparison.MetricRow("Tasks", Comparison.Unit.COUNT, List.of(100L, 10L, 100L),
                        List.of(false, true, false)));
        List<Comparison.ConfigRow> config = List.of(
                new Comparison.ConfigRow("spark.executor.memory", Arrays.asList("4g", null, "8g " + EVIL), true, true),
                new Comparison.ConfigRow("key " + EVIL, List.of("a", "a", "a"), false, false));
        List<Comparison.FindingRow> findings = List.of(
                new Comparison.FindingRow("TaskFailure " + EVIL, Arrays.asList("HIGH", null, "LOW")));
        List<Comparison.StageMatch> stages = new ArrayList<>();
        stages.add(new Comparison.StageMatch("job 0 stage 0 " + EVIL, Arrays.asList(
                new Comparison.StageCell("0.0", "map " + EVIL, 1_000, 10, 0, 0, 1 << 20, false),
                new Comparison.StageCell("0.0", "map", 9_000, 10, 3, 1 << 30, 0, true), null), true));
        stages.add(new Comparison.StageMatch("job 0 stage 1", Arrays.asList(null,
                new Comparison.StageCell("1.0", "reduce", 1, 1, 0, 0, 0, false),
                new Comparison.StageCell("1.0", "reduce", 1, 1, 0, 0, 0, false)), false));
        return empty ? new Comparison(apps.subList(0, 2), metrics.subList(0, 1), List.of(), List.of(), List.of(), 0,
                List.of(), 0)
                : new Comparison(apps, metrics, config, findings, stages, 12, List.of("spark.app.id", "spark.driver.port"),
                        7);
    }

    /** The code's page with the tbody end tags it left out written. */
    private static String closed(String code) {
        String[] parts = code.split("<tbody>", -1);
        StringBuilder out = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            out.append(i > 1 ? "</tbody><tbody>" : "<tbody>").append(parts[i]);
        }
        return out.toString().replace("</table>", "</tbody></table>");
    }

    @Test
    void sameBytesAsTheCodeWithItsSectionsClosed() {
        assertEquals(closed(CodeCompareView.render(comparison(false))), CompareView.render(comparison(false)));
        assertEquals(closed(CodeCompareView.render(comparison(true))), CompareView.render(comparison(true)));
        assertEquals(4, CompareView.render(comparison(false)).split("</tbody>", -1).length - 1);
        for (String typed : new String[] {null, "", "app-1, " + EVIL}) {
            assertEquals(CodeCompareView.form(typed), CompareView.form(typed));
        }
    }

    @Test
    void escapesNamesKeysValuesAndStages() {
        String html = CompareView.render(comparison(false));
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains(">ETL &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;</a>"), "a run's name");
        assertTrue(html.contains("data-key=\"key &lt;script&gt;"), "a configuration key in an attribute");
        assertTrue(html.contains("<td class=\"value diff\">8g &lt;script&gt;"), "a configuration value");
        assertTrue(html.contains("<td class=\"value diff muted\">(unset)</td>"), html);
        assertTrue(html.contains("<div class=\"stage-name\">0.0 map &lt;script&gt;"), "a stage's name");
        assertFalse(CompareView.form("\"><script>").contains("<script>"), "the typed ids in the form's value");
    }
}
