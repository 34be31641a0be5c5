package io.sparkscope.core.testing;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A Spark application's event log as Spark 3.5 writes it, of any size, made on the fly (one line at a time, so a
 * 1 000 000-task log of 2.5 GB costs no memory to write): environment, executors, one job per stage, every task's
 * start and end with a full metrics block, application end. Task times vary with a seeded random, so two logs with
 * the same parameters are byte-identical and one with another seed differs.
 *
 * <p>Used by the tests of the Hadoop filesystems, the watcher and the archive import, and by the big-log benchmark.
 */
public final class SyntheticLog {
    private final String appId;
    private final String appName;
    private final long start;
    private final int stages;
    private final int tasksPerStage;
    private final int executors;
    private final long seed;
    private final boolean complete;

    public SyntheticLog(String appId, String appName, long start, int stages, int tasksPerStage) {
        this(appId, appName, start, stages, tasksPerStage, 4, 42, true);
    }

    private SyntheticLog(String appId, String appName, long start, int stages, int tasksPerStage, int executors,
                         long seed, boolean complete) {
        this.appId = appId;
        this.appName = appName;
        this.start = start;
        this.stages = stages;
        this.tasksPerStage = tasksPerStage;
        this.executors = executors;
        this.seed = seed;
        this.complete = complete;
    }

    public SyntheticLog seed(long s) {
        return new SyntheticLog(appId, appName, start, stages, tasksPerStage, executors, s, complete);
    }

    public SyntheticLog executors(int n) {
        return new SyntheticLog(appId, appName, start, stages, tasksPerStage, n, seed, complete);
    }

    /** Without the ApplicationEnd: a running application (or one whose driver died). */
    public SyntheticLog running() {
        return new SyntheticLog(appId, appName, start, stages, tasksPerStage, executors, seed, false);
    }

    public String appId() {
        return appId;
    }

    public long tasks() {
        return (long) stages * tasksPerStage;
    }

    /** Lines in the log: a header of 4 + executors, 4 per stage, 2 per task, and the end. */
    public long lineCount() {
        return 4 + executors + 4L * stages + 2 * tasks() + (complete ? 1 : 0);
    }

    /** The lines, made as they are taken. */
    public Iterator<String> lines() {
        return new Iterator<>() {
            private final SplittableRandom random = new SplittableRandom(seed);
            private final List<String> pending = new ArrayList<>();
            private int stage = -1;     // -1: header not yet produced
            private int task;
            private long clock = start;
            private boolean ended;

            @Override
            public boolean hasNext() {
                fill();
                return !pending.isEmpty();
            }

            @Override
            public String next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return pending.remove(0);
            }

            private void fill() {
                if (!pending.isEmpty() || ended) {
                    return;
                }
                if (stage < 0) {
                    header();
                    stage = 0;
                    return;
                }
                if (stage >= stages) {
                    if (complete) {
                        pending.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + (clock + 100) + "}");
                    }
                    ended = true;
                    return;
                }
                if (task == 0) {
                    clock += 50;
                    pending.add("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + stage + ",\"Submission Time\":"
                            + clock + ",\"Stage Infos\":[" + stageInfo(stage, -1, -1) + "],\"Stage IDs\":[" + stage
                            + "],\"Properties\":{\"spark.job.description\":\"step " + stage + "\"}}");
                    pending.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":"
                            + stageInfo(stage, clock + 10, -1) + ",\"Properties\":{}}");
                    stageStart = clock + 10;
                }
                // one wave of tasks per executor core: a start and an end each
                int wave = Math.min(executors * 2, tasksPerStage - task);
                long waveStart = clock + 20;
                long waveEnd = waveStart;
                for (int i = 0; i < wave; i++) {
                    long id = (long) stage * tasksPerStage + task + i;
                    String exec = String.valueOf(1 + (task + i) % executors);
                    pending.add("{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,"
                            + "\"Task Info\":" + taskInfo(id, task + i, exec, waveStart, 0) + "}");
                }
                for (int i = 0; i < wave; i++) {
                    long id = (long) stage * tasksPerStage + task + i;
                    String exec = String.valueOf(1 + (task + i) % executors);
                    long run = 200 + random.nextInt(800) + (random.nextInt(50) == 0 ? 4000 : 0);
                    long finish = waveStart + run + 30;
                    waveEnd = Math.max(waveEnd, finish);
                    pending.add(taskEnd(stage, id, task + i, exec, waveStart, finish, run));
                }
                task += wave;
                clock = waveEnd;
                if (task == tasksPerStage) {
                    pending.add("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":"
                            + stageInfo(stage, stageStart, clock + 5) + "}");
                    pending.add("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":" + stage + ",\"Completion Time\":"
                            + (clock + 10) + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}");
                    clock += 10;
                    stage++;
                    task = 0;
                }
            }

            private long stageStart;

            private void header() {
                pending.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}");
                pending.add("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{\"Java Version\":"
                        + "\"17.0.9\"},\"Spark Properties\":{\"spark.master\":\"yarn\",\"spark.app.name\":\""
                        + appName + "\",\"spark.executor.cores\":\"2\",\"spark.executor.memory\":\"4g\","
                        + "\"spark.executor.instances\":\"" + executors + "\",\"spark.sql.shuffle.partitions\":\""
                        + tasksPerStage + "\"},\"Hadoop Properties\":{},\"System Properties\":{},"
                        + "\"Metrics Properties\":{},\"Classpath Entries\":{}}");
                pending.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"" + appName + "\",\"App ID\":\""
                        + appId + "\",\"Timestamp\":" + start + ",\"User\":\"etl\"}");
                pending.add("{\"Event\":\"SparkListenerBlockManagerAdded\",\"Block Manager ID\":{\"Executor ID\":"
                        + "\"driver\",\"Host\":\"10.0.0.1\",\"Port\":40000},\"Maximum Memory\":455501414,"
                        + "\"Timestamp\":" + (start + 5) + "}");
                for (int e = 1; e <= executors; e++) {
                    pending.add("{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":" + (start + 10 + e)
                            + ",\"Executor ID\":\"" + e + "\",\"Executor Info\":{\"Host\":\"10.0.1." + e
                            + "\",\"Total Cores\":2,\"Log Urls\":{},\"Attributes\":{},\"Resources\":{},"
                            + "\"Resource Profile Id\":0}}");
                }
                clock = start + 100;
            }
        };
    }

    private String stageInfo(int id, long submitted, long completed) {
        return "{\"Stage ID\":" + id + ",\"Stage Attempt ID\":0,\"Stage Name\":\"map at Job.scala:" + (10 + id)
                + "\",\"Number of Tasks\":" + tasksPerStage + ",\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\""
                + (submitted > 0 ? ",\"Submission Time\":" + submitted : "")
                + (completed > 0 ? ",\"Completion Time\":" + completed : "")
                + ",\"Accumulables\":[],\"Resource Profile Id\":0}";
    }

    private static String taskInfo(long taskId, int index, String executor, long launch, long finish) {
        return "{\"Task ID\":" + taskId + ",\"Index\":" + index + ",\"Attempt\":0,\"Partition ID\":" + index
                + ",\"Launch Time\":" + launch + ",\"Executor ID\":\"" + executor + "\",\"Host\":\"10.0.1." + executor
                + "\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":"
                + finish + ",\"Failed\":false,\"Killed\":false,\"Accumulables\":[]}";
    }

    private static String taskEnd(int stage, long id, int index, String executor, long launch, long finish, long run) {
        return "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,\"Task Type\":"
                + "\"ShuffleMapTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":"
                + taskInfo(id, index, executor, launch, finish)
                + ",\"Task Executor Metrics\":{\"JVMHeapMemory\":104857600,\"JVMOffHeapMemory\":52428800},"
                + "\"Task Metrics\":{\"Executor Deserialize Time\":20,\"Executor Deserialize CPU Time\":15000000,"
                + "\"Executor Run Time\":" + run + ",\"Executor CPU Time\":" + run * 900_000 + ",\"Peak Execution "
                + "Memory\":1048576,\"Result Size\":2000,\"JVM GC Time\":" + run / 20 + ",\"Result Serialization "
                + "Time\":1,\"Memory Bytes Spilled\":0,\"Disk Bytes Spilled\":0,\"Shuffle Read Metrics\":{\"Remote "
                + "Blocks Fetched\":2,\"Local Blocks Fetched\":2,\"Fetch Wait Time\":3,\"Remote Bytes Read\":4096,"
                + "\"Remote Bytes Read To Disk\":0,\"Local Bytes Read\":4096,\"Total Records Read\":30,"
                + "\"Remote Requests Duration\":2},\"Shuffle Write Metrics\":{\"Shuffle Bytes Written\":8192,"
                + "\"Shuffle Write Time\":2000000,\"Shuffle Records Written\":30},\"Input Metrics\":{\"Bytes Read\":"
                + "65536,\"Records Read\":30},\"Output Metrics\":{\"Bytes Written\":1024,\"Records Written\":30},"
                + "\"Updated Blocks\":[]}}";
    }

    /** Writes the log as plain JSON lines; returns the bytes written. */
    public long writeTo(Path file) throws IOException {
        return writeTo(file, out -> out);
    }

    /** Writes the log through {@code codec} (e.g. a zstd or lz4 output stream); returns the uncompressed bytes. */
    public long writeTo(Path file, Function<OutputStream, OutputStream> codec) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream raw = Files.newOutputStream(file)) {
            return writeTo(codec.apply(raw), Long.MAX_VALUE);
        }
    }

    /**
     * Writes at most {@code maxLines} lines to {@code out} (left open unless all were written) and returns the
     * bytes; with the rest taken later from the same iterator, a test makes a log grow.
     */
    public long writeTo(OutputStream out, long maxLines) throws IOException {
        return write(lines(), out, maxLines, true);
    }

    /** Writes up to {@code maxLines} of {@code lines} to {@code out}; closes it when asked. */
    public static long write(Iterator<String> lines, OutputStream out, long maxLines, boolean close) throws IOException {
        BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        long bytes = 0;
        long n = 0;
        while (n < maxLines && lines.hasNext()) {
            String line = lines.next();
            w.write(line);
            w.write('\n');
            bytes += line.length() + 1;
            n++;
        }
        w.flush();
        if (close) {
            w.close();
        }
        return bytes;
    }

    /**
     * A Spark 3+ rolling log: {@code dir/eventlog_v2_<appId>/events_<n>_<appId>} of about {@code linesPerPart} lines
     * each and the {@code appstatus_<appId>[.inprogress]} marker; returns the directory.
     */
    public Path writeRolling(Path dir, int linesPerPart) throws IOException {
        Path rolling = dir.resolve("eventlog_v2_" + appId);
        Files.createDirectories(rolling);
        Iterator<String> it = lines();
        int part = 1;
        while (it.hasNext()) {
            try (OutputStream out = Files.newOutputStream(rolling.resolve("events_" + part + "_" + appId))) {
                write(it, out, linesPerPart, true);
            }
            part++;
        }
        Files.write(rolling.resolve("appstatus_" + appId + (complete ? "" : ".inprogress")), new byte[0]);
        return rolling;
    }
}
