package io.sparkscope.examples.jobs;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.List;

/**
 * A failing stage: one malformed record ({@code "n/a"}) makes every attempt of its task throw
 * {@code NumberFormatException}; after {@code spark.task.maxFailures} attempts the stage and the job fail
 * ({@code StageFailure}, {@code JobFailure}). Retrying a deterministic error only wastes time. Fix: validate or
 * filter bad input before parsing (or parse into a nullable column and count rejects).
 */
public final class FailingStage implements ExampleJob {
    @Override
    public String name() {
        return "failing-stage";
    }

    @Override
    public String title() {
        return "a job that fails on one malformed record";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("StageFailure", "JobFailure");
    }

    @Override
    public boolean quick() {
        return true;
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name()));
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                lines.add(i == 13_337 ? "n/a" : Integer.toString(i));
            }
            JavaRDD<String> input = jsc.parallelize(lines, 8);
            System.out.println("records: " + input.count()); // a job that succeeds first
            try {
                long sum = input.map(Long::parseLong).reduce(Long::sum);
                System.out.println("sum: " + sum);
            } catch (Exception e) {
                // The application reports the failed job and carries on to shut down cleanly.
                System.out.println("job failed as intended: " + e.getMessage().lines().findFirst().orElse(""));
            }
        } finally {
            spark.stop();
        }
    }
}
