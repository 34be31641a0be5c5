package io.sparkscope.core.report;

import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.ExecutorUse;
import io.sparkscope.core.analysis.efficiency.MeasuringSetting;
import io.sparkscope.core.analysis.efficiency.MemoryPeaks;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.efficiency.WhatIfCost;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Efficiency figures in words, for the text report (analyze, the driver log) and the web pages, which share the
 * number formats and the cost formula's wording.
 */
public final class EfficiencyText {
    private EfficiencyText() {
    }

    /** Hours as {@link Units#hours} writes them (the pages and the text report share it with the heuristics). */
    public static String hours(double h) {
        return Units.hours(h);
    }

    /** "12.40 EUR", "0.0031 EUR": two decimals, two significant digits below a cent so a small run does not read 0.00. */
    public static String money(double amount, String currency) {
        String n;
        if (amount != 0 && Math.abs(amount) < 0.01) {
            // two significant digits: 0.0031, 0.000012
            n = new java.math.BigDecimal(amount).round(new java.math.MathContext(2)).stripTrailingZeros()
                    .toPlainString();
        } else {
            n = String.format(Locale.ROOT, "%,.2f", amount).replace(',', ' ');
        }
        return currency == null || currency.isEmpty() ? n : n + " " + currency;
    }

    /** "cost = core-hours × 0.05 EUR + GB-hours × 0.01 EUR". */
    public static String formula(Prices p) {
        return "cost = core-hours × " + money(p.perCoreHour(), p.currency()) + " + GB-hours × "
                + money(p.perGbHour(), p.currency());
    }

    /** "+3 %", "−48 %" (a real minus sign). */
    public static String signedPercent(double change) {
        long pct = Math.round(change * 100);
        return (pct > 0 ? "+" : pct < 0 ? "−" : "±") + Math.abs(pct) + " %";
    }

    /** "2 executors: +3 % time, −48 % cost" (or "core-hours" without prices); "as run" for the actual count. */
    public static String conclusion(WhatIfCost c, boolean local) {
        WhatIfCost.Conclusion k = c.conclusion();
        String unit = local ? "cores" : "executors";
        String what = c.priced() ? "cost" : "core-hours";
        if (k.point() == null) {
            return "no executor count was simulated";
        }
        if (k.verdict() == WhatIfCost.Verdict.AS_RUN) {
            return k.point().executors() + " " + unit + " (as run): no count simulated saves "
                    + Math.round(WhatIfCost.MIN_SAVING * 100) + " % of the " + what + " within +"
                    + Math.round(WhatIfCost.TIME_TOLERANCE * 100) + " % time, or of the time within +"
                    + Math.round(WhatIfCost.COST_TOLERANCE * 100) + " % " + what;
        }
        return k.point().executors() + " " + unit + ": " + signedPercent(k.point().timeChange()) + " time, "
                + signedPercent(k.point().costChange()) + " " + what;
    }

    /** What to set so that Spark measures the missing memory, as one sentence; "" when nothing is missing. */
    public static String measuringAdvice(List<MeasuringSetting> missing) {
        if (missing.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (MeasuringSetting m : missing) {
            parts.add(m.key + "=" + m.value + " (" + m.measures + ")");
        }
        return "Set " + String.join("; ", parts) + ".";
    }

    /**
     * What of the memory Spark did not measure and how to measure it, one sentence each; "" when all was measured.
     */
    public static String coverageGap(Efficiency e) {
        if (e.coverage().tooOld()) {
            return "Memory use not measured: this Spark version does not measure executor memory (3.0 and later do).";
        }
        if (e.coverage().missing().isEmpty()) {
            return "";
        }
        String what;
        if (!e.memoryMeasured()) {
            what = "Memory use not measured.";
        } else if (e.coverage().measured() < e.coverage().executors()) {
            what = "Memory measured on " + e.coverage().measured() + " of " + e.coverage().executors() + " executors.";
        } else if (e.coverage().processTreeMeasured() < e.coverage().executors()) {
            what = "Process memory (Python workers included) not measured" + (e.local() || e.coverage().driverMeasured()
                    ? "." : ", nor the driver's.");
        } else {
            what = "The driver's memory not measured.";
        }
        return what + " " + measuringAdvice(e.coverage().missing());
    }

    /** The report's lines, each starting with {@code indent}. */
    public static String lines(Efficiency e, Prices prices, String indent) {
        StringBuilder b = new StringBuilder();
        if (e.coreMsAllocated() <= 0 && e.byteMsAllocated() <= 0) {
            return "";
        }
        b.append(indent).append("Resources: ").append(hours(e.coreHoursAllocated())).append(" core-hours held, ")
                .append(hours(e.coreHoursUsed())).append(" used by tasks (").append(Units.percent(e.coreWasteShare()))
                .append(" idle");
        if (e.coreMsDriverAlone() > 0) {
            b.append(", ").append(Units.percent(e.coreDriverAloneShare())).append(" held while only the driver worked");
        }
        b.append(")\n");
        b.append(indent).append("           ").append(hours(e.gbHoursAllocated())).append(" GB-hours held");
        if (e.memoryMeasured()) {
            b.append(", ").append(hours(e.gbHoursPeakUsed())).append(" at peak use (")
                    .append(Units.percent(e.memoryWasteShare())).append(" unused");
            if (e.coverage().measured() < e.coverage().executors()) {
                b.append(", over the ").append(e.coverage().measured()).append(" of ")
                        .append(e.coverage().executors()).append(" executors Spark measured");
            }
            b.append(e.basis() == MemoryPeaks.Basis.PROCESS_TREE ? "; process memory" : "; JVM memory").append(")");
        } else {
            b.append(", use not measured");
        }
        b.append('\n');
        long peak = e.maxPeakHeapBytes();
        if (peak > 0) {
            ExecutorUse top = null;
            for (ExecutorUse u : e.executors()) {
                if (u.peaks().jvmHeap() == peak) {
                    top = u;
                }
            }
            b.append(indent).append("Memory peak: heap ").append(Units.bytes(peak));
            if (top != null && e.local()) {
                b.append(" of the driver's ").append(Units.bytes(top.containerBytes())).append(" heap");
            } else if (top != null) {
                b.append(" on executor ").append(top.executorId()).append(" (").append(Units.bytes(top.containerBytes()))
                        .append(" container)");
            }
            if (e.driverPeaks().measured() && !e.local()) {
                b.append("; driver heap ").append(Units.bytes(e.driverPeaks().jvmHeap()));
            }
            b.append('\n');
        }
        String gap = coverageGap(e);
        if (!gap.isEmpty()) {
            b.append(indent).append(gap).append('\n');
        }
        if (prices != null && prices.configured()) {
            Cost c = Cost.of(e, prices);
            b.append(indent).append("Cost: ").append(money(c.allocated(), prices.currency())).append(" held (")
                    .append(money(c.coreAllocated(), prices.currency())).append(" cores + ")
                    .append(money(c.memoryAllocated(), prices.currency())).append(" memory), ")
                    .append(money(c.wasted(), prices.currency())).append(" wasted (")
                    .append(Units.percent(c.wastedShare())).append(")")
                    .append(c.memoryMeasured() ? "" : ", memory waste not measured").append("; ")
                    .append(formula(prices)).append('\n');
        }
        return b.toString();
    }
}
