package io.sparkscope.server.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Event logs that are long in one direction each, written a line at a time (nothing kept in memory): many one-task
 * jobs, many executors added and removed, many SQL metric updates, many streaming batches. Run as a program by
 * bench/bounded-memory.sh ({@code <kind> <file> <n>}), and by {@link BoundedMemoryTest} at a smaller size.
 */
public final class WideLogs {
    private static final long T0 = 1_764_000_000_000L;
    private static final String SQL = "org.apache.spark.sql.execution.ui.";
    private static final String STREAMING = "org.apache.spark.sql.streaming.StreamingQueryListener$";

    private WideLogs() {
    }

    public static void main(String[] args) throws IOException {
        write(args[0], Path.of(args[1]), Integer.parseInt(args[2]));
    }

    /** Writes a log of {@code kind} (jobs, executors, sql-metrics, streaming) with {@code n} of them. */
    public static void write(String kind, Path file, int n) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            header(w, kind);
            switch (kind) {
                case "jobs" -> jobs(w, n);
                case "executors" -> executors(w, n);
                case "sql-metrics" -> sqlMetrics(w, n);
                case "streaming" -> streaming(w, n);
                default -> throw new IllegalArgumentException("jobs | executors | sql-metrics | streaming, not " + kind);
            }
            w.write("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + (T0 + 10L * n + 1_000) + "}\n");
        }
    }

    private static void header(Writer w, String kind) throws IOException {
        w.write("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");
        w.write("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{},\"Spark Properties\":"
                + "{\"spark.master\":\"yarn\",\"spark.app.name\":\"wide-" + kind + "\"},\"Hadoop Properties\":{},"
                + "\"System Properties\":{},\"Metrics Properties\":{},\"Classpath Entries\":{}}\n");
        w.write("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"wide-" + kind + "\",\"App ID\":"
                + "\"application_1764000000000_" + appNumber(kind) + "\",\"Timestamp\":" + T0 + ",\"User\":\"etl\"}\n");
        w.write(executorAdded("1", T0 + 1));
    }

    /** Each kind gets its own application id, so the four logs can be imported into one database side by side. */
    private static String appNumber(String kind) {
        return switch (kind) {
            case "jobs" -> "0001";
            case "executors" -> "0002";
            case "sql-metrics" -> "0003";
            default -> "0004";
        };
    }

    private static String executorAdded(String id, long t) {
        return "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":" + t + ",\"Executor ID\":\"" + id
                + "\",\"Executor Info\":{\"Host\":\"10.0.1.1\",\"Total Cores\":2,\"Log Urls\":{},\"Attributes\":{},"
                + "\"Resources\":{},\"Resource Profile Id\":0}}\n";
    }

    private static void jobs(Writer w, int n) throws IOException {
        for (int j = 0; j < n; j++) {
            long t = T0 + 100 + 10L * j;
            String info = "{\"Stage ID\":" + j + ",\"Stage Attempt ID\":0,\"Stage Name\":\"count at Job.scala:1\","
                    + "\"Number of Tasks\":1,\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\",\"Accumulables\":[],"
                    + "\"Resource Profile Id\":0";
            w.write("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + j + ",\"Submission Time\":" + t
                    + ",\"Stage Infos\":[" + info + "}],\"Stage IDs\":[" + j + "],\"Properties\":{}}\n");
            w.write("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + info + ",\"Submission Time\":"
                    + (t + 1) + "},\"Properties\":{}}\n");
            String task = "{\"Task ID\":" + j + ",\"Index\":0,\"Attempt\":0,\"Partition ID\":0,\"Launch Time\":"
                    + (t + 2) + ",\"Executor ID\":\"1\",\"Host\":\"10.0.1.1\",\"Locality\":\"PROCESS_LOCAL\","
                    + "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":";
            w.write("{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" + j + ",\"Stage Attempt ID\":0,\"Task Info\":"
                    + task + "0,\"Failed\":false,\"Killed\":false,\"Accumulables\":[]}}\n");
            w.write("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + j + ",\"Stage Attempt ID\":0,\"Task Type\":"
                    + "\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":" + task + (t + 7)
                    + ",\"Failed\":false,\"Killed\":false,\"Accumulables\":[]},\"Task Metrics\":{\"Executor Run Time\":4,"
                    + "\"Executor Deserialize Time\":1,\"Result Size\":1000,\"JVM GC Time\":0}}\n");
            w.write("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + info + ",\"Submission Time\":"
                    + (t + 1) + ",\"Completion Time\":" + (t + 8) + "}}\n");
            w.write("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":" + j + ",\"Completion Time\":" + (t + 9)
                    + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n");
        }
    }

    private static void executors(Writer w, int n) throws IOException {
        for (int e = 2; e < n + 2; e++) {
            long t = T0 + 100 + 10L * e;
            w.write(executorAdded(String.valueOf(e), t));
            w.write("{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":" + (t + 5) + ",\"Executor ID\":\"" + e
                    + "\",\"Removed Reason\":\"idle\"}\n");
        }
    }

    /** One SQL execution whose plan has one metric, updated {@code n} times (ten updates an event). */
    private static void sqlMetrics(Writer w, int n) throws IOException {
        w.write("{\"Event\":\"" + SQL + "SparkListenerSQLExecutionStart\",\"executionId\":0,\"description\":\"q\","
                + "\"details\":\"\",\"physicalPlanDescription\":\"== Physical Plan ==\",\"sparkPlanInfo\":"
                + "{\"nodeName\":\"Scan\",\"simpleString\":\"Scan\",\"children\":[],\"metadata\":{},\"metrics\":"
                + "[{\"name\":\"number of output rows\",\"accumulatorId\":31,\"metricType\":\"sum\"}]},\"time\":"
                + (T0 + 50) + "}\n");
        for (int i = 0; i < n; i += 10) {
            StringBuilder b = new StringBuilder("{\"Event\":\"" + SQL + "SparkListenerDriverAccumUpdates\","
                    + "\"executionId\":0,\"accumUpdates\":[");
            for (int k = 0; k < 10; k++) {
                b.append(k == 0 ? "" : ",").append("[31,").append(i + k).append(']');
            }
            w.write(b.append("]}\n").toString());
        }
        w.write("{\"Event\":\"" + SQL + "SparkListenerSQLExecutionEnd\",\"executionId\":0,\"time\":" + (T0 + 10L * n)
                + ",\"errorMessage\":\"\"}\n");
    }

    private static void streaming(Writer w, int n) throws IOException {
        String id = "cb17fd10-bb54-4c3e-aeb7-a62c652268e2";
        String run = "cf6b8e54-09dd-4f90-830d-de76d00b63fa";
        w.write("{\"Event\":\"" + STREAMING + "QueryStartedEvent\",\"id\":\"" + id + "\",\"runId\":\"" + run
                + "\",\"name\":\"q\",\"timestamp\":\"2025-11-24T16:00:00.000Z\"}\n");
        for (int b = 0; b < n; b++) {
            String ts = java.time.Instant.ofEpochMilli(T0 + 1_000L * b).toString();
            w.write(String.format(Locale.ROOT, "{\"Event\":\"%sQueryProgressEvent\",\"progress\":{\"id\":\"%s\","
                    + "\"runId\":\"%s\",\"name\":\"q\",\"timestamp\":\"%s\",\"batchId\":%d,\"batchDuration\":90,"
                    + "\"durationMs\":{\"triggerExecution\":90,\"addBatch\":70},\"stateOperators\":[],\"sources\":"
                    + "[{\"description\":\"rate\",\"startOffset\":\"%d\",\"endOffset\":\"%d\",\"numInputRows\":50,"
                    + "\"inputRowsPerSecond\":50.0,\"processedRowsPerSecond\":500.0,\"metrics\":{}}],\"sink\":"
                    + "{\"description\":\"noop\",\"numOutputRows\":50,\"metrics\":{}},\"observedMetrics\":{}}}\n",
                    STREAMING, id, run, ts, b, b, b + 1));
        }
        w.write("{\"Event\":\"" + STREAMING + "QueryTerminatedEvent\",\"id\":\"" + id + "\",\"runId\":\"" + run
                + "\",\"exception\":null}\n");
    }
}
