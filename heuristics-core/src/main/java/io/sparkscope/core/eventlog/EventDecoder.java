package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.event.SparkEvent;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns one event-log line into one {@link SparkEvent}. Frequent events are decoded by streaming
 * ({@link TaskDecoder}, {@link StageDecoder}); rare ones through the tree model ({@link TreeDecoders}); unknown
 * types are only scanned (so broken JSON is still caught) and become {@link SparkEvent.Unknown}.
 *
 * <p>Not thread-safe: one per read.
 */
final class EventDecoder {
    static final String SQL_PACKAGE = "org.apache.spark.sql.execution.ui.";

    private final TaskDecoder tasks;
    /** Also shares the event type names: the type is read without allocating a String per line. */
    private final Interner interner = new Interner();
    private final Map<String, SparkEvent.Unknown> unknowns = new HashMap<>();

    EventDecoder() {
        this.tasks = new TaskDecoder(interner);
    }

    /**
     * @throws IOException           the line is not valid JSON (Jackson's exceptions are IOExceptions)
     * @throws InvalidEventException valid JSON but not a usable event
     */
    SparkEvent decode(byte[] buf, int off, int len) throws IOException, InvalidEventException {
        try (JsonParser p = Json.FACTORY.createParser(buf, off, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new InvalidEventException("not a JSON object");
            }
            // Spark always writes "Event" first; rely on that for speed, but accept any order.
            if (p.nextToken() == JsonToken.FIELD_NAME && "Event".equals(p.currentName())) {
                p.nextToken();
                return dispatch(interner.intern(p), p);
            }
        }
        String type;
        try (JsonParser p = Json.FACTORY.createParser(buf, off, len)) {
            p.nextToken();
            type = findEventType(p);
        }
        if (type == null) {
            throw new InvalidEventException("JSON object without an \"Event\" field");
        }
        try (JsonParser p = Json.FACTORY.createParser(buf, off, len)) {
            p.nextToken(); // START_OBJECT: decoders skip the "Event" field when they meet it
            return dispatch(type, p);
        }
    }

    /** Scans the top-level fields (parser on START_OBJECT) for "Event", skipping every value. */
    private static String findEventType(JsonParser p) throws IOException {
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("Event")) {
                return Json.text(p);
            }
            p.skipChildren();
        }
        return null;
    }

    /** The parser is on the token just before the event's next field (or its END_OBJECT). */
    private SparkEvent dispatch(String type, JsonParser p) throws IOException, InvalidEventException {
        if (type == null || type.isEmpty()) {
            throw new InvalidEventException("\"Event\" field is empty");
        }
        switch (type) {
            case "SparkListenerTaskEnd":
                return tasks.taskEnd(p);
            case "SparkListenerTaskStart":
                return tasks.taskStart(p);
            case "SparkListenerStageCompleted":
                return StageDecoder.stageCompleted(p);
            case "SparkListenerStageSubmitted":
                return StageDecoder.stageSubmitted(p);
            case "SparkListenerJobStart":
                return StageDecoder.jobStart(p);
            default:
                break;
        }
        TreeDecoder tree = treeDecoder(type);
        if (tree == null) {
            skipRest(p); // still tokenised, so a broken line is reported as broken, not as unknown
            return unknowns.computeIfAbsent(type, SparkEvent.Unknown::new);
        }
        p.nextToken();
        return tree.decode(Json.restAsTree(p, Json.MAPPER.createObjectNode()));
    }

    @FunctionalInterface
    private interface TreeDecoder {
        SparkEvent decode(ObjectNode event) throws InvalidEventException;
    }

    private static TreeDecoder treeDecoder(String type) {
        String name = type.startsWith(SQL_PACKAGE) ? type.substring(SQL_PACKAGE.length()) : type;
        return switch (name) {
            case "SparkListenerLogStart" -> TreeDecoders::logStart;
            case "SparkListenerApplicationStart" -> TreeDecoders::applicationStart;
            case "SparkListenerApplicationEnd" -> TreeDecoders::applicationEnd;
            case "SparkListenerEnvironmentUpdate" -> TreeDecoders::environmentUpdate;
            case "SparkListenerExecutorAdded" -> TreeDecoders::executorAdded;
            case "SparkListenerExecutorRemoved" -> TreeDecoders::executorRemoved;
            case "SparkListenerBlockManagerAdded" -> TreeDecoders::blockManagerAdded;
            case "SparkListenerJobEnd" -> TreeDecoders::jobEnd;
            case "SparkListenerStageExecutorMetrics" -> TreeDecoders::stageExecutorMetrics;
            case "SparkListenerSQLExecutionStart" -> TreeDecoders::sqlExecutionStart;
            case "SparkListenerSQLExecutionEnd" -> TreeDecoders::sqlExecutionEnd;
            case "SparkListenerSQLAdaptiveExecutionUpdate" -> TreeDecoders::sqlAdaptiveUpdate;
            case "SparkListenerDriverAccumUpdates" -> TreeDecoders::driverAccumUpdates;
            default -> null;
        };
    }

    private static void skipRest(JsonParser p) throws IOException {
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            p.nextToken();
            p.skipChildren();
        }
    }
}
