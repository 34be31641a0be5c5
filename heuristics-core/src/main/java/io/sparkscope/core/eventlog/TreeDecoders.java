package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static io.sparkscope.core.eventlog.Json.has;
import static io.sparkscope.core.eventlog.Json.intOf;
import static io.sparkscope.core.eventlog.Json.longOf;
import static io.sparkscope.core.eventlog.Json.textOf;

/**
 * Decoders for the events that occur a handful of times per log, written against Jackson's tree model because
 * clarity matters more than speed there. Field names and defaults follow Spark's {@code JsonProtocol}; the SQL
 * events are Spark's Jackson-serialised case classes (camelCase fields).
 */
final class TreeDecoders {
    private TreeDecoders() {
    }

    static SparkEvent logStart(JsonNode n) {
        return new SparkEvent.LogStart(textOf(n, "Spark Version", null));
    }

    static SparkEvent applicationStart(JsonNode n) {
        return new SparkEvent.ApplicationStart(textOf(n, "App Name", ""), textOf(n, "App ID", null),
                textOf(n, "App Attempt ID", null), longOf(n, "Timestamp", 0), textOf(n, "User", ""));
    }

    static SparkEvent applicationEnd(JsonNode n) {
        return new SparkEvent.ApplicationEnd(longOf(n, "Timestamp", 0));
    }

    static SparkEvent environmentUpdate(JsonNode n) {
        return new SparkEvent.EnvironmentUpdate(
                Json.stringMapOf(n.get("Spark Properties")),
                Json.stringMapOf(n.get("JVM Information")),
                Json.stringMapOf(n.get("System Properties")),
                Json.stringMapOf(n.get("Hadoop Properties"))); // since Spark 2.3; absent = empty
    }

    static SparkEvent executorAdded(JsonNode n) throws InvalidEventException {
        if (!has(n, "Executor ID")) {
            throw new InvalidEventException("SparkListenerExecutorAdded without Executor ID");
        }
        JsonNode info = n.get("Executor Info");
        return new SparkEvent.ExecutorAdded(longOf(n, "Timestamp", 0), textOf(n, "Executor ID", ""),
                textOf(info, "Host", ""), intOf(info, "Total Cores", 0));
    }

    static SparkEvent executorRemoved(JsonNode n) throws InvalidEventException {
        if (!has(n, "Executor ID")) {
            throw new InvalidEventException("SparkListenerExecutorRemoved without Executor ID");
        }
        return new SparkEvent.ExecutorRemoved(longOf(n, "Timestamp", 0), textOf(n, "Executor ID", ""),
                textOf(n, "Removed Reason", ""));
    }

    static SparkEvent blockManagerAdded(JsonNode n) throws InvalidEventException {
        JsonNode id = n.get("Block Manager ID");
        if (!has(id, "Executor ID")) {
            throw new InvalidEventException("SparkListenerBlockManagerAdded without Block Manager ID");
        }
        // "Timestamp" came with Spark 1.3; Spark uses -1 when absent
        return new SparkEvent.BlockManagerAdded(longOf(n, "Timestamp", -1), textOf(id, "Executor ID", ""),
                textOf(id, "Host", ""), longOf(n, "Maximum Memory", 0));
    }

    static SparkEvent jobEnd(JsonNode n) throws InvalidEventException {
        if (!has(n, "Job ID")) {
            throw new InvalidEventException("SparkListenerJobEnd without Job ID");
        }
        JsonNode result = n.get("Job Result");
        if (!has(result, "Result")) {
            throw new InvalidEventException("SparkListenerJobEnd without Job Result");
        }
        boolean succeeded = "JobSucceeded".equals(textOf(result, "Result", ""));
        String reason = null;
        if (!succeeded) {
            reason = textOf(result.get("Exception"), "Message", null);
            if (reason == null) {
                reason = textOf(result, "Result", "JobFailed");
            }
        }
        return new SparkEvent.JobEnd(intOf(n, "Job ID", 0), longOf(n, "Completion Time", -1), succeeded, reason);
    }

    static SparkEvent stageExecutorMetrics(JsonNode n) throws InvalidEventException {
        if (!has(n, "Executor ID") || !has(n, "Stage ID")) {
            throw new InvalidEventException("SparkListenerStageExecutorMetrics without Executor ID or Stage ID");
        }
        Map<String, Long> peaks = new HashMap<>();
        JsonNode metrics = n.get("Executor Metrics");
        if (metrics != null && metrics.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isNumber()) {
                    peaks.put(e.getKey(), e.getValue().asLong());
                }
            }
        }
        return new SparkEvent.StageExecutorMetrics(textOf(n, "Executor ID", ""), intOf(n, "Stage ID", 0),
                intOf(n, "Stage Attempt ID", 0), peaks);
    }

    static SparkEvent sqlExecutionStart(JsonNode n) throws InvalidEventException {
        requireExecutionId(n, "SparkListenerSQLExecutionStart");
        return new SparkEvent.SqlExecutionStart(longOf(n, "executionId", 0), textOf(n, "description", ""),
                textOf(n, "physicalPlanDescription", ""), planNode(n.get("sparkPlanInfo")), longOf(n, "time", 0));
    }

    static SparkEvent sqlExecutionEnd(JsonNode n) throws InvalidEventException {
        requireExecutionId(n, "SparkListenerSQLExecutionEnd");
        // "errorMessage" exists since Spark 3.4; empty means success there too
        String error = textOf(n, "errorMessage", null);
        return new SparkEvent.SqlExecutionEnd(longOf(n, "executionId", 0), longOf(n, "time", 0),
                error == null || error.isEmpty() ? null : error);
    }

    static SparkEvent sqlAdaptiveUpdate(JsonNode n) throws InvalidEventException {
        requireExecutionId(n, "SparkListenerSQLAdaptiveExecutionUpdate");
        return new SparkEvent.SqlAdaptivePlanUpdate(longOf(n, "executionId", 0),
                textOf(n, "physicalPlanDescription", ""), planNode(n.get("sparkPlanInfo")));
    }

    static SparkEvent driverAccumUpdates(JsonNode n) throws InvalidEventException {
        requireExecutionId(n, "SparkListenerDriverAccumUpdates");
        Map<Long, Long> updates = new HashMap<>();
        JsonNode list = n.get("accumUpdates");
        if (list != null && list.isArray()) {
            for (JsonNode pair : list) {
                // a Scala (Long, Long) tuple: [id, value]; some Jackson setups write {"_1":id,"_2":value}
                if (pair.isArray() && pair.size() == 2) {
                    updates.put(pair.get(0).asLong(), pair.get(1).asLong());
                } else if (pair.isObject() && has(pair, "_1") && has(pair, "_2")) {
                    updates.put(pair.get("_1").asLong(), pair.get("_2").asLong());
                }
            }
        }
        return new SparkEvent.DriverAccumUpdates(longOf(n, "executionId", 0), updates);
    }

    private static void requireExecutionId(JsonNode n, String event) throws InvalidEventException {
        if (!has(n, "executionId")) {
            throw new InvalidEventException(event + " without executionId");
        }
    }

    /** {@code SparkPlanInfo}: nodeName, simpleString, children, metrics; null when absent. */
    static SparkEvent.PlanNode planNode(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        List<SparkEvent.PlanNode> children = new ArrayList<>();
        JsonNode kids = n.get("children");
        if (kids != null && kids.isArray()) {
            for (JsonNode kid : kids) {
                SparkEvent.PlanNode child = planNode(kid);
                if (child != null) {
                    children.add(child);
                }
            }
        }
        List<SparkEvent.PlanMetric> metrics = new ArrayList<>();
        JsonNode ms = n.get("metrics");
        if (ms != null && ms.isArray()) {
            for (JsonNode m : ms) {
                metrics.add(new SparkEvent.PlanMetric(textOf(m, "name", ""), longOf(m, "accumulatorId", -1),
                        textOf(m, "metricType", "")));
            }
        }
        return new SparkEvent.PlanNode(textOf(n, "nodeName", ""), textOf(n, "simpleString", ""), children, metrics);
    }

    // ---- task end reason ----

    /**
     * "Task End Reason". Nearly always {@code {"Reason":"Success"}}, which is recognised while streaming without
     * building a tree; anything else is read as a tree. The parser is on the value's first token.
     */
    /** Reason fields {@link #taskEndReason(JsonNode)} never reads, so they are scanned but not built as trees. */
    private static final String REASON_UNUSED_1 = "Accumulables";
    private static final String REASON_UNUSED_2 = "Metric Peaks";

    static TaskEndReason taskEndReason(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        JsonToken t = p.nextToken();
        if (t == JsonToken.FIELD_NAME && "Reason".equals(p.currentName())) {
            p.nextToken();
            String kind = Json.text(p);
            t = p.nextToken();
            if (t == JsonToken.END_OBJECT && "Success".equals(kind)) {
                return TaskEndReason.SUCCESS;
            }
            ObjectNode node = Json.MAPPER.createObjectNode();
            node.put("Reason", kind);
            return taskEndReason(Json.restAsTree(p, node, REASON_UNUSED_1, REASON_UNUSED_2));
        }
        return taskEndReason(Json.restAsTree(p, Json.MAPPER.createObjectNode(), REASON_UNUSED_1, REASON_UNUSED_2));
    }

    /** Spark's reason kinds, with a one-line description and the stack trace when there is one. */
    static TaskEndReason taskEndReason(JsonNode n) {
        String kind = textOf(n, "Reason", "UnknownReason");
        return switch (kind) {
            case "Success" -> TaskEndReason.SUCCESS;
            case "Resubmitted" -> new TaskEndReason(kind, "resubmitted due to lost executor", null);
            case "TaskResultLost" -> new TaskEndReason(kind, "result lost from block manager", null);
            case "UnknownReason" -> new TaskEndReason(kind, "unknown reason", null);
            case "ExceptionFailure" -> exceptionFailure(n);
            case "FetchFailed" -> fetchFailed(n);
            // "Kill Reason" came with Spark 2.2
            case "TaskKilled" -> new TaskEndReason(kind, Json.firstLine(textOf(n, "Kill Reason", "unknown reason")),
                    null);
            case "TaskCommitDenied" -> new TaskEndReason(kind, "driver denied task commit for job "
                    + intOf(n, "Job ID", -1) + ", partition " + intOf(n, "Partition ID", -1) + ", attempt "
                    + intOf(n, "Attempt Number", -1), null);
            case "ExecutorLostFailure" -> executorLost(n);
            default -> new TaskEndReason(kind, kind, null);
        };
    }

    private static TaskEndReason exceptionFailure(JsonNode n) {
        String className = textOf(n, "Class Name", "");
        String description = textOf(n, "Description", "");
        String oneLine = description.isEmpty() ? className : className + ": " + Json.firstLine(description);
        String stack = textOf(n, "Full Stack Trace", null);
        if (stack == null || stack.isEmpty()) {
            stack = formatStackTrace(className + (description.isEmpty() ? "" : ": " + description),
                    n.get("Stack Trace"));
        }
        return new TaskEndReason("ExceptionFailure", oneLine, stack);
    }

    /** Spark before 1.x had no "Full Stack Trace": rebuild Java's format from the "Stack Trace" elements. */
    private static String formatStackTrace(String header, JsonNode elements) {
        if (elements == null || !elements.isArray() || elements.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(header);
        for (JsonNode e : elements) {
            sb.append("\n\tat ").append(textOf(e, "Declaring Class", "?")).append('.')
                    .append(textOf(e, "Method Name", "?")).append('(').append(textOf(e, "File Name", "Unknown Source"));
            int line = intOf(e, "Line Number", -1);
            if (line >= 0) {
                sb.append(':').append(line);
            }
            sb.append(')');
        }
        return sb.toString();
    }

    private static TaskEndReason fetchFailed(JsonNode n) {
        JsonNode bm = n.get("Block Manager Address");
        String address = bm == null || bm.isNull() ? "null"
                : "BlockManagerId(" + textOf(bm, "Executor ID", "?") + ", " + textOf(bm, "Host", "?") + ", "
                + intOf(bm, "Port", 0) + ")";
        StringBuilder sb = new StringBuilder("FetchFailed(").append(address)
                .append(", shuffleId=").append(intOf(n, "Shuffle ID", -1));
        if (has(n, "Map Index")) { // since Spark 3.0
            sb.append(", mapIndex=").append(intOf(n, "Map Index", -1));
        }
        sb.append(", mapId=").append(longOf(n, "Map ID", -1))
                .append(", reduceId=").append(intOf(n, "Reduce ID", -1))
                .append(", message=").append(Json.firstLine(textOf(n, "Message", "Unknown reason"))).append(')');
        String message = textOf(n, "Message", null);
        return new TaskEndReason("FetchFailed", sb.toString(),
                message != null && message.indexOf('\n') >= 0 ? message : null);
    }

    private static TaskEndReason executorLost(JsonNode n) {
        String reason = textOf(n, "Loss Reason", null);
        String executor = textOf(n, "Executor ID", "Unknown");
        return new TaskEndReason("ExecutorLostFailure",
                reason == null ? "executor " + executor + " lost" : Json.firstLine(reason), null);
    }
}
