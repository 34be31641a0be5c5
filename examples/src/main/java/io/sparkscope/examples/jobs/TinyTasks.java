package io.sparkscope.examples.jobs;

import org.apache.spark.sql.SparkSession;

import java.util.List;

/**
 * Thousands of tiny tasks: 52 000 rows cut into 5 200 partitions (the heuristic looks at stages of more than
 * 5 000 tasks), so each task does a few microseconds of work and the run is all per-task overhead: scheduling,
 * closure serialization, result handling on the driver ({@code SmallTasks}; the driver-side share often shows as
 * {@code SchedulerDelay} too). Fix: fewer partitions (here 2–4 would do), {@code coalesce()}, fewer
 * {@code spark.sql.shuffle.partitions}, or AQE partition coalescing.
 */
public final class TinyTasks implements ExampleJob {
    @Override
    public String name() {
        return "tiny-tasks";
    }

    @Override
    public String title() {
        return "52 000 rows in 5 200 partitions";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("SmallTasks");
    }

    @Override
    public boolean quick() {
        return true;
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name()));
        try {
            long n = spark.range(0, 52_000, 1, 5_200).selectExpr("id * 2 AS x").javaRDD().count();
            System.out.println("rows: " + n);
        } finally {
            spark.stop();
        }
    }
}
