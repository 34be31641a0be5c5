package io.sparkscope.server.cli;

import io.sparkscope.store.TestDb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Event logs of a recurring YARN job, "nightly-orders" (set with {@code spark.sparkscope.jobKey}), written for the
 * tune tests: two executors of 8 cores and 8g each, one stage of 16 two-second tasks (one wave on 16 slots). Eight
 * cores per executor is a HIGH CoreNumber finding that advises {@code spark.executor.cores=5} with memory per core
 * kept. The configuration holds a credential that must never come out again.
 */
public final class TuneLogs {
    public static final String JOB = "nightly-orders";
    public static final String SECRET = "s3cr3t-Vq9Zk2";
    private static final long DAY = 86_400_000L;
    private static final long T0 = 1_764_400_000_000L;

    private TuneLogs() {
    }

    /** Imports {@code runs} runs of the job into a new database and returns the database's name. */
    public static String importedJob(Path dir, int runs) throws Exception {
        List<String> args = new ArrayList<>(List.of("import"));
        for (int i = 0; i < runs; i++) {
            args.add(log(dir, "app-tune-" + (i + 1), T0 + i * DAY).toString());
        }
        String db = TestDb.newDatabaseName();
        args.addAll(List.of("--db", TestDb.url(db)));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        if (run.exitCode() != 0) {
            throw new AssertionError("import failed: " + run.err());
        }
        return db;
    }

    static Path log(Path dir, String appId, long start) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}");
        lines.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"orders\",\"App ID\":\"" + appId
                + "\",\"Timestamp\":" + start + ",\"User\":\"etl\"}");
        lines.add("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{},\"Spark Properties\":{"
                + "\"spark.master\":\"yarn\",\"spark.submit.deployMode\":\"cluster\",\"spark.executor.cores\":\"8\","
                + "\"spark.executor.memory\":\"8g\",\"spark.executor.instances\":\"2\","
                + "\"spark.sparkscope.jobKey\":\"" + JOB + "\",\"spark.hadoop.fs.s3a.secret.key\":\"" + SECRET
                + "\"},\"Hadoop Properties\":{},\"System Properties\":{},\"Classpath Entries\":{}}");
        for (int e = 1; e <= 2; e++) {
            lines.add("{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":" + (start + 100)
                    + ",\"Executor ID\":\"" + e + "\",\"Executor Info\":{\"Host\":\"node" + e
                    + "\",\"Total Cores\":8,\"Log Urls\":{}}}");
        }
        long submit = start + 1_000;
        lines.add("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":" + submit
                + ",\"Stage Infos\":[{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"map at Orders.scala:10\","
                + "\"Number of Tasks\":16,\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\",\"Accumulables\":[]}],"
                + "\"Stage IDs\":[0],\"Properties\":{}}");
        lines.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,"
                + "\"Stage Name\":\"map at Orders.scala:10\",\"Number of Tasks\":16,\"RDD Info\":[],\"Parent IDs\":[],"
                + "\"Details\":\"\",\"Submission Time\":" + submit + ",\"Accumulables\":[]},\"Properties\":{}}");
        for (int t = 0; t < 16; t++) {
            String executor = Integer.toString(t % 2 + 1);
            lines.add("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,"
                    + "\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{"
                    + "\"Task ID\":" + t + ",\"Index\":" + t + ",\"Attempt\":0,\"Launch Time\":" + (submit + 50)
                    + ",\"Executor ID\":\"" + executor + "\",\"Host\":\"node" + executor + "\",\"Locality\":\"ANY\","
                    + "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":" + (submit + 2_050)
                    + ",\"Failed\":false,\"Killed\":false},\"Task Metrics\":{\"Executor Run Time\":1900,"
                    + "\"Executor CPU Time\":1800000000,\"Executor Deserialize Time\":20}}");
        }
        long done = submit + 2_100;
        lines.add("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,"
                + "\"Stage Name\":\"map at Orders.scala:10\",\"Number of Tasks\":16,\"RDD Info\":[],"
                + "\"Parent IDs\":[],\"Details\":\"\",\"Submission Time\":" + submit + ",\"Completion Time\":" + done
                + ",\"Accumulables\":[]}}");
        lines.add("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":" + done
                + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}");
        lines.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + (done + 500) + "}");
        return Files.writeString(dir.resolve(appId), String.join("\n", lines) + "\n");
    }
}
