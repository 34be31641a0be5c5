package io.sparkscope.examples.jobs;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.util.List;

/**
 * Spilling sort: a global sort of 600 000 rows with execution memory kept small, so the sorter writes its buffer to
 * disk again and again ({@code DiskSpill}). Spark's
 * {@code spark.shuffle.spill.numElementsForceSpillThreshold} (an internal setting) stands in for an executor that
 * is short of memory: on a cluster the same happens when {@code spark.executor.memory} ×
 * {@code spark.memory.fraction} is small for the partition size. Fix: more memory per task (executor memory, fewer
 * cores per executor, a higher {@code spark.memory.fraction}) or more, smaller partitions
 * ({@code spark.sql.shuffle.partitions}).
 */
public final class SpillingSort implements ExampleJob {
    @Override
    public String name() {
        return "spilling-sort";
    }

    @Override
    public String title() {
        return "a global sort with too little execution memory";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("DiskSpill");
    }

    @Override
    public boolean quick() {
        return true;
    }

    @Override
    public void run(JobContext ctx) {
        SparkConf conf = ctx.conf(name())
                .set("spark.memory.fraction", "0.1")
                .set("spark.shuffle.spill.numElementsForceSpillThreshold", "20000")
                .set("spark.sql.shuffle.partitions", "4");
        SparkSession spark = ctx.start(conf);
        try {
            // A global sort whose result is written (the "noop" sink writes nothing but keeps the sort in the plan).
            spark.range(0, 600_000, 1, 4)
                    .selectExpr("id", "(id * 7919) % 1000003 AS k", "concat('customer-', id % 50000) AS c")
                    .orderBy("k")
                    .write().format("noop").mode("overwrite").save();
        } finally {
            spark.stop();
        }
    }
}
