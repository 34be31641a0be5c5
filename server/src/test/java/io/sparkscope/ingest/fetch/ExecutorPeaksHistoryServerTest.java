package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.server.LocalSparkApp;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Executor peaks read from a log the test writes with {@code spark.eventLog.logStageExecutorMetrics=true} equal
 * Spark's own History Server's {@code peakMemoryMetrics} for that log, metric by metric.
 */
class ExecutorPeaksHistoryServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void peaksEqualTheHistoryServers(@TempDir Path logDir) throws Exception {
        String appId = runCachingApp(logDir);
        EventLogSource log = EventLogReader.discover(logDir).stream()
                .filter(l -> l.path().getFileName().toString().contains(appId)).findFirst().orElseThrow();
        AppSnapshot ours = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS,
                p -> { throw new AssertionError("problem reading Spark's own log: " + p); }).snapshot();

        JsonNode executors;
        try (SparkHistory shs = SparkHistory.start(logDir)) {
            shs.awaitCompleted(1);
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(shs.url + "/api/v1/applications/" + appId + "/executors")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            executors = JSON.readTree(r.body());
        }
        int compared = 0;
        for (JsonNode e : executors) {
            String id = e.get("id").asText();
            ExecutorSummary mine = ours.executors().stream().filter(x -> x.executorId().equals(id)).findFirst()
                    .orElseThrow(() -> new AssertionError("no executor " + id + " in our snapshot"));
            JsonNode peaks = e.path("peakMemoryMetrics");
            assertTrue(peaks.isObject(), "the History Server shows peaks for " + id + ": " + e);
            for (Iterator<Map.Entry<String, JsonNode>> it = peaks.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> m = it.next();
                long spark = m.getValue().asLong();
                Long value = mine.peakMetrics().get(m.getKey());
                if (spark > 0) {
                    assertEquals(spark, value, "executor " + id + " " + m.getKey());
                    compared++;
                } else {
                    assertTrue(value == null || value == 0, "executor " + id + " " + m.getKey() + ": " + value);
                }
            }
            assertTrue(mine.peakMetrics().get("OnHeapStorageMemory") >= 32L << 20, "cached data in storage memory");
        }
        assertTrue(compared >= 6, "heap, off-heap, storage, GC counts and times at least: " + compared);
    }

    /** 32 MiB cached and read twice, a SQL shuffle, with per-stage executor metrics in the log. */
    private static String runCachingApp(Path logDir) {
        SparkConf conf = LocalSparkApp.conf("local[2]", "peaks-shs", logDir)
                .set("spark.sql.shuffle.partitions", "4")
                .set("spark.executor.heartbeatInterval", "200ms")
                .set("spark.eventLog.logStageExecutorMetrics", "true");
        return LocalSparkApp.run(conf, spark -> {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<Integer> blocks = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                blocks.add(i);
            }
            JavaRDD<byte[]> cached = jsc.parallelize(blocks, 4).map(i -> new byte[1 << 20])
                    .persist(StorageLevel.MEMORY_ONLY());
            cached.count();
            for (int round = 0; round < 2; round++) {
                cached.map(b -> {
                    Thread.sleep(100);
                    return b.length;
                }).reduce(Integer::sum);
            }
            spark.range(0, 50_000, 1, 4).groupBy(col("id").mod(5)).count().collectAsList();
        });
    }
}
