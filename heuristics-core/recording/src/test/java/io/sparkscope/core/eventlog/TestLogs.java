package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Hand-built event-log lines (the shapes Spark's JsonProtocol writes) and a reading helper for tests. */
final class TestLogs {
    private TestLogs() {
    }

    static final String LOG_START = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}";
    static final String APP_START = "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"demo\","
            + "\"App ID\":\"app-1\",\"Timestamp\":1000,\"User\":\"alice\",\"App Attempt ID\":\"1\"}";
    static final String APP_END = "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":9000}";

    static String taskStart(int stage, long taskId) {
        return "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,"
                + "\"Task Info\":{\"Task ID\":" + taskId + ",\"Index\":0,\"Attempt\":0,\"Partition ID\":0,"
                + "\"Launch Time\":1100,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Locality\":\"PROCESS_LOCAL\","
                + "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":0,\"Failed\":false,"
                + "\"Killed\":false,\"Accumulables\":[]}}";
    }

    /** A successful task end with every metric field set to a distinct value. */
    static String taskEnd(int stage, long taskId) {
        return "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,"
                + "\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},"
                + "\"Task Info\":{\"Task ID\":" + taskId + ",\"Index\":3,\"Attempt\":1,\"Partition ID\":3,"
                + "\"Launch Time\":1100,\"Executor ID\":\"1\",\"Host\":\"h1\",\"Locality\":\"NODE_LOCAL\","
                + "\"Speculative\":true,\"Getting Result Time\":1150,\"Finish Time\":1200,\"Failed\":false,"
                + "\"Killed\":false,\"Accumulables\":[{\"ID\":1,\"Name\":\"internal.metrics.executorRunTime\","
                + "\"Update\":50,\"Value\":50,\"Internal\":true,\"Count Failed Values\":true}]},"
                + "\"Task Executor Metrics\":{\"JVMHeapMemory\":1,\"JVMOffHeapMemory\":2},"
                + "\"Task Metrics\":{\"Executor Deserialize Time\":1,\"Executor Deserialize CPU Time\":2,"
                + "\"Executor Run Time\":3,\"Executor CPU Time\":4,\"Peak Execution Memory\":5,"
                + "\"Peak On Heap Execution Memory\":99,\"Result Size\":6,\"JVM GC Time\":7,"
                + "\"Result Serialization Time\":8,\"Memory Bytes Spilled\":9,\"Disk Bytes Spilled\":10,"
                + "\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":11,\"Local Blocks Fetched\":12,"
                + "\"Fetch Wait Time\":13,\"Remote Bytes Read\":14,\"Remote Bytes Read To Disk\":15,"
                + "\"Local Bytes Read\":16,\"Total Records Read\":17,\"Remote Requests Duration\":18,"
                + "\"Push Based Shuffle\":{\"Corrupt Merged Block Chunks\":19,\"Merged Fetch Fallback Count\":20,"
                + "\"Merged Remote Blocks Fetched\":21,\"Merged Local Blocks Fetched\":22,"
                + "\"Merged Remote Chunks Fetched\":23,\"Merged Local Chunks Fetched\":24,"
                + "\"Merged Remote Bytes Read\":25,\"Merged Local Bytes Read\":26,"
                + "\"Merged Remote Requests Duration\":27}},"
                + "\"Shuffle Write Metrics\":{\"Shuffle Bytes Written\":28,\"Shuffle Write Time\":29,"
                + "\"Shuffle Records Written\":30},"
                + "\"Input Metrics\":{\"Bytes Read\":31,\"Records Read\":32},"
                + "\"Output Metrics\":{\"Bytes Written\":33,\"Records Written\":34},"
                + "\"Updated Blocks\":[{\"Block ID\":\"rdd_1_0\",\"Status\":{\"Memory Size\":1}}]}}";
    }

    static Path write(Path file, List<String> lines) throws IOException {
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    static Path write(Path file, List<String> lines, Function<OutputStream, OutputStream> codec) throws IOException {
        try (OutputStream out = codec.apply(Files.newOutputStream(file))) {
            out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /** Everything one read produced. */
    record Result(List<SparkEvent> events, List<String> problems, ReadStats stats) {
        @SuppressWarnings("unchecked")
        <T extends SparkEvent> List<T> of(Class<T> type) {
            return (List<T>) events.stream().filter(type::isInstance).toList();
        }

        <T extends SparkEvent> T first(Class<T> type) {
            List<T> all = of(type);
            if (all.isEmpty()) {
                throw new AssertionError("no " + type.getSimpleName() + " in " + events);
            }
            return all.get(0);
        }
    }

    static Result read(EventLogSource source) {
        return read(source, EventLogReader.DEFAULT_MAX_LINE_BYTES);
    }

    static Result read(EventLogSource source, int maxLineBytes) {
        List<SparkEvent> events = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        ReadStats stats = EventLogReader.read(source, events::add, problems::add, maxLineBytes);
        return new Result(events, problems, stats);
    }

    static Result read(Path file) {
        return read(EventLogSource.ofFile(file));
    }
}
