package io.sparkscope.listener;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.apache.spark.sql.functions.col;

/**
 * Real Spark in local mode for listener tests, with Sparkscope attached the way users attach it; its
 * {@link #workload} is also what the server's tests give Spark's History Server to compare with.
 */
public final class LocalSpark {
    private LocalSpark() {
    }

    static SparkSession start(String appName, Map<String, String> extra) {
        SparkConf conf = new SparkConf()
                .setMaster("local[2,3]") // 3 attempts per task, so a failed task can recover
                .setAppName(appName)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.sql.shuffle.partitions", "4")
                .set("spark.extraListeners", SparkscopeListener.class.getName());
        extra.forEach(conf::set);
        return SparkSession.builder().config(conf).getOrCreate();
    }

    static SparkConf eventLog(SparkConf conf, Path dir) {
        return conf.set("spark.eventLog.enabled", "true").set("spark.eventLog.dir", dir.toUri().toString());
    }

    /**
     * A small workload with a SQL shuffle, an RDD job (in a job group with a description) whose task fails once and
     * recovers on retry, and a job that fails for good with some tasks succeeding (its error has a second line):
     * jobs, stages, failed tasks, a failed stage and SQL executions to record.
     */
    public static void workload(SparkSession spark) {
        spark.range(0, 20_000, 1, 6).groupBy(col("id").mod(7).as("k")).count().collectAsList();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> data = Arrays.asList(1, 2, 3, 4, 5, 6, 7, 8);
        jsc.setJobGroup("nightly", "doubles the numbers", false);
        jsc.parallelize(data, 4).map(x -> {
            TaskContext tc = TaskContext.get();
            if (tc.partitionId() == 1 && tc.attemptNumber() == 0) {
                throw new IllegalStateException("first attempt fails on purpose");
            }
            return x * 2;
        }).collect();
        jsc.clearJobGroup();
        try {
            jsc.parallelize(data, 2).map(x -> {
                if (x == 3) {
                    throw new IllegalArgumentException("bad record " + x + "\nsecond line of the message");
                }
                return x;
            }).collect();
        } catch (Exception expected) {
            // the job fails on purpose: a failed job and stage to record
        }
    }
}
