package io.sparkscope.listener;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

import java.util.ArrayList;
import java.util.List;

/**
 * Spark applications with known memory needs, run by {@link MemorySizingLocalClusterTest} in a JVM of their own on
 * {@code local-cluster} (a real standalone master, worker and executor JVMs, so {@code spark.executor.memory} is the
 * executors' heap): {@code main(job, eventLogDir)}.
 */
public final class MemoryJobs {
    static final int CACHED_MIB = 64;

    private MemoryJobs() {
    }

    public static void main(String[] args) throws Exception {
        String job = args[0];
        String executorMemory = switch (job) {
            case "cache" -> "3g";
            case "clean", "oom" -> "1g";
            default -> throw new IllegalArgumentException("unknown job " + job);
        };
        SparkConf conf = new SparkConf()
                .setMaster("local-cluster[1,1,3072]")
                .setAppName("memory-" + job)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.executor.memory", executorMemory)
                .set("spark.task.maxFailures", "2")
                .set("spark.executor.heartbeatInterval", "500ms")
                .set("spark.executor.metrics.pollingInterval", "200ms")
                .set("spark.eventLog.enabled", "true")
                .set("spark.eventLog.logStageExecutorMetrics", "true")
                .set("spark.eventLog.dir", args[1]);
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            switch (job) {
                case "cache" -> cache(jsc);
                case "clean" -> jsc.parallelize(List.of(1, 2, 3, 4), 2).map(x -> {
                    Thread.sleep(300);
                    return x * 2;
                }).collect();
                default -> outOfHeap(jsc);
            }
        } finally {
            spark.stop();
        }
    }

    /** CACHED_MIB MiB cached, then read three times, slowly enough for the executor to sample its memory. */
    private static void cache(JavaSparkContext jsc) {
        List<Integer> blocks = new ArrayList<>();
        for (int i = 0; i < CACHED_MIB; i++) {
            blocks.add(i);
        }
        JavaRDD<byte[]> cached = jsc.parallelize(blocks, 4).map(i -> new byte[1 << 20])
                .persist(StorageLevel.MEMORY_ONLY());
        cached.count();
        for (int round = 0; round < 3; round++) {
            cached.map(b -> {
                Thread.sleep(100);
                return b.length;
            }).reduce(Integer::sum);
        }
    }

    /** One task needs more than the whole 1g heap: it fails with OutOfMemoryError, twice, and the job with it. */
    private static void outOfHeap(JavaSparkContext jsc) {
        try {
            jsc.parallelize(List.of(1), 1).map(x -> new long[200_000_000].length).collect();
        } catch (Exception expected) {
            // the job fails on purpose
        }
    }
}
