package io.sparkscope.examples.jobs;

import org.apache.spark.sql.SparkSession;

import java.util.List;

/**
 * Too few partitions: CPU-heavy work on 3 million rows in a single partition, so one task runs for seconds while the
 * other core idles. On a cluster this is the stage with 10 long tasks on 200 cores. {@code LongTasks} judges the
 * median task time against 5 min (LOW) / 15 min (HIGH), thresholds for production clusters, so this seconds-long
 * demo does not trip it (nor {@code IdleCores}, which judges applications of at least 60 s): look at its stage in
 * the UI, one task for the whole stage. Fix: more partitions ({@code repartition(n)}, more input splits, or more
 * {@code spark.sql.shuffle.partitions}).
 */
public final class TooFewPartitions implements ExampleJob {
    @Override
    public String name() {
        return "too-few-partitions";
    }

    @Override
    public String title() {
        return "heavy work in a single partition (one long task)";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of(); // LongTasks needs tasks of minutes: see the class comment
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name()));
        try {
            spark.range(0, 3_000_000, 1, 1)
                    .selectExpr("sha2(cast(id AS string), 256) AS h")
                    .selectExpr("count(DISTINCT substr(h, 1, 5))").collectAsList();
        } finally {
            spark.stop();
        }
    }
}
