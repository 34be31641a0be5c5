package io.sparkscope.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sparkscope.core.analysis.whatif.WhatIfPoint;
import io.sparkscope.core.analysis.whatif.WhatIfResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A what-if result under stable JSON names (times in ms), shared by {@code analyze --json --what-if} and the web
 * API so both speak the same shape. Caveats are left to the caller: the CLI lists their codes, the API adds a
 * sentence to each.
 */
public final class WhatIfJson {
    private WhatIfJson() {
    }

    public static Map<String, Object> of(WhatIfResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("taskOrder", r.order().name());
        m.put("localMode", r.local());
        m.put("coresPerExecutor", r.coresPerExecutor());
        m.put("actualExecutors", r.actualExecutors());
        m.put("actualSlots", r.actualSlots());
        m.put("actualDurationMs", r.actualDurationMs());
        m.put("estimatedActualMs", r.estimatedActualMs());
        m.put("errorMs", r.errorMs());
        m.put("relativeError", r.relativeError());
        m.put("driverTimeMs", r.driverTimeMs());
        m.put("taskTimeMs", r.taskTimeMs());
        m.put("recordedTaskTimeMs", r.recordedTaskTimeMs());
        m.put("criticalPathMs", r.criticalPathMs());
        m.put("idealMs", r.idealMs());
        List<Map<String, Object>> curve = new ArrayList<>();
        for (WhatIfPoint p : r.curve()) {
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("executors", p.executors());
            point.put("slots", p.slots());
            point.put("estimatedWallMs", p.estimatedWallMs());
            point.put("actual", p.actual());
            curve.add(point);
        }
        m.put("curve", curve);
        m.put("stagesSimulated", r.stagesSimulated());
        m.put("phases", r.phases());
        m.put("reconstructedTasks", r.reconstructedTasks());
        return m;
    }

    /**
     * {@link #of} plus {@code more} (the CLI's caveats and cost), written to {@code out}; the curve is a handful of
     * points, so the object is small whatever the application's size.
     */
    public static void write(JsonGenerator out, WhatIfResult r, Map<String, Object> more) throws IOException {
        out.writeStartObject();
        for (Map.Entry<String, Object> f : of(r).entrySet()) {
            out.writeObjectField(f.getKey(), f.getValue());
        }
        for (Map.Entry<String, Object> f : more.entrySet()) {
            out.writeObjectField(f.getKey(), f.getValue());
        }
        out.writeEndObject();
    }
}
