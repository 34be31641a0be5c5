package io.sparkscope.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.model.StageTotals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The jsonb columns' encodings. Metric maps use Spark's REST field names ({@link TaskMetric#stageTotalName}) so they
 * read naturally in SQL ({@code totals->>'executorRunTime'}) and survive reordering of our enums; unknown names from a
 * newer writer are ignored on read.
 */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    static {
        // Physical plans nest two JSON levels per operator; Jackson's default cap (1000) is too low for big plans.
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(20_000).build());
    }

    private static final Map<String, TaskMetric> BY_NAME = new HashMap<>();

    static {
        for (TaskMetric m : TaskMetric.values()) {
            BY_NAME.put(m.stageTotalName, m);
        }
    }

    private Json() {
    }

    /** All stage totals, zeros included: this is what the UI shows as Spark's StageData. */
    static String totals(StageTotals totals) {
        StringBuilder sb = new StringBuilder(1024).append('{');
        for (TaskMetric m : TaskMetric.values()) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(m.stageTotalName).append("\":").append(totals.get(m));
        }
        // Spark's StageData also has the derived remote+local sum; handy in SQL, ignored on read.
        return sb.append(",\"shuffleReadBytes\":").append(totals.shuffleReadBytes()).append('}').toString();
    }

    static StageTotals stageTotals(String json) {
        long[] sums = new long[TaskMetric.count()];
        read(json).fields().forEachRemaining(e -> {
            TaskMetric m = BY_NAME.get(e.getKey());
            if (m != null) {
                sums[m.ordinal()] = e.getValue().asLong();
            }
        });
        return StageTotals.of(sums);
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Stored JSON as a model value (records by their components, as {@link #write} wrote them). */
    static <T> T read(String json, com.fasterxml.jackson.core.type.TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is not readable: " + e.getOriginalMessage(), e);
        }
    }

    static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is not readable: " + e.getOriginalMessage(), e);
        }
    }

    /** A finding's details as stored: null when there are none (an empty map reads back as none). */
    static String details(Map<String, Object> details) {
        return details == null || details.isEmpty() ? null : write(details);
    }

    /**
     * Stored details back as the map {@code Finding} takes: JSON objects as insertion-ordered maps (in jsonb's key
     * order), arrays as lists, numbers as Integer, Long, BigInteger or Double as they fit.
     */
    static Map<String, Object> details(String json) {
        if (json == null || json.isEmpty()) {
            return Map.of();
        }
        try {
            return MAPPER.readValue(json, DETAILS);
        } catch (JsonProcessingException e) {
            return Map.of("details", json);
        }
    }

    /** A finding's setting advice: [{key, currentValue, currentSource, recommendedValue, reasons}, …], null when none. */
    static String advice(List<SettingAdvice> advice) {
        if (advice == null || advice.isEmpty()) {
            return null;
        }
        ArrayNode out = MAPPER.createArrayNode();
        for (SettingAdvice a : advice) {
            ObjectNode n = out.addObject();
            n.put("key", a.key());
            n.put("currentValue", a.currentValue());
            n.put("currentSource", a.currentSource().name());
            n.put("recommendedValue", a.recommendedValue());
            ArrayNode reasons = n.putArray("reasons");
            a.reasons().forEach(reasons::add);
        }
        return out.toString();
    }

    /** Stored advice back; an entry a newer writer shaped differently is skipped, an unknown source is UNKNOWN. */
    static List<SettingAdvice> advice(String json) {
        if (json == null || json.isEmpty()) {
            return List.of();
        }
        List<SettingAdvice> out = new ArrayList<>();
        for (JsonNode n : read(json)) {
            if (!n.hasNonNull("key") || !n.hasNonNull("recommendedValue")) {
                continue;
            }
            SettingAdvice.ValueSource source;
            try {
                source = SettingAdvice.ValueSource.valueOf(n.path("currentSource").asText("UNKNOWN"));
            } catch (IllegalArgumentException e) {
                source = SettingAdvice.ValueSource.UNKNOWN;
            }
            List<String> reasons = new ArrayList<>();
            n.path("reasons").forEach(r -> reasons.add(r.asText()));
            out.add(new SettingAdvice(n.get("key").asText(), n.path("currentValue").asText(""), source,
                    n.get("recommendedValue").asText(), reasons));
        }
        return out;
    }

    private static final TypeReference<LinkedHashMap<String, Object>> DETAILS = new TypeReference<>() {
    };

    static Map<String, Long> longMap(String json) {
        Map<String, Long> out = new TreeMap<>();
        if (json != null) {
            read(json).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
        }
        return out;
    }

    static Map<String, Integer> intMap(String json) {
        Map<String, Integer> out = new TreeMap<>();
        if (json != null) {
            read(json).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asInt()));
        }
        return out;
    }

    static Map<Long, Long> idMap(String json) {
        Map<Long, Long> out = new TreeMap<>();
        if (json != null) {
            read(json).fields().forEachRemaining(e -> out.put(Long.parseLong(e.getKey()), e.getValue().asLong()));
        }
        return out;
    }

    /** Plan trees are encoded by hand rather than by record introspection, so Jackson versions cannot change them. */
    static String plan(PlanNode plan) {
        return plan == null ? null : write(planNode(plan));
    }

    private static ObjectNode planNode(PlanNode node) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("nodeName", node.nodeName());
        o.put("simpleString", node.simpleString());
        ArrayNode metrics = o.putArray("metrics");
        for (PlanMetric m : node.metrics()) {
            metrics.addObject().put("name", m.name()).put("accumulatorId", m.accumulatorId()).put("metricType", m.metricType());
        }
        ArrayNode children = o.putArray("children");
        for (PlanNode child : node.children()) {
            children.add(planNode(child));
        }
        return o;
    }

    static PlanNode plan(String json) {
        return json == null ? null : planNode(read(json));
    }

    private static PlanNode planNode(JsonNode o) {
        List<PlanMetric> metrics = new ArrayList<>();
        for (JsonNode m : o.path("metrics")) {
            metrics.add(new PlanMetric(text(m, "name"), m.path("accumulatorId").asLong(), text(m, "metricType")));
        }
        List<PlanNode> children = new ArrayList<>();
        for (Iterator<JsonNode> it = o.path("children").elements(); it.hasNext(); ) {
            children.add(planNode(it.next()));
        }
        return new PlanNode(text(o, "nodeName"), text(o, "simpleString"), children, metrics);
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
