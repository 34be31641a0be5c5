package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;

import java.io.IOException;

import static io.sparkscope.core.eventlog.Json.boolValue;
import static io.sparkscope.core.eventlog.Json.intValue;
import static io.sparkscope.core.eventlog.Json.longValue;

/**
 * Streaming decoder for task-start and task-end, the events that make up nearly all of a log. It touches only the
 * fields our records carry and skips the rest without building anything — above all the per-task "Accumulables"
 * and "Task Executor Metrics", which are most of a task-end line's bytes. Field names and defaults follow Spark's
 * {@code JsonProtocol.taskInfoFromJson / taskMetricsFromJson}; fields are accepted in any order.
 *
 * <p>Every method starts with the parser on the token before the object's first field (START_OBJECT, or the value
 * just before) and leaves it on the object's END_OBJECT.
 */
final class TaskDecoder {
    private static final int ABSENT = Integer.MIN_VALUE;
    private final Interner interner;

    TaskDecoder(Interner interner) {
        this.interner = interner;
    }

    SparkEvent.TaskStart taskStart(JsonParser p) throws IOException, InvalidEventException {
        int stageId = ABSENT;
        int stageAttemptId = 0;
        TaskInfo info = null;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Stage ID" -> stageId = intValue(p);
                case "Stage Attempt ID" -> stageAttemptId = intValue(p);
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
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Stage ID" -> stageId = intValue(p);
                case "Stage Attempt ID" -> stageAttemptId = intValue(p);
                case "Task Type" -> taskType = interner.intern(p);
                case "Task End Reason" -> reason = TreeDecoders.taskEndReason(p);
                case "Task Info" -> info = taskInfo(p);
                // JSON null and absence both mean "no metrics" (the listener sees null there)
                case "Task Metrics" -> metrics = p.currentToken() == JsonToken.START_OBJECT ? taskMetrics(p) : skip(p);
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
        return new SparkEvent.TaskEnd(stageId, stageAttemptId, taskType, reason, info, metrics);
    }

    private static TaskMetrics skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
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
        long launchTime = 0;
        String executorId = "";
        String host = "";
        String locality = "";
        boolean speculative = false;
        long gettingResultTime = 0;
        long finishTime = 0;
        boolean failed = false;
        boolean killed = false;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Task ID" -> taskId = longValue(p);
                case "Index" -> index = intValue(p);
                case "Attempt" -> attempt = intValue(p);
                case "Partition ID" -> partitionId = intValue(p);
                case "Launch Time" -> launchTime = longValue(p);
                case "Executor ID" -> executorId = orEmpty(interner.intern(p));
                case "Host" -> host = orEmpty(interner.intern(p));
                case "Locality" -> locality = orEmpty(interner.intern(p));
                case "Speculative" -> speculative = boolValue(p);
                case "Getting Result Time" -> gettingResultTime = longValue(p);
                case "Finish Time" -> finishTime = longValue(p);
                case "Failed" -> failed = boolValue(p);
                case "Killed" -> killed = boolValue(p);
                default -> p.skipChildren(); // "Accumulables" above all
            }
        }
        if (taskId == Long.MIN_VALUE) {
            throw new InvalidEventException("Task Info without Task ID");
        }
        return new TaskInfo(taskId, index, attempt, partitionId, launchTime, executorId, host, locality,
                speculative, gettingResultTime, finishTime, failed, killed);
    }

    /** "Task Metrics": every field optional, missing = 0 (what the History Server shows for old logs). */
    static TaskMetrics taskMetrics(JsonParser p) throws IOException {
        TaskMetrics.Builder b = TaskMetrics.builder();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Executor Deserialize Time" -> b.set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, longValue(p));
                case "Executor Deserialize CPU Time" ->
                        b.set(TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME, longValue(p));
                case "Executor Run Time" -> b.set(TaskMetric.EXECUTOR_RUN_TIME, longValue(p));
                case "Executor CPU Time" -> b.set(TaskMetric.EXECUTOR_CPU_TIME, longValue(p));
                case "Peak Execution Memory" -> b.set(TaskMetric.PEAK_EXECUTION_MEMORY, longValue(p));
                case "Result Size" -> b.set(TaskMetric.RESULT_SIZE, longValue(p));
                case "JVM GC Time" -> b.set(TaskMetric.JVM_GC_TIME, longValue(p));
                case "Result Serialization Time" -> b.set(TaskMetric.RESULT_SERIALIZATION_TIME, longValue(p));
                case "Memory Bytes Spilled" -> b.set(TaskMetric.MEMORY_BYTES_SPILLED, longValue(p));
                case "Disk Bytes Spilled" -> b.set(TaskMetric.DISK_BYTES_SPILLED, longValue(p));
                case "Shuffle Read Metrics" -> shuffleRead(p, b);
                case "Shuffle Write Metrics" -> shuffleWrite(p, b);
                case "Input Metrics" -> input(p, b);
                case "Output Metrics" -> output(p, b);
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

    private static void shuffleRead(JsonParser p, TaskMetrics.Builder b) throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Remote Blocks Fetched" -> b.set(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED, longValue(p));
                case "Local Blocks Fetched" -> b.set(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED, longValue(p));
                case "Fetch Wait Time" -> b.set(TaskMetric.SHUFFLE_FETCH_WAIT_TIME, longValue(p));
                case "Remote Bytes Read" -> b.set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ, longValue(p));
                case "Remote Bytes Read To Disk" ->
                        b.set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK, longValue(p));
                case "Local Bytes Read" -> b.set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, longValue(p));
                case "Total Records Read" -> b.set(TaskMetric.SHUFFLE_RECORDS_READ, longValue(p));
                case "Remote Requests Duration" -> b.set(TaskMetric.SHUFFLE_REMOTE_REQS_DURATION, longValue(p));
                // Spark 3.2–3.5 write "Push Based Shuffle"; newer JsonProtocol (and Spark's own test logs)
                // use "Shuffle Push Read Metrics"
                case "Push Based Shuffle", "Shuffle Push Read Metrics" -> pushShuffleRead(p, b);
                default -> p.skipChildren();
            }
        }
    }

    private static void pushShuffleRead(JsonParser p, TaskMetrics.Builder b) throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Corrupt Merged Block Chunks" ->
                        b.set(TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS, longValue(p));
                // "Merged Fallback Count" is how Spark's own test log (app-20200706201101-0003) spells it
                case "Merged Fetch Fallback Count", "Merged Fallback Count" ->
                        b.set(TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT, longValue(p));
                case "Merged Remote Blocks Fetched" ->
                        b.set(TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED, longValue(p));
                case "Merged Local Blocks Fetched" ->
                        b.set(TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED, longValue(p));
                case "Merged Remote Chunks Fetched" ->
                        b.set(TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED, longValue(p));
                case "Merged Local Chunks Fetched" ->
                        b.set(TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED, longValue(p));
                case "Merged Remote Bytes Read" -> b.set(TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ, longValue(p));
                case "Merged Local Bytes Read" -> b.set(TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ, longValue(p));
                case "Merged Remote Requests Duration" ->
                        b.set(TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION, longValue(p));
                default -> p.skipChildren();
            }
        }
    }

    private static void shuffleWrite(JsonParser p, TaskMetrics.Builder b) throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Shuffle Bytes Written" -> b.set(TaskMetric.SHUFFLE_BYTES_WRITTEN, longValue(p));
                case "Shuffle Write Time" -> b.set(TaskMetric.SHUFFLE_WRITE_TIME, longValue(p));
                case "Shuffle Records Written" -> b.set(TaskMetric.SHUFFLE_RECORDS_WRITTEN, longValue(p));
                default -> p.skipChildren();
            }
        }
    }

    private static void input(JsonParser p, TaskMetrics.Builder b) throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Bytes Read" -> b.set(TaskMetric.INPUT_BYTES, longValue(p));
                case "Records Read" -> b.set(TaskMetric.INPUT_RECORDS, longValue(p));
                default -> p.skipChildren(); // "Data Read Method" (Spark 1.x)
            }
        }
    }

    private static void output(JsonParser p, TaskMetrics.Builder b) throws IOException {
        if (notObject(p)) {
            return;
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "Bytes Written" -> b.set(TaskMetric.OUTPUT_BYTES, longValue(p));
                case "Records Written" -> b.set(TaskMetric.OUTPUT_RECORDS, longValue(p));
                default -> p.skipChildren(); // "Data Write Method" (Spark 1.x)
            }
        }
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
