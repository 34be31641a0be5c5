package io.sparkscope.examples;

import io.sparkscope.examples.jobs.Catalog;
import io.sparkscope.examples.jobs.ExampleJob;
import io.sparkscope.examples.jobs.JobContext;
import org.apache.spark.SparkConf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Small local Spark applications that each show a problem Sparkscope diagnoses (see {@link Catalog}). Each run
 * writes its Spark event log ({@code spark.eventLog.enabled}), so the same run can be analyzed, imported or compared
 * later; with {@code --db} the Sparkscope listener is attached through {@code spark.extraListeners} and records the
 * run into that PostgreSQL database.
 *
 * <pre>java -jar examples/target/sparkscope-examples.jar [--out DIR] [--codec zstd|lz4|snappy|none]
 *     [--db JDBC-URL] [--db-user USER] [--spool DIR] [--work DIR] [--scale N] [--tag TAG] [list | quick | all | job[,job…]…]</pre>
 */
public final class Examples {
    /** Spark property the demo tags each run with ({@code job@scale}), to find runs already recorded. */
    public static final String RUN_TAG = "spark.sparkscope-demo.run";
    public static final String LISTENER = "io.sparkscope.listener.SparkscopeListener";

    private Examples() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get("target", "eventlogs");
        Path work = null;
        String codec = "zstd";
        String db = null;
        String dbUser = null;
        String spool = null;
        String tag = null;
        Integer scale = null;
        List<String> specs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Paths.get(requireValue(args, ++i, "--out"));
                case "--codec" -> codec = requireValue(args, ++i, "--codec");
                case "--db" -> db = requireValue(args, ++i, "--db");
                case "--db-user" -> dbUser = requireValue(args, ++i, "--db-user");
                case "--spool" -> spool = requireValue(args, ++i, "--spool");
                case "--work" -> work = Paths.get(requireValue(args, ++i, "--work"));
                case "--tag" -> tag = requireValue(args, ++i, "--tag");
                case "--scale" -> scale = Integer.parseInt(requireValue(args, ++i, "--scale"));
                case "--help", "-h" -> {
                    System.out.println("usage: sparkscope-examples [--out DIR] [--codec zstd|lz4|snappy|none] "
                            + "[--db JDBC-URL] [--db-user USER] [--spool DIR] [--work DIR] [--scale N] [--tag TAG] "
                            + "[list | quick | all | job[,job…]…]");
                    return;
                }
                default -> specs.add(args[i]);
            }
        }
        if (specs.equals(List.of("list"))) {
            for (ExampleJob j : Catalog.all()) {
                System.out.printf("%-20s %s%s%n", j.name(), j.title(),
                        j.expectedFindings().isEmpty() ? "" : " → " + String.join(", ", j.expectedFindings()));
            }
            return;
        }
        List<ExampleJob> jobs;
        try {
            jobs = Catalog.select(specs.isEmpty() ? "skewed-join" : String.join(",", specs));
        } catch (IllegalArgumentException e) {
            System.err.println("sparkscope-examples: " + e.getMessage());
            System.exit(2);
            return;
        }
        Files.createDirectories(out);
        Path workDir = work != null ? work : out.toAbsolutePath().getParent().resolve("work");
        for (ExampleJob job : jobs) {
            for (int s : scale != null ? List.of(scale) : job.scales()) {
                SparkConf conf = baseConf(job.name(), out, codec);
                if (db != null) {
                    conf.set("spark.extraListeners", LISTENER).set("spark.sparkscope.jdbc.url", db);
                    if (dbUser != null) {
                        conf.set("spark.sparkscope.jdbc.user", dbUser);
                    }
                    if (spool != null) {
                        conf.set("spark.sparkscope.spool.dir", spool);
                    }
                }
                conf.set(RUN_TAG, tag != null ? tag : job.name() + "@" + s)
                        .set("spark.sql.warehouse.dir", workDir.resolve("spark-warehouse").toUri().toString());
                job.run(new JobContext(conf, s, workDir));
            }
        }
        System.out.println("event logs written to " + out.toAbsolutePath());
    }

    private static String requireValue(String[] args, int i, String option) {
        if (i >= args.length) {
            System.err.println("sparkscope-examples: " + option + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    /**
     * The configuration every example shares: local mode with 2 cores and 3 attempts per task, no UI, Kryo (so only
     * the Java-serializer example shows that problem), AQE off unless a job turns it on (so the problems stay
     * visible), event log into {@code out}.
     */
    public static SparkConf baseConf(String appName, Path out, String codec) {
        SparkConf conf = new SparkConf()
                .setMaster("local[2,3]")
                .setAppName(appName)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .set("spark.eventLog.enabled", "true")
                .set("spark.eventLog.dir", out.toAbsolutePath().toUri().toString())
                .set("spark.sql.shuffle.partitions", "8")
                .set("spark.sql.adaptive.enabled", "false");
        if (!"none".equals(codec)) {
            conf.set("spark.eventLog.compress", "true").set("spark.eventLog.compression.codec", codec);
        }
        return conf;
    }
}
