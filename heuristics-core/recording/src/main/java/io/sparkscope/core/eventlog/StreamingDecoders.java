package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sparkscope.core.eventlog.Json.has;
import static io.sparkscope.core.eventlog.Json.textOf;

/**
 * Structured Streaming's listener events as Spark's event log holds them: {@code StreamingQueryListener$Query…Event}
 * objects written by Jackson, so field names are the Scala fields' ({@code id}, {@code runId}, {@code progress}, …),
 * times ISO-8601 texts, NaN rates the text {@code "NaN"}. Spark before 3.1 wrote no {@code batchDuration}
 * ({@code durationMs.triggerExecution} stands in), before 3.3 no operator names, removal counts or partition counts,
 * and called the rows a watermark dropped {@code numLateInputs}. Spark's top-level {@code numInputRows} and rates are
 * sums over the sources and are not written: {@link StreamingProgress} sums them the same way.
 *
 * <p>Values are checked like the other events ({@link FieldChecks}): a query or run id that is missing skips the
 * event; a batch id that is missing or invalid skips the progress (its batch cannot be placed); any other invalid
 * value becomes unknown (-1) with a warning naming the field.
 */
final class StreamingDecoders {
    static final String PREFIX = "org.apache.spark.sql.streaming.";

    private StreamingDecoders() {
    }

    static SparkEvent started(JsonNode n, FieldChecks checks) throws InvalidEventException {
        return new SparkEvent.StreamingQueryStarted(requiredText(n, "id", checks), requiredText(n, "runId", checks),
                textOf(n, "name", null), isoTime(n, "timestamp", checks));
    }

    static SparkEvent idle(JsonNode n, FieldChecks checks) throws InvalidEventException {
        return new SparkEvent.StreamingQueryIdle(requiredText(n, "id", checks), requiredText(n, "runId", checks),
                isoTime(n, "timestamp", checks));
    }

    static SparkEvent terminated(JsonNode n, FieldChecks checks) throws InvalidEventException {
        return new SparkEvent.StreamingQueryTerminated(requiredText(n, "id", checks), requiredText(n, "runId", checks),
                textOf(n, "exception", null), textOf(n, "errorClassOnException", null));
    }

    static SparkEvent progress(JsonNode event, FieldChecks checks) throws InvalidEventException {
        JsonNode n = event.get("progress");
        if (n == null || !n.isObject()) {
            throw new InvalidEventException(checks.event() + " without progress");
        }
        String id = requiredText(n, "id", checks);
        String runId = requiredText(n, "runId", checks);
        long batchId = checks.requiredIdOf(n, "batchId", Long.MAX_VALUE);
        Map<String, Long> durations = durations(n.get("durationMs"), checks);
        long duration = checks.valueOf(n, "batchDuration", 0, Long.MAX_VALUE, -1, -1, "");
        if (duration < 0) {
            Long trigger = durations.get("triggerExecution");
            duration = trigger == null ? -1 : trigger;
        }
        List<StreamingProgress.StateOperator> operators = new ArrayList<>();
        for (JsonNode op : array(n.get("stateOperators"))) {
            operators.add(stateOperator(op, checks));
        }
        List<StreamingProgress.Source> sources = new ArrayList<>();
        for (JsonNode s : array(n.get("sources"))) {
            sources.add(source(s, checks));
        }
        JsonNode sinkNode = n.get("sink");
        StreamingProgress.Sink sink = sinkNode == null || !sinkNode.isObject() ? null
                : new StreamingProgress.Sink(textOf(sinkNode, "description", null),
                checks.valueOf(sinkNode, "numOutputRows", -1, Long.MAX_VALUE, -1, -1, ""));
        return new SparkEvent.StreamingQueryProgress(new StreamingProgress(id, runId, textOf(n, "name", null),
                isoTime(n, "timestamp", checks), batchId, duration, durations, eventTimes(n.get("eventTime"), checks),
                operators, sources, sink));
    }

    private static StreamingProgress.StateOperator stateOperator(JsonNode op, FieldChecks checks) {
        long dropped = count(op, "numRowsDroppedByWatermark", checks);
        if (dropped < 0) {
            dropped = count(op, "numLateInputs", checks); // Spark 3.0's name for the same count
        }
        Map<String, Long> custom = new LinkedHashMap<>();
        JsonNode cm = op.get("customMetrics");
        if (cm != null && cm.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = cm.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                long v = count(cm, e.getKey(), checks);
                if (v >= 0) {
                    custom.put(e.getKey(), v);
                }
            }
        }
        return new StreamingProgress.StateOperator(textOf(op, "operatorName", null), count(op, "numRowsTotal", checks),
                count(op, "numRowsUpdated", checks), count(op, "numRowsRemoved", checks),
                count(op, "allUpdatesTimeMs", checks), count(op, "allRemovalsTimeMs", checks),
                count(op, "commitTimeMs", checks), count(op, "memoryUsedBytes", checks), dropped,
                (int) checks.valueOf(op, "numShufflePartitions", 0, Integer.MAX_VALUE, -1, -1, ""),
                (int) checks.valueOf(op, "numStateStoreInstances", 0, Integer.MAX_VALUE, -1, -1, ""), custom);
    }

    private static StreamingProgress.Source source(JsonNode s, FieldChecks checks) {
        Map<String, String> metrics = new LinkedHashMap<>();
        JsonNode m = s.get("metrics");
        if (m != null && m.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue() != null && !e.getValue().isNull()) {
                    metrics.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
                }
            }
        }
        return new StreamingProgress.Source(textOf(s, "description", null), offset(s, "startOffset"),
                offset(s, "endOffset"), offset(s, "latestOffset"), count(s, "numInputRows", checks),
                rate(s, "inputRowsPerSecond", checks), rate(s, "processedRowsPerSecond", checks), metrics);
    }

    /** An offset as the text Spark's progress object holds: Jackson writes the text, json4s would write its JSON. */
    private static String offset(JsonNode s, String field) {
        JsonNode v = s.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        return v.isTextual() ? v.asText() : v.toString();
    }

    private static Map<String, Long> durations(JsonNode n, FieldChecks checks) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (n != null && n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                String phase = it.next().getKey();
                long v = checks.valueOf(n, phase, 0, Long.MAX_VALUE, -1, -1, ", that phase is left out");
                if (v >= 0) {
                    out.put(phase, v);
                }
            }
        }
        return out;
    }

    private static Map<String, Long> eventTimes(JsonNode n, FieldChecks checks) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (n != null && n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                String key = it.next().getKey();
                // a watermark that has not advanced yet is 1970-01-01T00:00:00.000Z: 0 is a value here
                long t = iso(n, key, checks, true);
                if (t >= 0) {
                    out.put(key, t);
                }
            }
        }
        return out;
    }

    /** A count or size: absent is -1 (this Spark does not report it), invalid -1 with a warning. */
    private static long count(JsonNode n, String field, FieldChecks checks) {
        return checks.valueOf(n, field, 0, Long.MAX_VALUE, -1, -1, "");
    }

    /** A rate: Jackson writes Spark's NaN as the text "NaN"; that, absent and infinities are -1 (unknown). */
    private static double rate(JsonNode n, String field, FieldChecks checks) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return -1;
        }
        if (v.isNumber()) {
            return StreamingProgress.rate(v.doubleValue());
        }
        if (v.isTextual()) {
            String t = v.asText();
            if (t.equals("NaN") || t.equals("Infinity") || t.equals("-Infinity")) {
                return -1;
            }
        }
        checks.invalid(field, FieldChecks.describe(v) + " is not a number", "");
        return -1;
    }

    private static long isoTime(JsonNode n, String field, FieldChecks checks) {
        return iso(n, field, checks, false);
    }

    /** An ISO-8601 instant as epoch ms; absent or null -1, invalid -1 with a warning. */
    private static long iso(JsonNode n, String field, FieldChecks checks, boolean zeroIsATime) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return -1;
        }
        if (!v.isTextual()) {
            checks.invalid(field, FieldChecks.describe(v) + " is not an ISO-8601 time", "");
            return -1;
        }
        long ms;
        try {
            ms = Instant.parse(v.asText()).toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            checks.invalid(field, FieldChecks.describe(v) + " is not an ISO-8601 time", "");
            return -1;
        }
        if (zeroIsATime && ms == 0) {
            return 0;
        }
        String problem = FieldChecks.timeProblem(ms);
        if (problem != null) {
            checks.invalid(field, problem, "");
            return -1;
        }
        return ms;
    }

    private static String requiredText(JsonNode n, String field, FieldChecks checks) throws InvalidEventException {
        if (!has(n, field)) {
            throw new InvalidEventException(checks.event() + " without " + field);
        }
        JsonNode v = n.get(field);
        if (!v.isTextual() || v.asText().isBlank()) {
            throw checks.skip(field, FieldChecks.describe(v) + " is not an id");
        }
        return v.asText();
    }

    private static Iterable<JsonNode> array(JsonNode n) {
        return n != null && n.isArray() ? n : List.of();
    }
}
