package io.sparkscope.core.heuristics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One problem a heuristic found, as structured data; views, the driver-log report and the store decide how to show
 * it: a heuristic states the judgement, not its layout.
 *
 * @param id             stable across runs of the analysis, so stores can upsert: {@code heuristic} alone for an
 *                       application-wide finding, else {@code heuristic + ":" + location}, e.g. {@code StageSkew:3.0}
 * @param heuristic      the catalogue id of the heuristic that produced it (e.g. {@code StageSkew})
 * @param severity       LOW or HIGH; a heuristic that finds nothing returns no finding instead of NONE
 * @param title          a short headline
 * @param message        what was found, in the user's own numbers (plain sentences)
 * @param recommendation what to try, naming config keys and values (plain sentences)
 * @param stageIds       stage attempts concerned, as {@code "stageId.attemptId"} ({@link
 *                       io.sparkscope.core.model.StageSummary#key()}), so retried attempts stay apart
 * @param executorIds    executors concerned ("driver" for the driver)
 * @param configKeys     Spark configuration keys the finding is about or the advice changes
 * @param details        machine-readable numbers behind the finding: values are only numbers, strings, booleans,
 *                       lists and string-keyed maps of those, so it serializes to JSON as is. Insertion order kept.
 * @param impact         what fixing it would save (wall time, task time and how that was estimated);
 *                       {@link Impact#NONE} when not estimated. The engine ranks findings by it
 * @param causedBy       the id of the finding this one is a knock-on effect of (a cancelled stage under the failure
 *                       that cancelled it), or null for a root cause; set by the engine
 * @param advice         the settings the recommendation changes, as data: key, value in force, value to try, reasons.
 *                       Never the value already in force, and one value per key across an application's findings
 */
public record Finding(
        String id,
        String heuristic,
        Severity severity,
        String title,
        String message,
        String recommendation,
        List<String> stageIds,
        List<String> executorIds,
        List<String> configKeys,
        Map<String, Object> details,
        Impact impact,
        String causedBy,
        List<SettingAdvice> advice) {

    public Finding {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(heuristic, "heuristic");
        Objects.requireNonNull(severity, "severity");
        if (severity == Severity.NONE) {
            throw new IllegalArgumentException("a finding needs severity LOW or HIGH; return no finding instead of NONE");
        }
        title = Objects.requireNonNullElse(title, "");
        message = Objects.requireNonNullElse(message, "");
        recommendation = Objects.requireNonNullElse(recommendation, "");
        stageIds = stageIds == null ? List.of() : List.copyOf(stageIds);
        executorIds = executorIds == null ? List.of() : List.copyOf(executorIds);
        configKeys = configKeys == null ? List.of() : List.copyOf(configKeys);
        details = details == null ? Map.of() : jsonMap(details, "details");
        impact = impact == null ? Impact.NONE : impact;
        causedBy = causedBy == null || causedBy.isBlank() ? null : causedBy;
        advice = advice == null ? List.of() : List.copyOf(advice);
    }

    /** A finding without an estimated saving, cause or structured advice (what stores of older versions hold). */
    public Finding(String id, String heuristic, Severity severity, String title, String message, String recommendation,
                   List<String> stageIds, List<String> executorIds, List<String> configKeys,
                   Map<String, Object> details) {
        this(id, heuristic, severity, title, message, recommendation, stageIds, executorIds, configKeys, details,
                Impact.NONE, null, List.of());
    }

    public Finding withImpact(Impact newImpact) {
        return new Finding(id, heuristic, severity, title, message, recommendation, stageIds, executorIds, configKeys,
                details, newImpact, causedBy, advice);
    }

    public Finding withCausedBy(String causeId) {
        return new Finding(id, heuristic, severity, title, message, recommendation, stageIds, executorIds, configKeys,
                details, impact, causeId, advice);
    }

    /** The same finding with other advice and the recommendation text that names it. */
    public Finding withAdvice(List<SettingAdvice> newAdvice, String newRecommendation) {
        return new Finding(id, heuristic, severity, title, message, newRecommendation, stageIds, executorIds,
                configKeys, details, impact, causedBy, newAdvice);
    }

    /** The advice for {@code key}, or null. */
    public SettingAdvice adviceFor(String key) {
        for (SettingAdvice a : advice) {
            if (a.key().equals(key)) {
                return a;
            }
        }
        return null;
    }

    /** The {@code details} key of the plan operators a finding is about ({@link Builder#planNode}). */
    public static final String PLAN_NODES = "planNodes";

    /** A plan operator a finding names: a SQL execution and Spark's node id in its plan graph. */
    public record PlanNodeRef(long sqlExecutionId, long nodeId, String nodeName) {
    }

    /** The plan operators this finding is about, from its details (empty when it names none). */
    public List<PlanNodeRef> planNodes() {
        List<PlanNodeRef> out = new ArrayList<>();
        if (details.get(PLAN_NODES) instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> m && m.get("sqlExecutionId") instanceof Number e
                        && m.get("nodeId") instanceof Number n) {
                    out.add(new PlanNodeRef(e.longValue(), n.longValue(),
                            m.get("nodeName") == null ? "" : String.valueOf(m.get("nodeName"))));
                }
            }
        }
        return out;
    }

    public static Builder builder(String heuristic, Severity severity) {
        return new Builder(heuristic, severity);
    }

    // Copies and checks the details tree: a heuristic must not smuggle objects a JSON writer cannot handle.
    // A map made with Map.of or Map.copyOf iterates in an order that changes from one JVM start to the next: its
    // entries are copied in key order, so a finding's JSON is the same bytes in every run. Other maps (a
    // LinkedHashMap a heuristic filled on purpose) keep their order.
    private static Map<String, Object> jsonMap(Map<?, ?> map, String path) {
        Map<String, Object> copy = new LinkedHashMap<>();
        Iterable<? extends Map.Entry<?, ?>> entries = map.entrySet();
        if (map.getClass().getName().startsWith("java.util.ImmutableCollections")) {
            List<Map.Entry<?, ?>> sorted = new ArrayList<>(map.entrySet());
            sorted.sort(Comparator.comparing(e -> String.valueOf(e.getKey())));
            entries = sorted;
        }
        for (Map.Entry<?, ?> e : entries) {
            if (!(e.getKey() instanceof String key)) {
                throw new IllegalArgumentException(path + " has a non-string key: " + e.getKey());
            }
            copy.put(key, jsonValue(e.getValue(), path + "." + key));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Object jsonValue(Object value, String path) {
        if (value == null || value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number n) {
            if (n instanceof Double d && (d.isNaN() || d.isInfinite()) || n instanceof Float f && (f.isNaN() || f.isInfinite())) {
                throw new IllegalArgumentException(path + " is " + n + ", which JSON cannot hold");
            }
            return n;
        }
        if (value instanceof Map<?, ?> m) {
            return jsonMap(m, path);
        }
        if (value instanceof Iterable<?> it) {
            List<Object> list = new ArrayList<>();
            int i = 0;
            for (Object o : it) {
                list.add(jsonValue(o, path + "[" + i++ + "]"));
            }
            return Collections.unmodifiableList(list);
        }
        if (value instanceof double[] arr) {
            List<Object> list = new ArrayList<>(arr.length);
            for (int i = 0; i < arr.length; i++) {
                list.add(jsonValue(arr[i], path + "[" + i + "]"));
            }
            return Collections.unmodifiableList(list);
        }
        if (value instanceof long[] arr) {
            List<Object> list = new ArrayList<>(arr.length);
            for (long v : arr) {
                list.add(v);
            }
            return Collections.unmodifiableList(list);
        }
        throw new IllegalArgumentException(path + " holds a " + value.getClass().getName()
                + "; details take numbers, strings, booleans, lists and maps only");
    }

    /** Fluent construction, so a heuristic reads as "what" then "where" then "numbers". */
    public static final class Builder {
        private final String heuristic;
        private final Severity severity;
        private String location;
        private String title;
        private String message;
        private String recommendation;
        private final List<String> stageIds = new ArrayList<>();
        private final List<String> executorIds = new ArrayList<>();
        private final List<String> configKeys = new ArrayList<>();
        private final Map<String, Object> details = new LinkedHashMap<>();
        private final List<SettingAdvice> advice = new ArrayList<>();
        private final List<Map<String, Object>> planNodes = new ArrayList<>();
        private Impact impact = Impact.NONE;

        private Builder(String heuristic, Severity severity) {
            this.heuristic = heuristic;
            this.severity = severity;
        }

        /** The part of the id after the heuristic, e.g. a stage key; omit for an application-wide finding. */
        public Builder location(String location) {
            this.location = location;
            return this;
        }

        public Builder title(String title) {
            this.title = title;
            return this;
        }

        public Builder message(String message) {
            this.message = message;
            return this;
        }

        public Builder recommendation(String recommendation) {
            this.recommendation = recommendation;
            return this;
        }

        public Builder stage(String stageKey) {
            stageIds.add(stageKey);
            return this;
        }

        public Builder stages(List<String> stageKeys) {
            stageIds.addAll(stageKeys);
            return this;
        }

        public Builder executor(String executorId) {
            if (executorId != null && !executorIds.contains(executorId)) {
                executorIds.add(executorId);
            }
            return this;
        }

        public Builder configKeys(String... keys) {
            for (String k : keys) {
                if (!configKeys.contains(k)) {
                    configKeys.add(k);
                }
            }
            return this;
        }

        public Builder detail(String key, Object value) {
            details.put(key, value);
            return this;
        }

        /** What fixing it would save; see {@link Impact}. */
        public Builder impact(Impact impact) {
            this.impact = impact == null ? Impact.NONE : impact;
            return this;
        }

        public Builder impact(long wallMs, long taskMs, String basis) {
            return impact(new Impact(wallMs, taskMs, basis));
        }

        /**
         * A setting the recommendation changes (its key is added to the config keys); name it in the text with
         * {@link SettingAdvice#phrase()}. Advice that recommends the value already in force is dropped when the
         * finding is built, and its phrase in the text becomes "key (already value)".
         */
        public Builder advise(SettingAdvice a) {
            if (a != null) {
                advice.removeIf(x -> x.key().equals(a.key()));
                advice.add(a);
                configKeys(a.key());
            }
            return this;
        }

        /**
         * An operator of a SQL plan the finding is about (the sort that spilled, the skewed join), so views can put it
         * on that node: kept in {@code details} under {@link #PLAN_NODES} as {@code {sqlExecutionId, nodeId,
         * nodeName}}, with Spark's node ids (those of its SQL tab and REST API).
         */
        public Builder planNode(long sqlExecutionId, long nodeId, String nodeName) {
            Map<String, Object> ref = new LinkedHashMap<>();
            ref.put("sqlExecutionId", sqlExecutionId);
            ref.put("nodeId", nodeId);
            ref.put("nodeName", nodeName == null ? "" : nodeName);
            if (!planNodes.contains(ref)) {
                planNodes.add(ref);
            }
            return this;
        }

        public Finding build() {
            if (!planNodes.isEmpty()) {
                details.put(PLAN_NODES, List.copyOf(planNodes));
            }
            String id = location == null || location.isEmpty() ? heuristic : heuristic + ":" + location;
            return AdviceReconciler.dropCurrentValues(new Finding(id, heuristic, severity, title, message,
                    recommendation, stageIds, executorIds, configKeys, details, impact, null, advice));
        }
    }
}
