package io.sparkscope.core.report;

import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The efficiency lines of the text report (analyze, the driver log) and the JSON form. */
class EfficiencyReportTest {
    private static final long HOUR = 3_600_000;

    private static AppSnapshot app() {
        return SnapshotBuilder.app().master("yarn").durationMs(HOUR).conf("spark.executor.memory", "4g")
                .executor("1", 4, HOUR).executor("2", 4, 2 * HOUR)
                .peaks("1", Map.of("JVMHeapMemory", Units.GiB))
                .stage(0).startAt(0).durationMs(HOUR).task(SnapshotBuilder.task().runTime(HOUR).executor("1")).done()
                .build();
    }

    @Test
    void theReportShowsResourcesAndCostWithItsFormula() {
        String withPrices = TextReport.render(app(), List.of(), 5, null, new Prices(0.05, 0.01, "EUR"));
        assertTrue(withPrices.contains("Resources: 8.00 core-hours held, 3.00 used by tasks (63 % idle)"), withPrices);
        assertTrue(withPrices.contains("8.80 GB-hours held, 1.00 at peak use (77 % unused, over the 1 of 2 executors"
                + " Spark measured; JVM memory)"), withPrices);
        assertTrue(withPrices.contains("Memory peak: heap 1.0 GiB on executor 1 (4.4 GiB container)"), withPrices);
        assertTrue(withPrices.contains("Memory measured on 1 of 2 executors. Set spark.eventLog.logStageExecutorMetrics"
                + "=true"), withPrices);
        assertTrue(withPrices.contains("Cost: 0.49 EUR held (0.40 EUR cores + 0.09 EUR memory), 0.28 EUR wasted"),
                withPrices);
        assertTrue(withPrices.contains("cost = core-hours × 0.05 EUR + GB-hours × 0.01 EUR"), withPrices);
        String without = TextReport.render(app(), List.of(), 5, null);
        assertTrue(without.contains("Resources: 8.00 core-hours held"), without);
        assertFalse(without.contains("Cost:"), "no cost without prices");
    }

    @Test
    void jsonCarriesTheFiguresAndTheCost() {
        Map<String, Object> m = EfficiencyJson.of(Efficiency.of(app()), new Prices(0.05, 0.01, "EUR"));
        assertEquals(8.0, m.get("coreHoursAllocated"));
        assertEquals(5.0, m.get("coreHoursIdle"));
        @SuppressWarnings("unchecked")
        Map<String, Object> cost = (Map<String, Object>) m.get("cost");
        assertEquals("EUR", cost.get("currency"));
        assertEquals(0.488, (double) cost.get("allocated"), 1e-6);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> executors = (List<Map<String, Object>>) m.get("executors");
        @SuppressWarnings("unchecked")
        Map<String, Object> peak = (Map<String, Object>) executors.get(0).get("peakMemory");
        assertEquals(Units.GiB, peak.get("jvmHeapBytes"));
        assertEquals(-1L, peak.get("processTreeJvmRssBytes"), "not measured reads -1, never 0");
        assertNull(EfficiencyJson.of(Efficiency.of(app()), Prices.NONE).get("cost"));
    }

    @Test
    void smallAmountsKeepTwoSignificantDigits() {
        assertEquals("0.0031 EUR", EfficiencyText.money(0.003149, "EUR"));
        assertEquals("0.000012", EfficiencyText.money(0.0000123, ""));
        assertEquals("1 234.50 $", EfficiencyText.money(1234.5, "$"));
        assertEquals("−48 %", EfficiencyText.signedPercent(-0.481));
        assertEquals("+3 %", EfficiencyText.signedPercent(0.03));
        assertEquals("0.42", EfficiencyText.hours(0.4213));
        assertEquals("<0.01", EfficiencyText.hours(0.001));
    }
}
