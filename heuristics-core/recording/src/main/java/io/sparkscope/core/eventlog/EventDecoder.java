package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.sql.SqlMetricIds;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one event-log line into one {@link SparkEvent}. Frequent events are decoded by streaming
 * ({@link TaskDecoder}, {@link StageDecoder}); rare ones through the tree model ({@link TreeDecoders}); unknown
 * types are only scanned (so broken JSON is still caught) and become {@link SparkEvent.Unknown}.
 *
 * <p>Every value the recorder uses is checked with Spark's ranges as it is decoded ({@link FieldChecks}) and
 * against the events before it ({@link Consistency}); the warnings of a line are in {@link #warnings()} after
 * {@link #settle}.
 *
 * <p>A line is decoded in two steps: {@link #parse} reads it alone, {@link #settle} checks it against the lines
 * before it. One decoder can do both, line after line; or, to decode on several threads, each
 * thread parses with a decoder of its own made {@link #forParsingAhead} and one decoder settles every line in the
 * log's order. Both ways give the same events and warnings.
 *
 * <p>Not thread-safe: one per read, or one per decoding thread.
 */
final class EventDecoder {
    static final String SQL_PACKAGE = "org.apache.spark.sql.execution.ui.";
    /**
     * Databricks writes this first in each of its log files, where Spark writes SparkListenerLogStart (which it
     * does not write): it names the Spark version too.
     */
    static final String DATABRICKS_METADATA = "DBCEventLoggingListenerMetadata";
    /**
     * JSON values one event decoded as a whole tree may hold. A tree costs tens of bytes per value, so this keeps
     * one such event to about 100 MB whatever its line holds; Spark's largest real ones (SQL plans of thousands
     * of operators, environments) stay well under it.
     */
    static final int MAX_TREE_TOKENS = 2_000_000;

    private final TaskDecoder tasks;
    /** Also shares the event type names: the type is read without allocating a String per line. */
    private final Interner interner = new Interner();
    private final Map<String, SparkEvent.Unknown> unknowns = new HashMap<>();
    private final FieldChecks checks = new FieldChecks();
    private final Consistency consistency;
    /** SQL metrics of the executions running at this point of the log: the task accumulables worth reading. */
    private final SqlMetricIds sqlMetricIds = new SqlMetricIds();
    /** A SparkListenerLogStart was read: its version wins over a Databricks metadata line's. */
    private boolean logStartSeen;
    /** The type of the line being parsed, once known (also when the line then fails). */
    private String type;

    /**
     * What {@link #parse} read of one line, before {@link #settle}: the event (null when the line failed), its type
     * once known, the line's warnings so far, and what settling needs besides.
     */
    record Parsed(SparkEvent event, String type, String eventName, String pending, List<String> warnings,
                  String launchProblem, DeferredAccumulables accumulables) {
    }

    /** @param logName the log's file or rolling-directory name (for an application id the log lacks) */
    EventDecoder(String logName) {
        this(logName, true);
    }

    private EventDecoder(String logName, boolean settles) {
        this.tasks = new TaskDecoder(interner, checks, settles ? sqlMetricIds : null);
        this.consistency = new Consistency(checks, logName);
    }

    /**
     * A decoder for a thread that parses lines ahead of the one settling them: it keeps a task's accumulables for
     * the settling decoder to pick from, since only that one knows which SQL metrics are running at the line.
     */
    static EventDecoder forParsingAhead() {
        return new EventDecoder("", false);
    }

    /** Warnings about invalid values of the line last decoded (also of one that threw InvalidEventException). */
    List<String> warnings() {
        return checks.warnings();
    }

    /** See {@link Consistency#missingApplicationStart()}; its warning is in {@link #warnings()}. */
    SparkEvent.ApplicationStart missingApplicationStart() {
        checks.begin();
        return consistency.missingApplicationStart();
    }

    /**
     * Reads one line on its own, the first step; when it throws, {@link #parsedSoFar} has what
     * was read of the line before.
     *
     * @throws IOException           the line is not valid JSON (Jackson's exceptions are IOExceptions)
     * @throws InvalidEventException valid JSON but not a usable event
     */
    Parsed parse(byte[] buf, int off, int len) throws IOException, InvalidEventException {
        checks.begin();
        type = null;
        tasks.takeDeferred();
        return parsedSoFar(parseEvent(buf, off, len));
    }

    /** The state of the line {@link #parse} read last, with {@code event} (null for a line that failed). */
    Parsed parsedSoFar(SparkEvent event) {
        List<String> warnings = checks.warnings();
        boolean task = event instanceof SparkEvent.TaskEnd || event instanceof SparkEvent.TaskStart;
        return new Parsed(event, type, checks.event(), checks.pending(),
                warnings.isEmpty() ? List.of() : List.copyOf(warnings), task ? tasks.launchProblem() : null,
                tasks.takeDeferred());
    }

    /**
     * Starts settling a line, in the log's order, whether or not it parsed: its warnings so far become
     * {@link #warnings()}, and a SparkListenerLogStart is taken note of even when the rest of its line is broken.
     */
    void begin(Parsed parsed) {
        if (parsed.warnings() != checks.warnings()) {
            checks.restore(parsed.eventName(), parsed.pending(), parsed.warnings());
        }
        metadataAfterLogStart = logStartSeen && DATABRICKS_METADATA.equals(parsed.type());
        if ("SparkListenerLogStart".equals(parsed.type())) {
            logStartSeen = true;
        }
    }

    /** The line was a Databricks metadata line after a SparkListenerLogStart: it is then an unknown event. */
    private boolean metadataAfterLogStart;

    /**
     * Checks a parsed event against the events before it (after {@link #begin} with the same line), and takes
     * note of it for the lines after it.
     *
     * @throws InvalidEventException the event cannot be placed (its warnings are in {@link #warnings()})
     */
    SparkEvent settle(Parsed parsed) throws InvalidEventException {
        SparkEvent event = parsed.event();
        if (metadataAfterLogStart) {
            // the log's own SparkListenerLogStart names the version; this line is then of no use
            event = unknowns.computeIfAbsent(parsed.type(), SparkEvent.Unknown::new);
        }
        DeferredAccumulables deferred = parsed.accumulables();
        if (deferred != null && !sqlMetricIds.isEmpty()) {
            int before = checks.warnings().size();
            SparkEvent.AccumUpdates updates = deferred.replay(sqlMetricIds, checks);
            checks.moveWarnings(before, deferred.warningIndex);
            if (event instanceof SparkEvent.TaskEnd t && updates != SparkEvent.AccumUpdates.NONE) {
                event = new SparkEvent.TaskEnd(t.stageId(), t.stageAttemptId(), t.taskType(), t.reason(),
                        t.taskInfo(), t.metrics(), t.executorMetrics(), updates);
            }
        }
        SparkEvent checked = consistency.apply(event, parsed.launchProblem());
        if (!(checked instanceof SparkEvent.TaskEnd) && !(checked instanceof SparkEvent.TaskStart)) {
            sqlMetricIds.onEvent(checked);
        }
        return checked;
    }

    private SparkEvent parseEvent(byte[] buf, int off, int len) throws IOException, InvalidEventException {
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
        this.type = type;
        checks.event(shortName(type));
        switch (type) {
            case "SparkListenerTaskEnd":
                return tasks.taskEnd(p);
            case "SparkListenerTaskStart":
                return tasks.taskStart(p);
            case "SparkListenerStageCompleted":
                return StageDecoder.stageCompleted(p, checks);
            case "SparkListenerStageSubmitted":
                return StageDecoder.stageSubmitted(p, checks);
            case "SparkListenerJobStart":
                return StageDecoder.jobStart(p, checks);
            default:
                break;
        }
        TreeDecoder tree = treeDecoder(type);
        if (type.equals(DATABRICKS_METADATA)) {
            // the same "Spark Version" field; settle() drops it when the log has its own SparkListenerLogStart
            tree = (n, c) -> TreeDecoders.logStart(n);
        }
        if (tree == null) {
            skipRest(p); // still tokenised, so a broken line is reported as broken, not as unknown
            return unknowns.computeIfAbsent(type, SparkEvent.Unknown::new);
        }
        p.nextToken();
        JsonParser budgeted = new TokenBudget(p, MAX_TREE_TOKENS, checks.event());
        return tree.decode(Json.restAsTree(budgeted, Json.MAPPER.createObjectNode()), checks);
    }

    @FunctionalInterface
    private interface TreeDecoder {
        SparkEvent decode(ObjectNode event, FieldChecks checks) throws InvalidEventException;
    }

    /** The type without the package of Spark's SQL and streaming events, as warnings name it. */
    private static String shortName(String type) {
        if (type.startsWith(SQL_PACKAGE)) {
            return type.substring(SQL_PACKAGE.length());
        }
        if (type.startsWith(StreamingDecoders.PREFIX)) {
            return type.substring(StreamingDecoders.PREFIX.length());
        }
        return type;
    }

    private static TreeDecoder treeDecoder(String type) {
        String name = shortName(type);
        return switch (name) {
            case "SparkListenerLogStart" -> (n, c) -> TreeDecoders.logStart(n);
            case "SparkListenerApplicationStart" -> TreeDecoders::applicationStart;
            case "SparkListenerApplicationEnd" -> TreeDecoders::applicationEnd;
            case "SparkListenerEnvironmentUpdate" -> TreeDecoders::environmentUpdate;
            case "SparkListenerExecutorAdded" -> TreeDecoders::executorAdded;
            case "SparkListenerExecutorRemoved" -> TreeDecoders::executorRemoved;
            case "SparkListenerBlockManagerAdded" -> TreeDecoders::blockManagerAdded;
            case "SparkListenerJobEnd" -> TreeDecoders::jobEnd;
            case "SparkListenerStageExecutorMetrics" -> TreeDecoders::stageExecutorMetrics;
            case "SparkListenerExecutorMetricsUpdate" -> TreeDecoders::executorMetricsUpdate;
            case "SparkListenerSQLExecutionStart" -> TreeDecoders::sqlExecutionStart;
            case "SparkListenerSQLExecutionEnd" -> TreeDecoders::sqlExecutionEnd;
            case "SparkListenerSQLAdaptiveExecutionUpdate" -> TreeDecoders::sqlAdaptiveUpdate;
            case "SparkListenerDriverAccumUpdates" -> TreeDecoders::driverAccumUpdates;
            case "StreamingQueryListener$QueryStartedEvent" -> StreamingDecoders::started;
            case "StreamingQueryListener$QueryProgressEvent" -> StreamingDecoders::progress;
            case "StreamingQueryListener$QueryIdleEvent" -> StreamingDecoders::idle;
            case "StreamingQueryListener$QueryTerminatedEvent" -> StreamingDecoders::terminated;
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
