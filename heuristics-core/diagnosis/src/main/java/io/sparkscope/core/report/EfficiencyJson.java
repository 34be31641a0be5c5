package io.sparkscope.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.ExecutorUse;
import io.sparkscope.core.analysis.efficiency.MeasuringSetting;
import io.sparkscope.core.analysis.efficiency.MemoryPeaks;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.efficiency.WhatIfCost;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Efficiency and cost under stable JSON names, shared by {@code analyze --json} and the web API: hours as numbers
 * of hours, bytes in bytes, shares as fractions; -1 where memory was not measured.
 */
public final class EfficiencyJson {
    private EfficiencyJson() {
    }

    public static Map<String, Object> of(Efficiency e, Prices prices) {
        Map<String, Object> m = head(e);
        m.put("executors", e.executors().stream().map(EfficiencyJson::executor).toList());
        m.putAll(tail(e, prices));
        return m;
    }

    /** The same object as {@link #of}, written to {@code out} one executor at a time. */
    public static void write(JsonGenerator out, Efficiency e, Prices prices) throws IOException {
        out.writeStartObject();
        for (Map.Entry<String, Object> f : head(e).entrySet()) {
            out.writeObjectField(f.getKey(), f.getValue());
        }
        out.writeArrayFieldStart("executors");
        for (ExecutorUse u : e.executors()) {
            out.writeObject(executor(u));
        }
        out.writeEndArray();
        for (Map.Entry<String, Object> f : tail(e, prices).entrySet()) {
            out.writeObjectField(f.getKey(), f.getValue());
        }
        out.writeEndObject();
    }

    private static Map<String, Object> head(Efficiency e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("localMode", e.local());
        m.put("appDurationMs", e.appMs());
        m.put("driverAloneMs", e.driverAloneMs());
        m.put("coreHoursAllocated", round(e.coreHoursAllocated()));
        m.put("coreHoursUsed", round(e.coreHoursUsed()));
        m.put("coreHoursIdle", round(e.coreHoursIdle()));
        m.put("coreHoursDriverAlone", round(e.coreHoursDriverAlone()));
        m.put("coreWasteShare", round(e.coreWasteShare()));
        m.put("coreDriverAloneShare", round(e.coreDriverAloneShare()));
        m.put("gbHoursAllocated", round(e.gbHoursAllocated()));
        m.put("gbHoursPeakUsed", round(e.gbHoursPeakUsed()));
        m.put("gbHoursWasted", round(e.gbHoursWasted()));
        m.put("gbHoursDriverAlone", round(e.gbHoursDriverAlone()));
        m.put("memoryWasteShare", round(e.memoryWasteShare()));
        m.put("memoryDriverAloneShare", round(e.memoryDriverAloneShare()));
        m.put("memoryBasis", e.basis().name());
        Map<String, Object> coverage = new LinkedHashMap<>();
        coverage.put("executors", e.coverage().executors());
        coverage.put("measured", e.coverage().measured());
        coverage.put("processTreeMeasured", e.coverage().processTreeMeasured());
        coverage.put("driverMeasured", e.coverage().driverMeasured());
        coverage.put("sparkTooOld", e.coverage().tooOld());
        List<Map<String, Object>> missing = new ArrayList<>();
        for (MeasuringSetting s : e.coverage().missing()) {
            missing.add(Map.of("key", s.key, "value", s.value, "measures", s.measures));
        }
        coverage.put("settingsToMeasure", missing);
        m.put("coverage", coverage);
        return m;
    }

    private static Map<String, Object> executor(ExecutorUse u) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("executorId", u.executorId());
        x.put("cores", u.cores());
        x.put("lifetimeMs", u.lifetimeMs());
        x.put("taskMs", u.taskMs());
        x.put("containerBytes", u.containerBytes());
        x.put("peakUsedBytes", u.peaks().usedBytes());
        x.put("peakMemory", peaks(u.peaks()));
        return x;
    }

    private static Map<String, Object> tail(Efficiency e, Prices prices) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("driverPeakMemory", peaks(e.driverPeaks()));
        m.put("cost", prices != null && prices.configured() ? cost(Cost.of(e, prices)) : null);
        return m;
    }

    /** A memory peak view under Spark-like names; -1 where not measured. */
    public static Map<String, Object> peaks(MemoryPeaks p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jvmHeapBytes", p.jvmHeap());
        m.put("jvmOffHeapBytes", p.jvmOffHeap());
        m.put("onHeapExecutionBytes", p.onHeapExecution());
        m.put("offHeapExecutionBytes", p.offHeapExecution());
        m.put("onHeapStorageBytes", p.onHeapStorage());
        m.put("offHeapStorageBytes", p.offHeapStorage());
        m.put("directPoolBytes", p.directPool());
        m.put("mappedPoolBytes", p.mappedPool());
        m.put("processTreeJvmRssBytes", p.jvmRss());
        m.put("processTreePythonRssBytes", p.pythonRss());
        m.put("processTreeOtherRssBytes", p.otherRss());
        return m;
    }

    public static Map<String, Object> cost(Cost c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("currency", c.prices().currency());
        m.put("perCoreHour", c.prices().perCoreHour());
        m.put("perGbHour", c.prices().perGbHour());
        m.put("formula", "core-hours × perCoreHour + GB-hours × perGbHour");
        m.put("allocated", round(c.allocated()));
        m.put("coreAllocated", round(c.coreAllocated()));
        m.put("memoryAllocated", round(c.memoryAllocated()));
        m.put("used", round(c.used()));
        m.put("wasted", round(c.wasted()));
        m.put("coreWasted", round(c.coreWasted()));
        m.put("memoryWasted", round(c.memoryWasted()));
        m.put("wastedShare", round(c.wastedShare()));
        m.put("driverAlone", round(c.driverAlone()));
        m.put("memoryWasteMeasured", c.memoryMeasured());
        return m;
    }

    public static Map<String, Object> whatIf(WhatIfCost w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("priced", w.priced());
        m.put("currency", w.prices().currency());
        List<Map<String, Object>> points = new ArrayList<>();
        for (WhatIfCost.Point p : w.points()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("executors", p.executors());
            x.put("estimatedWallMs", p.wallMs());
            x.put("coreHours", round(p.coreHours()));
            x.put("gbHours", round(p.gbHours()));
            x.put("cost", round(p.cost()));
            x.put("actual", p.actual());
            x.put("timeChange", round(p.timeChange()));
            x.put("costChange", round(p.costChange()));
            points.add(x);
        }
        m.put("points", points);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("verdict", w.conclusion().verdict().name());
        c.put("executors", w.conclusion().point() == null ? null : w.conclusion().point().executors());
        c.put("timeChange", w.conclusion().point() == null ? null : round(w.conclusion().point().timeChange()));
        c.put("costChange", w.conclusion().point() == null ? null : round(w.conclusion().point().costChange()));
        m.put("conclusion", c);
        return m;
    }

    /** Six significant decimals: enough for cents of large bills and shares, without float noise. */
    private static double round(double v) {
        return v < 0 ? -1 : Math.round(v * 1e6) / 1e6;
    }
}
