package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.model.Lineage;

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
 *
 * <p>Values are checked with Spark's ranges ({@link FieldChecks}): an invalid id skips the event; an invalid time
 * becomes -1 (unknown); an invalid core count 0 and memory size -1, what the recorder holds for "not known".
 */
final class TreeDecoders {
    /**
     * Cores one executor may offer: Spark takes any positive int, but a count past this is a corrupted value
     * (the largest machines have under 2 000 hardware threads), and the timeline and what-if size by it.
     */
    static final int MAX_EXECUTOR_CORES = 65_536;

    private TreeDecoders() {
    }

    static SparkEvent logStart(JsonNode n) {
        return new SparkEvent.LogStart(textOf(n, "Spark Version", null));
    }

    static SparkEvent applicationStart(JsonNode n, FieldChecks checks) {
        JsonNode id = n.get("App ID");
        String appId = null;
        if (id != null && !id.isNull()) {
            if (id.isTextual()) {
                appId = id.asText();
            } else {
                checks.pending(FieldChecks.describe(id) + " is not a text");
            }
        }
        return new SparkEvent.ApplicationStart(textOf(n, "App Name", ""), appId,
                textOf(n, "App Attempt ID", null), checks.timeOf(n, "Timestamp", -1), textOf(n, "User", ""));
    }

    static SparkEvent applicationEnd(JsonNode n, FieldChecks checks) {
        return new SparkEvent.ApplicationEnd(checks.timeOf(n, "Timestamp", -1));
    }

    static SparkEvent environmentUpdate(JsonNode n, FieldChecks checks) {
        Map<String, String> spark = Json.stringMapOf(n.get("Spark Properties"));
        // The scheduler's job is read from these later; a malformed value is said here, where its line is known.
        for (String w : Lineage.of(spark).warnings()) {
            checks.warn(checks.event() + ": " + w);
        }
        return new SparkEvent.EnvironmentUpdate(
                spark,
                Json.stringMapOf(n.get("JVM Information")),
                Json.stringMapOf(n.get("System Properties")),
                Json.stringMapOf(n.get("Hadoop Properties"))); // since Spark 2.3; absent = empty
    }

    static SparkEvent executorAdded(JsonNode n, FieldChecks checks) throws InvalidEventException {
        if (!has(n, "Executor ID")) {
            throw new InvalidEventException("SparkListenerExecutorAdded without Executor ID");
        }
        JsonNode info = n.get("Executor Info");
        int cores = (int) checks.valueOf(info, "Total Cores", 1, MAX_EXECUTOR_CORES, 0, 0,
                " (0, the executor's core count is not known)");
        return new SparkEvent.ExecutorAdded(checks.timeOf(n, "Timestamp", -1), textOf(n, "Executor ID", ""),
                textOf(info, "Host", ""), cores);
    }

    static SparkEvent executorRemoved(JsonNode n, FieldChecks checks) throws InvalidEventException {
        if (!has(n, "Executor ID")) {
            throw new InvalidEventException("SparkListenerExecutorRemoved without Executor ID");
        }
        return new SparkEvent.ExecutorRemoved(checks.timeOf(n, "Timestamp", -1), textOf(n, "Executor ID", ""),
                textOf(n, "Removed Reason", ""));
    }

    static SparkEvent blockManagerAdded(JsonNode n, FieldChecks checks) throws InvalidEventException {
        JsonNode id = n.get("Block Manager ID");
        if (!has(id, "Executor ID")) {
            throw new InvalidEventException("SparkListenerBlockManagerAdded without Block Manager ID");
        }
        // "Timestamp" came with Spark 1.3; Spark uses -1 when absent
        // "Maximum Onheap/Offheap Memory" came with Spark 2.3
        return new SparkEvent.BlockManagerAdded(checks.timeOf(n, "Timestamp", -1), textOf(id, "Executor ID", ""),
                textOf(id, "Host", ""), checks.valueOf(n, "Maximum Memory", 0, Long.MAX_VALUE, 0, -1, ""),
                (int) checks.valueOf(id, "Port", 0, 65535, -1, -1, ""),
                checks.valueOf(n, "Maximum Onheap Memory", 0, Long.MAX_VALUE, -1, -1, ""),
                checks.valueOf(n, "Maximum Offheap Memory", 0, Long.MAX_VALUE, -1, -1, ""));
    }

    static SparkEvent jobEnd(JsonNode n, FieldChecks checks) throws InvalidEventException {
        if (!has(n, "Job ID")) {
            throw new InvalidEventException("SparkListenerJobEnd without Job ID");
        }
        JsonNode result = n.get("Job Result");
        if (!has(result, "Result")) {
            throw new InvalidEventException("SparkListenerJobEnd without Job Result");
        }
        int jobId = (int) checks.requiredIdOf(n, "Job ID", Integer.MAX_VALUE);
        boolean succeeded = "JobSucceeded".equals(textOf(result, "Result", ""));
        String reason = null;
        if (!succeeded) {
            reason = textOf(result.get("Exception"), "Message", null);
            if (reason == null) {
                reason = textOf(result, "Result", "JobFailed");
            }
        }
        return new SparkEvent.JobEnd(jobId, checks.timeOf(n, "Completion Time", -1), succeeded, reason);
    }

    static SparkEvent stageExecutorMetrics(JsonNode n, FieldChecks checks) throws InvalidEventException {
        if (!has(n, "Executor ID") || !has(n, "Stage ID")) {
            throw new InvalidEventException("SparkListenerStageExecutorMetrics without Executor ID or Stage ID");
        }
        int stageId = (int) checks.requiredIdOf(n, "Stage ID", Integer.MAX_VALUE);
        int attemptId = (int) checks.optionalIdOf(n, "Stage Attempt ID", Integer.MAX_VALUE, 0);
        Map<String, Long> peaks = new HashMap<>();
        JsonNode metrics = n.get("Executor Metrics");
        if (metrics != null && metrics.isObject()) {
            String[] what = new String[1];
            for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                // peaks are sizes, counts and times: never negative in what Spark writes
                long v = FieldChecks.raw(e.getValue(), 0, Long.MAX_VALUE, what);
                if (v == FieldChecks.INVALID) {
                    checks.invalid(FieldChecks.shown(e.getKey(), 100), what[0], ", that metric is left out");
                } else {
                    peaks.put(e.getKey(), v);
                }
            }
        }
        return new SparkEvent.StageExecutorMetrics(textOf(n, "Executor ID", ""), stageId, attemptId, peaks);
    }

    /**
     * {@code SparkListenerExecutorMetricsUpdate}, where a log has it: "Executor Metrics Updated" is a list of
     * {"Stage ID", "Stage Attempt ID", "Executor Metrics"} (Spark 3+) or one metrics object (Spark 2.4); the
     * samples are merged, largest value per metric. The accumulator updates it also carries are not used.
     */
    static SparkEvent executorMetricsUpdate(JsonNode n, FieldChecks checks) throws InvalidEventException {
        if (!has(n, "Executor ID")) {
            throw new InvalidEventException("SparkListenerExecutorMetricsUpdate without Executor ID");
        }
        long[] merged = null;
        JsonNode updated = n.get("Executor Metrics Updated");
        if (updated != null && updated.isArray()) {
            for (JsonNode sample : updated) {
                merged = mergePeaks(merged, sample.get("Executor Metrics"), checks);
            }
        } else if (updated != null && updated.isObject()) {
            merged = mergePeaks(merged, updated, checks);
        }
        ExecutorPeaks.Builder b = ExecutorPeaks.builder();
        if (merged != null) {
            for (int i = 0; i < merged.length; i++) {
                b.set(ExecutorMetric.byOrdinal(i), merged[i]);
            }
        }
        return new SparkEvent.ExecutorMetricsUpdate(textOf(n, "Executor ID", ""), b.build());
    }

    private static long[] mergePeaks(long[] into, JsonNode metrics, FieldChecks checks) {
        if (metrics == null || !metrics.isObject()) {
            return into;
        }
        long[] out = into;
        if (out == null) {
            out = new long[ExecutorMetric.count()];
            java.util.Arrays.fill(out, ExecutorPeaks.ABSENT);
        }
        String[] what = new String[1];
        for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ExecutorMetric m = ExecutorMetric.bySparkName(e.getKey());
            if (m == null) {
                continue;
            }
            long v = FieldChecks.raw(e.getValue(), -1, Long.MAX_VALUE, what);
            if (v == FieldChecks.INVALID) {
                checks.invalid(m.sparkName, what[0], ", that metric is left out");
            } else if (v > out[m.ordinal()]) {
                out[m.ordinal()] = v;
            }
        }
        return out;
    }

    static SparkEvent sqlExecutionStart(JsonNode n, FieldChecks checks) throws InvalidEventException {
        long id = executionId(n, checks);
        return new SparkEvent.SqlExecutionStart(id, textOf(n, "description", ""),
                textOf(n, "physicalPlanDescription", ""), planNode(n.get("sparkPlanInfo"), checks),
                checks.timeOf(n, "time", -1));
    }

    static SparkEvent sqlExecutionEnd(JsonNode n, FieldChecks checks) throws InvalidEventException {
        long id = executionId(n, checks);
        // "errorMessage" exists since Spark 3.4, empty for a success: kept as it is, since Spark's status of the
        // execution tells an empty message (completed, whatever its jobs did) from none (judged by its jobs)
        return new SparkEvent.SqlExecutionEnd(id, checks.timeOf(n, "time", -1), textOf(n, "errorMessage", null));
    }

    static SparkEvent sqlAdaptiveUpdate(JsonNode n, FieldChecks checks) throws InvalidEventException {
        long id = executionId(n, checks);
        return new SparkEvent.SqlAdaptivePlanUpdate(id, textOf(n, "physicalPlanDescription", ""),
                planNode(n.get("sparkPlanInfo"), checks));
    }

    static SparkEvent driverAccumUpdates(JsonNode n, FieldChecks checks) throws InvalidEventException {
        long executionId = executionId(n, checks);
        List<SparkEvent.AccumUpdate> updates = new ArrayList<>();
        JsonNode list = n.get("accumUpdates");
        if (list != null && list.isArray()) {
            String[] what = new String[1];
            for (JsonNode pair : list) {
                // a Scala (Long, Long) tuple: [id, value]; some Jackson setups write {"_1":id,"_2":value}
                JsonNode id = null;
                JsonNode value = null;
                if (pair.isArray() && pair.size() == 2) {
                    id = pair.get(0);
                    value = pair.get(1);
                } else if (pair.isObject() && has(pair, "_1") && has(pair, "_2")) {
                    id = pair.get("_1");
                    value = pair.get("_2");
                }
                if (id == null) {
                    continue;
                }
                long accumulator = FieldChecks.raw(id, 0, Long.MAX_VALUE, what);
                // a SQL metric's value may be any long (Spark starts some at -1)
                long v = accumulator == FieldChecks.INVALID ? FieldChecks.INVALID
                        : FieldChecks.raw(value, Long.MIN_VALUE + 1, Long.MAX_VALUE, what);
                if (v == FieldChecks.INVALID) {
                    checks.invalid("accumUpdates", what[0], ", that update is left out");
                } else {
                    updates.add(new SparkEvent.AccumUpdate(accumulator, v));
                }
            }
        }
        return new SparkEvent.DriverAccumUpdates(executionId, updates);
    }

    private static long executionId(JsonNode n, FieldChecks checks) throws InvalidEventException {
        return checks.requiredIdOf(n, "executionId", Long.MAX_VALUE);
    }

    /** {@code SparkPlanInfo}: nodeName, simpleString, children, metrics; null when absent. */
    static SparkEvent.PlanNode planNode(JsonNode n, FieldChecks checks) {
        if (n == null || !n.isObject()) {
            return null;
        }
        List<SparkEvent.PlanNode> children = new ArrayList<>();
        JsonNode kids = n.get("children");
        if (kids != null && kids.isArray()) {
            for (JsonNode kid : kids) {
                SparkEvent.PlanNode child = planNode(kid, checks);
                if (child != null) {
                    children.add(child);
                }
            }
        }
        List<SparkEvent.PlanMetric> metrics = new ArrayList<>();
        JsonNode ms = n.get("metrics");
        if (ms != null && ms.isArray()) {
            for (JsonNode m : ms) {
                // -1 is the "no accumulator" a metric without one gets
                long id = checks.valueOf(m, "accumulatorId", -1, Long.MAX_VALUE, -1, -1, "");
                metrics.add(new SparkEvent.PlanMetric(textOf(m, "name", ""), id, textOf(m, "metricType", "")));
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
            return taskEndReason(Json.restAsTree(budgeted(p), node, REASON_UNUSED_1, REASON_UNUSED_2));
        }
        return taskEndReason(Json.restAsTree(budgeted(p), Json.MAPPER.createObjectNode(), REASON_UNUSED_1,
                REASON_UNUSED_2));
    }

    private static JsonParser budgeted(JsonParser p) {
        return new TokenBudget(p, EventDecoder.MAX_TREE_TOKENS, "SparkListenerTaskEnd \"Task End Reason\"");
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
        return new TaskEndReason("FetchFailed", sb.toString(), fetchFailedErrorString(n, bm));
    }

    /**
     * Spark's {@code FetchFailed.toErrorString}, the task's error text in Spark's UI and REST API, as the History
     * Server rebuilds it from the logged fields: the block manager's topology is not logged (so "None"), and a log
     * older than Spark 3.0 has no map index, which that Spark's text did not show either.
     */
    private static String fetchFailedErrorString(JsonNode n, JsonNode bm) {
        String address = bm == null || bm.isNull() ? "null"
                : "BlockManagerId(" + textOf(bm, "Executor ID", "?") + ", " + textOf(bm, "Host", "?") + ", "
                + intOf(bm, "Port", 0) + ", None)";
        StringBuilder sb = new StringBuilder("FetchFailed(").append(address)
                .append(", shuffleId=").append(intOf(n, "Shuffle ID", -1));
        if (has(n, "Map Index")) {
            sb.append(", mapIndex=").append(intOf(n, "Map Index", -1));
        }
        return sb.append(", mapId=").append(longOf(n, "Map ID", -1))
                .append(", reduceId=").append(intOf(n, "Reduce ID", -1))
                .append(", message=\n").append(textOf(n, "Message", "Unknown reason")).append("\n)").toString();
    }

    private static TaskEndReason executorLost(JsonNode n) {
        String reason = textOf(n, "Loss Reason", null);
        String executor = textOf(n, "Executor ID", "Unknown");
        return new TaskEndReason("ExecutorLostFailure",
                reason == null ? "executor " + executor + " lost" : Json.firstLine(reason), null);
    }
}
