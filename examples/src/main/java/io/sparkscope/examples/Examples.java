package io.sparkscope.examples;

import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

/**
 * Small local Spark applications that each show a problem Sparkscope diagnoses. Each run writes its Spark event log
 * ({@code spark.eventLog.enabled}), so the same run can be analyzed, imported or compared later.
 *
 * <pre>java -jar examples/target/sparkscope-examples.jar [--out DIR] [--codec zstd|lz4|snappy|none] [job…]</pre>
 */
public final class Examples {
    private Examples() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get("target", "eventlogs");
        String codec = "zstd";
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Paths.get(requireValue(args, ++i, "--out"));
                case "--codec" -> codec = requireValue(args, ++i, "--codec");
                case "--help", "-h" -> {
                    System.out.println("usage: sparkscope-examples [--out DIR] [--codec zstd|lz4|snappy|none] "
                            + "[skewed-join]");
                    return;
                }
                default -> jobs.add(args[i]);
            }
        }
        if (jobs.isEmpty()) {
            jobs.add("skewed-join");
        }
        Files.createDirectories(out);
        for (String job : jobs) {
            switch (job) {
                case "skewed-join" -> skewedJoin(out, codec);
                default -> {
                    System.err.println("sparkscope-examples: unknown job '" + job + "' (known: skewed-join)");
                    System.exit(2);
                }
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

    /** The configuration every example shares: local mode, no UI, event log into {@code out}. */
    public static SparkConf baseConf(String appName, Path out, String codec) {
        SparkConf conf = new SparkConf()
                .setMaster("local[2,3]")
                .setAppName(appName)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.eventLog.enabled", "true")
                .set("spark.eventLog.dir", out.toAbsolutePath().toUri().toString())
                .set("spark.sql.shuffle.partitions", "8")
                .set("spark.sql.adaptive.enabled", "false");
        if (!"none".equals(codec)) {
            conf.set("spark.eventLog.compress", "true").set("spark.eventLog.compression.codec", codec);
        }
        return conf;
    }

    /**
     * Skewed join: 90 % of the fact rows share one key, so one shuffle partition does nearly all the work while
     * the others idle. One task also fails once and succeeds on retry. Fix: salt the hot key, broadcast the small
     * side, or let AQE split skewed partitions ({@code spark.sql.adaptive.skewJoin.enabled}).
     */
    static void skewedJoin(Path out, String codec) {
        SparkSession spark = SparkSession.builder().config(baseConf("skewed-join", out, codec)).getOrCreate();
        try {
            Dataset<Row> facts = spark.range(0, 400_000, 1, 8)
                    .withColumn("key", when(col("id").mod(10).lt(9), lit(0)).otherwise(col("id").mod(1000)));
            Dataset<Row> dims = spark.range(0, 1000, 1, 2).withColumnRenamed("id", "key")
                    .withColumn("label", col("key").cast("string"));
            spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
            facts.join(dims, "key").groupBy("label").count().collectAsList();
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            jsc.parallelize(List.of(1, 2, 3, 4), 4).map(x -> {
                TaskContext tc = TaskContext.get();
                if (tc.partitionId() == 2 && tc.attemptNumber() == 0) {
                    throw new IllegalStateException("transient failure on first attempt");
                }
                return x;
            }).collect();
        } finally {
            spark.stop();
        }
    }
}
