package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.core.heuristics.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run's Regression finding in a few short lines for the history table: how much slower, and what changed against
 * the previous run (settings, plan operators, the stages that grew most, input per byte). Read from the finding's
 * details, so the history says what the finding says without repeating its whole message.
 */
public final class RegressionNote {
    private RegressionNote() {
    }

    public static List<String> lines(Finding f) {
        List<String> out = new ArrayList<>();
        if (f == null) {
            return out;
        }
        Map<String, Object> d = f.details();
        String what = "taskTime".equals(d.get("metric")) ? "task time" : "wall time";
        out.add(f.severity() + " regression: " + times(d.get("ratio")) + " the median " + what);
        if (d.get("inputRatio") instanceof Number in) {
            Object perByte = "taskTime".equals(d.get("metric")) ? d.get("perByteTaskTimeRatio")
                    : d.get("perByteDurationRatio");
            out.add("input " + times(in) + " the usual, " + what + " per byte " + times(perByte));
        }
        List<String> settings = new ArrayList<>();
        for (Map<?, ?> m : maps(d.get("settingsChanged"))) {
            settings.add(m.get("key") + " " + unset(m.get("before")) + " → " + unset(m.get("after")));
        }
        if (!settings.isEmpty()) {
            out.add("settings changed: " + String.join(", ", settings));
        }
        List<String> plan = new ArrayList<>();
        if (d.get("operatorsAdded") instanceof Map<?, ?> added) {
            added.forEach((k, n) -> plan.add("+" + n + " " + k));
        }
        if (d.get("operatorsRemoved") instanceof Map<?, ?> removed) {
            removed.forEach((k, n) -> plan.add("−" + n + " " + k));
        }
        if (!plan.isEmpty()) {
            out.add("plan changed: " + String.join(", ", plan));
        }
        List<String> stages = new ArrayList<>();
        for (Map<?, ?> m : maps(d.get("stagesGrown"))) {
            stages.add(m.get("stage") + " " + Fmt.duration(num(m.get("beforeMs"))) + " → "
                    + Fmt.duration(num(m.get("afterMs"))));
        }
        if (!stages.isEmpty()) {
            out.add("grew most: " + String.join("; ", stages));
        }
        return out;
    }

    /** "input grew 2.0× (wall time per byte 1.0× the usual): not a regression". */
    public static String inputGrew(RunHistory.Point p) {
        return "input grew " + times(p.inputGrowth()) + " (wall time per byte " + times(p.perByteRatio())
                + " the usual): not a regression";
    }

    private static List<Map<?, ?>> maps(Object o) {
        List<Map<?, ?>> out = new ArrayList<>();
        if (o instanceof List<?> l) {
            for (Object x : l) {
                if (x instanceof Map<?, ?> m) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    private static String times(Object o) {
        return o instanceof Number n ? FindingDetails.format(FindingDetails.Kind.TIMES, n) : "?";
    }

    private static long num(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    private static String unset(Object o) {
        return o == null ? "(unset)" : String.valueOf(o);
    }
}
