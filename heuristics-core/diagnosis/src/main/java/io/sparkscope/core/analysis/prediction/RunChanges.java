package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.analysis.RunSpecificConfig;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.text.Units;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What differs between a run and an earlier run of the same job, beyond the totals: the Spark settings (both as
 * stored, so already redacted), the operators of the SQL plans, and the stages whose executor time grew most. A pure
 * function of two snapshots; the Regression finding carries it so a slow run says what changed, not only how slow.
 *
 * @param baselineAppId    the earlier run compared with
 * @param settings         settings whose value differs, by key (ids, hosts and ports each run makes anew left out)
 * @param operatorsAdded   plan operators this run has more of, with how many more (empty without stored plans)
 * @param operatorsRemoved plan operators this run has fewer of, with how many fewer
 * @param stagesGrown      the stages whose executor run time grew most, matched by job position and name, most first
 */
public record RunChanges(String baselineAppId, List<SettingChange> settings, Map<String, Integer> operatorsAdded,
                         Map<String, Integer> operatorsRemoved, List<StageChange> stagesGrown) {
    /** Stages listed at most. */
    public static final int STAGES_SHOWN = 3;
    /** A stage must have grown by this share of the run's extra executor time, so noise is not named as a cause. */
    static final double STAGE_SHARE = 0.1;
    /**
     * Stages are named only when the run's executor time grew by this share of the earlier run's: a run that waited
     * longer for the same work has no stage to blame.
     */
    static final double WORK_GROWTH = 0.2;

    /** @param before null when the earlier run did not set it; {@code after} null when this one does not */
    public record SettingChange(String key, String before, String after) {
    }

    /** @param stage "job #2: map at X.scala:10" */
    public record StageChange(String stage, long beforeMs, long afterMs) {
        public long grownMs() {
            return afterMs - beforeMs;
        }
    }

    public RunChanges {
        settings = List.copyOf(settings);
        operatorsAdded = java.util.Collections.unmodifiableMap(new TreeMap<>(operatorsAdded));
        operatorsRemoved = java.util.Collections.unmodifiableMap(new TreeMap<>(operatorsRemoved));
        stagesGrown = List.copyOf(stagesGrown);
    }

    public boolean isEmpty() {
        return settings.isEmpty() && operatorsAdded.isEmpty() && operatorsRemoved.isEmpty() && stagesGrown.isEmpty();
    }

    public static RunChanges between(AppSnapshot before, AppSnapshot after) {
        return new RunChanges(before.appId(), settings(before.config().sparkProperties(),
                after.config().sparkProperties()), diff(operators(after), operators(before)),
                diff(operators(before), operators(after)), stagesGrown(before, after));
    }

    static List<SettingChange> settings(Map<String, String> before, Map<String, String> after) {
        List<SettingChange> out = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            if (!RunSpecificConfig.isRunSpecific(k) && !Objects.equals(before.get(k), after.get(k))) {
                out.add(new SettingChange(k, before.get(k), after.get(k)));
            }
        }
        return out;
    }

    /**
     * How many of each operator the run's SQL plans hold. Spark numbers code-generated blocks
     * ("WholeStageCodegen (3)"), and the number moves with any change before it, so it is dropped.
     */
    static Map<String, Integer> operators(AppSnapshot run) {
        Map<String, Integer> out = new TreeMap<>();
        for (SqlExecutionSummary e : run.sqlExecutions()) {
            Deque<PlanNode> todo = new ArrayDeque<>();
            if (e.plan() != null) {
                todo.push(e.plan());
            }
            while (!todo.isEmpty()) {
                PlanNode n = todo.pop();
                if (n.nodeName() != null && !n.nodeName().isBlank()) {
                    out.merge(n.nodeName().replaceAll(" \\(\\d+\\)$", "").strip(), 1, Integer::sum);
                }
                if (n.children() != null) {
                    n.children().forEach(todo::push);
                }
            }
        }
        return out;
    }

    /** What {@code more} holds more of than {@code less}, by how many. */
    private static Map<String, Integer> diff(Map<String, Integer> more, Map<String, Integer> less) {
        Map<String, Integer> out = new TreeMap<>();
        more.forEach((k, n) -> {
            int d = n - less.getOrDefault(k, 0);
            if (d > 0) {
                out.put(k, d);
            }
        });
        return out;
    }

    static List<StageChange> stagesGrown(AppSnapshot before, AppSnapshot after) {
        Map<StageKey, Long> was = KeyStagePredictor.stageTimes(before, s -> s.totals().get(TaskMetric.EXECUTOR_RUN_TIME));
        Map<StageKey, Long> now = KeyStagePredictor.stageTimes(after, s -> s.totals().get(TaskMetric.EXECUTOR_RUN_TIME));
        long total = was.values().stream().mapToLong(Long::longValue).sum();
        long grownInAll = now.values().stream().mapToLong(Long::longValue).sum() - total;
        List<StageChange> grown = new ArrayList<>();
        if (grownInAll <= 0 || grownInAll < WORK_GROWTH * total) {
            return grown;
        }
        for (Map.Entry<StageKey, Long> e : now.entrySet()) {
            long b = was.getOrDefault(e.getKey(), 0L);
            long g = e.getValue() - b;
            if (g > 0 && g >= STAGE_SHARE * grownInAll) {
                grown.add(new StageChange(label(e.getKey()), b, e.getValue()));
            }
        }
        grown.sort(Comparator.comparingLong(StageChange::grownMs).reversed());
        return grown.subList(0, Math.min(STAGES_SHOWN, grown.size()));
    }

    /** "job #2: map at X.scala:10 (2)": the job's position counted from 1, the occurrence only when not the first. */
    public static String label(StageKey k) {
        return (k.jobPosition() < 0 ? "no job" : "job #" + (k.jobPosition() + 1)) + ": " + k.name()
                + (k.occurrence() > 0 ? " (" + (k.occurrence() + 1) + ")" : "");
    }

    /** The finding's structured form: plain maps and lists, as finding details hold; keys of what did not change left out. */
    public Map<String, Object> toDetails() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("baselineAppId", baselineAppId);
        List<Map<String, Object>> s = new ArrayList<>();
        for (SettingChange c : settings) {
            s.add(map("key", c.key(), "before", c.before(), "after", c.after()));
        }
        putUnlessEmpty(out, "settingsChanged", s);
        putUnlessEmpty(out, "operatorsAdded", operatorsAdded);
        putUnlessEmpty(out, "operatorsRemoved", operatorsRemoved);
        List<Map<String, Object>> st = new ArrayList<>();
        for (StageChange c : stagesGrown) {
            st.add(map("stage", c.stage(), "beforeMs", c.beforeMs(), "afterMs", c.afterMs()));
        }
        putUnlessEmpty(out, "stagesGrown", st);
        return out;
    }

    // An empty list or map would show as an empty table on the run's page: a key absent means nothing changed.
    private static void putUnlessEmpty(Map<String, Object> out, String key, Object value) {
        if (!(value instanceof List<?> l && l.isEmpty()) && !(value instanceof Map<?, ?> m && m.isEmpty())) {
            out.put(key, value);
        }
    }

    /** A map of key, value, key, value … in that order (values may be null: a setting unset). */
    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    /** Plain sentences, empty when nothing differs. */
    public String sentences() {
        List<String> out = new ArrayList<>();
        if (!settings.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (SettingChange c : settings) {
                parts.add(c.key() + " " + value(c.before()) + " → " + value(c.after()));
            }
            out.add("Settings changed since " + baselineAppId + ": " + String.join(", ", parts) + ".");
        }
        if (!operatorsAdded.isEmpty() || !operatorsRemoved.isEmpty()) {
            List<String> parts = new ArrayList<>();
            operatorsAdded.forEach((k, n) -> parts.add("+" + n + " " + k));
            operatorsRemoved.forEach((k, n) -> parts.add("−" + n + " " + k));
            out.add("The SQL plans changed: " + String.join(", ", parts) + ".");
        }
        if (!stagesGrown.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (StageChange c : stagesGrown) {
                parts.add("'" + c.stage() + "' " + Units.duration(c.beforeMs()) + " → " + Units.duration(c.afterMs()));
            }
            out.add("Executor time grew most in " + String.join(", ", parts) + ".");
        }
        return String.join(" ", out);
    }

    private static String value(String v) {
        return v == null ? "(unset)" : v;
    }
}
