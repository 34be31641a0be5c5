package io.sparkscope.examples.jobs;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.List;

/**
 * Flaky tasks that recover: 3 of 20 tasks fail on their first attempt (as a task does when an external service
 * times out or an executor is lost) and succeed on retry, so the job succeeds but 13 % of task attempts were wasted
 * ({@code TaskFailure}). Fix: find the cause in the failed attempts' reasons (timeouts, lost executors, OOM); retries
 * hide it but pay for it.
 */
public final class FlakyTasks implements ExampleJob {
    @Override
    public String name() {
        return "flaky-tasks";
    }

    @Override
    public String title() {
        return "tasks that fail once and succeed on retry";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("TaskFailure");
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name()));
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<Integer> data = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                data.add(i);
            }
            long n = jsc.parallelize(data, 20).map(x -> {
                TaskContext tc = TaskContext.get();
                int p = tc.partitionId();
                if ((p == 3 || p == 9 || p == 14) && tc.attemptNumber() == 0 && x % 100 == 50) {
                    throw new java.net.SocketTimeoutException("Read timed out (lookup service), partition " + p);
                }
                Thread.sleep(1);
                return x * 2L;
            }).count();
            System.out.println("records: " + n);
        } finally {
            spark.stop();
        }
    }
}
