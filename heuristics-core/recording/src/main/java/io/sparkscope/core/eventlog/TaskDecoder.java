package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.sql.SqlMetricIds;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

import static io.sparkscope.core.eventlog.Json.boolValue;

/**
 * Streaming decoder for task-start and task-end, the events that make up nearly all of a log. It touches only the
 * fields our records carry and skips the rest without building anything — above all the per-task "Accumulables",
 * most of a task-end line's bytes. Of the accumulables it keeps only the updates of SQL metrics that a running SQL
 * execution declares ({@link SqlMetricIds}); with none running they are skipped whole. "Task Executor Metrics"
 * (about twenty numbers) is read into one primitive array, each field found by one hash lookup of the name Jackson
 * already holds. Field names and defaults follow Spark's
 * {@code JsonProtocol.taskInfoFromJson / taskMetricsFromJson}; fields are accepted in any order.
 *
 * <p>Values are checked with Spark's ranges ({@link FieldChecks}): an invalid id, index or attempt number skips the
 * event (the recorder could not place it, and there is no "unknown" to give it); an invalid partition id becomes
 * -1 (its absent marker); an invalid time is left for {@link Consistency} to resolve against the task's start
 * (launch -1, finish 0 = unknown); an invalid metric is 0, Spark's value for a metric the log does not carry.
 *
 * <p>Every method starts with the parser on the token before the object's first field (START_OBJECT, or the value
 * just before) and leaves it on the object's END_OBJECT.
 */
final class TaskDecoder {
    private static final int ABSENT = Integer.MIN_VALUE;
    private final Interner interner;
    private final FieldChecks checks;
    /** The SQL metrics running at this line, or null when another thread decodes ahead of them (see below). */
    private final SqlMetricIds sqlMetricIds;
    /**
     * With no {@link #sqlMetricIds} (a decoder thread that runs ahead of the events before its line): the last Task
     * Info's accumulables as read, for the thread that has those events to pick from ({@link DeferredAccumulables}).
     */
    private DeferredAccumulables deferred;
    /** Why the last Task Info's launch time is unknown (-1), or null when it was valid or absent. */
    private String launchProblem;
    /** The SQL metric updates of the last Task Info read. */
    private SparkEvent.AccumUpdates accumUpdates = SparkEvent.AccumUpdates.NONE;
    private long[] scratchIds = new long[16];
    private long[] scratchValues = new long[16];
    /** Reused for every task end's executor metrics: build() hands over its array and starts afresh. */
    private final ExecutorPeaks.Builder peakBuilder = ExecutorPeaks.builder();
    private final String[] scratch = new String[1];

    TaskDecoder(Interner interner, FieldChecks checks, SqlMetricIds sqlMetricIds) {
        this.interner = interner;
        this.checks = checks;
        this.sqlMetricIds = sqlMetricIds;
    }

    String launchProblem() {
        return launchProblem;
    }

    /** The accumulables kept for later of the line just decoded, or null; forgets them. */
    DeferredAccumulables takeDeferred() {
        DeferredAccumulables d = deferred;
        deferred = null;
        return d;
    }

    SparkEvent.TaskStart taskStart(JsonParser p) throws IOException, InvalidEventException {
        int stageId = ABSENT;
        int stageAttemptId = 0;
        TaskInfo info = null;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Stage ID" -> stageId = checks.requiredId(p, field);
                case "Stage Attempt ID" -> stageAttemptId = checks.requiredId(p, field);
                case "Task Info" -> info = taskInfo(p);
                default -> p.skipChildren();
            }
        }
        if (info == null) {
            throw new InvalidEventException("SparkListenerTaskStart without Task Info");
        }
        if (stageId == ABSENT) {
            throw new InvalidEventException("SparkListenerTaskStart without Stage ID");
        }
        return new SparkEvent.TaskStart(stageId, stageAttemptId, info);
    }

    SparkEvent.TaskEnd taskEnd(JsonParser p) throws IOException, InvalidEventException {
        int stageId = ABSENT;
        int stageAttemptId = 0;
        String taskType = null;
        TaskEndReason reason = null;
        TaskInfo info = null;
        TaskMetrics metrics = null;
        ExecutorPeaks peaks = null;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Stage ID" -> stageId = checks.requiredId(p, field);
                case "Stage Attempt ID" -> stageAttemptId = checks.requiredId(p, field);
                case "Task Type" -> taskType = interner.intern(p);
                case "Task End Reason" -> reason = TreeDecoders.taskEndReason(p);
                case "Task Info" -> info = taskInfo(p);
                // JSON null and absence both mean "no metrics" (the listener sees null there)
                case "Task Metrics" -> metrics = p.currentToken() == JsonToken.START_OBJECT ? taskMetrics(p, checks)
                        : skip(p);
                case "Task Executor Metrics" -> peaks = p.currentToken() == JsonToken.START_OBJECT
                        ? executorPeaks(p) : skipPeaks(p);
                default -> p.skipChildren();
            }
        }
        if (info == null) {
            throw new InvalidEventException("SparkListenerTaskEnd without Task Info");
        }
        if (stageId == ABSENT) {
            throw new InvalidEventException("SparkListenerTaskEnd without Stage ID");
        }
        if (reason == null) {
            reason = new TaskEndReason("UnknownReason", "no Task End Reason logged", null);
        }
        return new SparkEvent.TaskEnd(stageId, stageAttemptId, taskType, reason, info, metrics, peaks, accumUpdates);
    }

    private static TaskMetrics skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    private static ExecutorPeaks skipPeaks(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    /**
     * An object of executor metrics under Spark's names (parser on its START_OBJECT, left on its END_OBJECT). A
     * name this version does not know is skipped; -1 (Spark's "not set yet") is absent without a warning; any other
     * value that is no non-negative whole number is absent after one.
     */
    private ExecutorPeaks executorPeaks(JsonParser p) throws IOException {
        String[] what = scratch;
        ExecutorPeaks.Builder b = peakBuilder;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            ExecutorMetric m = ExecutorMetric.bySparkName(p.currentName());
            p.nextToken();
            if (m == null) {
                p.skipChildren();
                continue;
            }
            long v = checks.raw(p, -1, Long.MAX_VALUE, what);
            if (v == FieldChecks.INVALID) {
                checks.invalid(m.sparkName, what[0], ", that metric is left out");
            } else if (v >= 0) {
                b.set(m, v);
            }
        }
        return b.build();
    }

    /** @return null when "Task Info" is not an object (e.g. JSON null) */
    TaskInfo taskInfo(JsonParser p) throws IOException, InvalidEventException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null; // the caller reports the event as lacking Task Info
        }
        long taskId = Long.MIN_VALUE;
        int index = 0;
        int attempt = 1;       // Spark's default when "Attempt" is absent (pre-1.2 logs)
        int partitionId = -1;  // "Partition ID" exists since Spark 3.3
        long launchTime = -1;  // unknown until read; Consistency decides what a missing one means
        String executorId = "";
        String host = "";
        String locality = "";
        boolean speculative = false;
        long gettingResultTime = 0;
        long finishTime = 0;
        boolean failed = false;
        boolean killed = false;
        launchProblem = null;
        accumUpdates = SparkEvent.AccumUpdates.NONE;
        deferred = null;
        String[] what = new String[1];
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Task ID" -> taskId = checks.requiredLongId(p, field);
                case "Index" -> index = checks.requiredId(p, field);
                case "Attempt" -> attempt = checks.requiredId(p, field);
                case "Partition ID" -> {
                    // -1 is how Spark writes "no partition id" for tasks that have none
                    long v = checks.raw(p, -1, Integer.MAX_VALUE, what);
                    if (v == FieldChecks.INVALID) {
                        checks.invalid(field, what[0], "");
                    }
                    partitionId = v == FieldChecks.INVALID ? -1 : (int) v;
                }
                case "Launch Time" -> {
                    launchTime = checks.time(p, what);
                    if (launchTime == FieldChecks.INVALID) {
                        launchProblem = what[0];
                        launchTime = -1;
                    }
                }
                case "Executor ID" -> executorId = orEmpty(interner.intern(p));
                case "Host" -> host = orEmpty(interner.intern(p));
                case "Locality" -> locality = orEmpty(interner.intern(p));
                case "Speculative" -> speculative = boolValue(p);
                // 0 is Spark's "never fetched an indirect result" and "not finished"
                case "Getting Result Time" -> gettingResultTime = zeroOrTime(p, field);
                case "Finish Time" -> finishTime = zeroOrTime(p, field);
                case "Failed" -> failed = boolValue(p);
                case "Killed" -> killed = boolValue(p);
                case "Accumulables" -> {
                    if (sqlMetricIds == null) {
                        deferred = DeferredAccumulables.read(p, checks.warnings().size());
                    } else if (sqlMetricIds.isEmpty()) {
                        p.skipChildren();
                    } else {
                        accumUpdates = sqlAccumulables(p);
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (taskId == Long.MIN_VALUE) {
            throw new InvalidEventException("Task Info without Task ID");
        }
        return new TaskInfo(taskId, index, attempt, partitionId, launchTime, executorId, host, locality,
                speculative, gettingResultTime, finishTime, failed, killed);
    }

    /**
     * The "Update" values of the accumulables that are SQL metrics of a running execution, in the log's order. Spark
     * writes "ID" first, so every other accumulable is skipped after its first field. An update that is no integer
     * (Spark would fail on it and lose the task's remaining updates) is left out with a warning.
     */
    private SparkEvent.AccumUpdates sqlAccumulables(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return SparkEvent.AccumUpdates.NONE;
        }
        int n = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            long id = 0;
            boolean wanted = false;
            boolean idSeen = false;
            long update = 0;
            boolean hasUpdate = false;
            for (JsonToken f = p.nextToken(); f == JsonToken.FIELD_NAME; f = p.nextToken()) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if ("ID".equals(field)) {
                    idSeen = true;
                    if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                        id = p.getLongValue();
                        wanted = sqlMetricIds.contains(id);
                    }
                    if (!wanted) {
                        skipFields(p);
                        break;
                    }
                } else if ("Update".equals(field)) {
                    if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                        update = p.getLongValue();
                        hasUpdate = true;
                    } else if (v == JsonToken.VALUE_STRING) {
                        try {
                            update = Long.parseLong(p.getText());
                            hasUpdate = true;
                        } catch (NumberFormatException notAnInteger) {
                            checks.invalid("Accumulables", "SQL metric update " + FieldChecks.quoted(p.getText())
                                    + " is not an integer", "; this update is ignored");
                        }
                    } else {
                        p.skipChildren();
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (idSeen && wanted && hasUpdate) {
                if (n == scratchIds.length) {
                    scratchIds = Arrays.copyOf(scratchIds, n * 2);
                    scratchValues = Arrays.copyOf(scratchValues, n * 2);
                }
                scratchIds[n] = id;
                scratchValues[n] = update;
                n++;
            }
        }
        return n == 0 ? SparkEvent.AccumUpdates.NONE
                : new SparkEvent.AccumUpdates(Arrays.copyOf(scratchIds, n), Arrays.copyOf(scratchValues, n));
    }

    /** Skips the remaining fields of the object the parser is in, leaving it on its END_OBJECT. */
    private static void skipFields(JsonParser p) throws IOException {
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            p.nextToken();
            p.skipChildren();
        }
    }

    /** A time where 0 means "none": 0 or a valid time; anything else is 0 after a warning. */
    private long zeroOrTime(JsonParser p, String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER
                && p.getLongValue() == 0) {
            return 0;
        }
        return checks.timeOr(p, field, 0);
    }

    /** "Task Metrics": every field optional, missing = 0 (what the History Server shows for old logs). */
    static TaskMetrics taskMetrics(JsonParser p, FieldChecks checks) throws IOException {
        TaskMetrics.Builder b = TaskMetrics.builder();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Executor Deserialize Time" -> b.set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, checks.metric(p, field));
                case "Executor Deserialize CPU Time" ->
                        b.set(TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME, checks.metric(p, field));
                case "Executor Run Time" -> b.set(TaskMetric.EXECUTOR_RUN_TIME, checks.metric(p, field));
                case "Executor CPU Time" -> b.set(TaskMetric.EXECUTOR_CPU_TIME, checks.metric(p, field));
                case "Peak Execution Memory" -> b.set(TaskMetric.PEAK_EXECUTION_MEMORY, checks.metric(p, field));
                case "Result Size" -> b.set(TaskMetric.RESULT_SIZE, checks.metric(p, field));
                case "JVM GC Time" -> b.set(TaskMetric.JVM_GC_TIME, checks.metric(p, field));
                case "Result Serialization Time" -> b.set(TaskMetric.RESULT_SERIALIZATION_TIME, checks.metric(p, field));
                case "Memory Bytes Spilled" -> b.set(TaskMetric.MEMORY_BYTES_SPILLED, checks.metric(p, field));
                case "Disk Bytes Spilled" -> b.set(TaskMetric.DISK_BYTES_SPILLED, checks.metric(p, field));
                case "Shuffle Read Metrics" -> shuffleRead(p, b, checks);
                case "Shuffle Write Metrics" -> metrics(p, b, checks, SHUFFLE_WRITE);
                case "Input Metrics" -> metrics(p, b, checks, INPUT);
                case "Output Metrics" -> metrics(p, b, checks, OUTPUT);
                default -> p.skipChildren(); // "Updated Blocks", "Host Name", "Peak On/Off Heap …", future fields
            }
        }
        return b.build();
    }

    private static boolean notObject(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return true;
        }
        return false;
    }

    private static void shuffleRead(JsonParser p, TaskMetrics.Builder b, FieldChecks checks) throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Remote Blocks Fetched" -> b.set(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED, checks.metric(p, field));
                case "Local Blocks Fetched" -> b.set(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED, checks.metric(p, field));
                case "Fetch Wait Time" -> b.set(TaskMetric.SHUFFLE_FETCH_WAIT_TIME, checks.metric(p, field));
                case "Remote Bytes Read" -> b.set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ, checks.metric(p, field));
                case "Remote Bytes Read To Disk" ->
                        b.set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK, checks.metric(p, field));
                case "Local Bytes Read" -> b.set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, checks.metric(p, field));
                case "Total Records Read" -> b.set(TaskMetric.SHUFFLE_RECORDS_READ, checks.metric(p, field));
                case "Remote Requests Duration" -> b.set(TaskMetric.SHUFFLE_REMOTE_REQS_DURATION, checks.metric(p, field));
                // Spark 3.2–3.5 write "Push Based Shuffle"; newer JsonProtocol (and Spark's own test logs)
                // use "Shuffle Push Read Metrics"
                case "Push Based Shuffle", "Shuffle Push Read Metrics" -> metrics(p, b, checks, PUSH_SHUFFLE_READ);
                default -> p.skipChildren();
            }
        }
    }

    /** "Push Based Shuffle" / "Shuffle Push Read Metrics", inside "Shuffle Read Metrics". */
    private static final Map<String, TaskMetric> PUSH_SHUFFLE_READ = Map.of(
            "Corrupt Merged Block Chunks", TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS,
            "Merged Fetch Fallback Count", TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT,
            // how Spark's own test log (app-20200706201101-0003) spells it
            "Merged Fallback Count", TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT,
            "Merged Remote Blocks Fetched", TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED,
            "Merged Local Blocks Fetched", TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED,
            "Merged Remote Chunks Fetched", TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED,
            "Merged Local Chunks Fetched", TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED,
            "Merged Remote Bytes Read", TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ,
            "Merged Local Bytes Read", TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ,
            "Merged Remote Requests Duration", TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION);

    private static final Map<String, TaskMetric> SHUFFLE_WRITE = Map.of(
            "Shuffle Bytes Written", TaskMetric.SHUFFLE_BYTES_WRITTEN,
            "Shuffle Write Time", TaskMetric.SHUFFLE_WRITE_TIME,
            "Shuffle Records Written", TaskMetric.SHUFFLE_RECORDS_WRITTEN);

    /** Spark 1.x's "Data Read Method" is skipped. */
    private static final Map<String, TaskMetric> INPUT = Map.of(
            "Bytes Read", TaskMetric.INPUT_BYTES,
            "Records Read", TaskMetric.INPUT_RECORDS);

    /** Spark 1.x's "Data Write Method" is skipped. */
    private static final Map<String, TaskMetric> OUTPUT = Map.of(
            "Bytes Written", TaskMetric.OUTPUT_BYTES,
            "Records Written", TaskMetric.OUTPUT_RECORDS);

    /**
     * A metrics object whose fields are all plain numbers: each field {@code metrics} names is set, any other is
     * skipped. One loop for the several such objects of a task end, which differ only in their field names.
     */
    private static void metrics(JsonParser p, TaskMetrics.Builder b, FieldChecks checks, Map<String, TaskMetric> metrics)
            throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            TaskMetric metric = metrics.get(field);
            if (metric != null) {
                b.set(metric, checks.metric(p, field));
            } else {
                p.skipChildren();
            }
        }
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
