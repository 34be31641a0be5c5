package io.sparkscope.examples.jobs;

import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.List;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

/**
 * Skewed join: 90 % of the fact rows share one key, so one shuffle partition of the sort-merge join does nearly all
 * the work while the other tasks finish at once ({@code StageSkew}). One task of a small follow-up job also fails
 * once and succeeds on retry. Fix: salt the hot key, broadcast the small side, or let AQE split skewed partitions
 * ({@code spark.sql.adaptive.skewJoin.enabled}).
 */
public final class SkewedJoin implements ExampleJob {
    @Override
    public String name() {
        return "skewed-join";
    }

    @Override
    public String title() {
        return "a join where one key holds 90 % of the rows";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("StageSkew");
    }

    @Override
    public boolean quick() {
        return true;
    }

    @Override
    public void run(JobContext ctx) {
        SparkConf conf = ctx.conf(name()).set("spark.sql.autoBroadcastJoinThreshold", "-1");
        SparkSession spark = ctx.start(conf);
        try {
            Dataset<Row> facts = spark.range(0, 400_000, 1, 8)
                    .withColumn("key", when(col("id").mod(10).lt(9), lit(0)).otherwise(col("id").mod(1000)));
            // One dimension row per key, but 180 for the hot key: its task joins 360 000 × 180 rows, seconds of work even
            // on an idle, fast machine, while the other tasks stay small (the skew must show as time, or StageSkew
            // rightly stays silent)
            Dataset<Row> dims = spark.range(0, 1_179, 1, 2)
                    .withColumn("key", when(col("id").lt(1000), col("id")).otherwise(lit(0)))
                    .withColumn("label", col("key").cast("string"));
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
