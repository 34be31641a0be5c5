package io.sparkscope.examples.jobs;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GC pressure: each task materializes its whole partition in a Java {@code HashMap} of boxed objects
 * ({@code mapPartitions} that "groups in memory"), and four task slots share a 640 MiB heap, so the JVM spends a
 * large share of task time collecting garbage ({@code ExecutorGc}; the heuristic judges applications with at least
 * 60 s of task time, which this job just passes). Fix: let Spark aggregate ({@code reduceByKey}/{@code groupBy},
 * which spill instead of filling the heap), give each task more heap (more executor memory or fewer cores per
 * executor), and cache serialized.
 */
public final class GcPressure implements ExampleJob {
    @Override
    public String name() {
        return "gc-pressure";
    }

    @Override
    public String title() {
        return "tasks that build big in-memory maps on a small heap";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("ExecutorGc");
    }

    @Override
    public List<String> jvmOptions() {
        return List.of("-Xmx640m", "-XX:+UseParallelGC");
    }

    @Override
    public void run(JobContext ctx) {
        SparkConf conf = ctx.conf(name()).setMaster("local[4,3]");
        SparkSession spark = ctx.start(conf);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<Integer> seeds = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                seeds.add(i);
            }
            long groups = jsc.parallelize(seeds, 16).mapPartitions(it -> {
                Map<Long, List<String>> byKey = new HashMap<>();
                while (it.hasNext()) {
                    int seed = it.next();
                    for (long i = 0; i < 600_000; i++) {
                        byKey.computeIfAbsent((i * 7 + seed) % 150_000, k -> new ArrayList<>())
                                .add("event-" + i + "-" + seed);
                    }
                }
                List<Integer> sizes = new ArrayList<>();
                byKey.values().forEach(v -> sizes.add(v.size()));
                return sizes.iterator();
            }).count();
            System.out.println("groups: " + groups);
        } finally {
            spark.stop();
        }
    }
}
