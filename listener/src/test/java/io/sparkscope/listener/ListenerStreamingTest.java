package io.sparkscope.listener;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.ingest.IngestService;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Structured Streaming query in local mode (rate source → windowed count with a watermark → noop sink, a
 * 200 ms trigger), run twice from one checkpoint, recorded live by the listener into PostgreSQL, and the same run's
 * event log imported into another database: the same query runs, batches and numbers both ways, and the numbers
 * Spark itself reported.
 */
class ListenerStreamingTest {
    static final String QUERY_NAME = "windowed_counts";

    @Test
    void liveRecordingOfAStreamingQueryEqualsItsEventLog(@TempDir Path dir) throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("events"));
        String db = TestDb.newDatabaseName();
        DataSource live = TestDb.dataSource(db);
        SparkSession spark = LocalSpark.start("streaming", Map.of(
                "spark.sql.shuffle.partitions", "2",
                // A trigger that finds no new rows and no watermark to move is idle. Spark adds a report of it to
                // recentProgress when no batch ran for this long (10 s by default, which a loaded machine reaches
                // now and then); a short interval makes that more common, and the comparison below tells them apart.
                "spark.sql.streaming.noDataProgressEventInterval", "500ms",
                "spark.sparkscope.jdbc.url", TestDb.url(db),
                "spark.sparkscope.spool.dir", dir.resolve("spool").toString(),
                "spark.eventLog.enabled", "true",
                "spark.eventLog.dir", dir.resolve("events").toUri().toString()));
        String appId = spark.sparkContext().applicationId();
        List<StreamingQueryProgress> reported = new ArrayList<>();
        List<String> runIds = new ArrayList<>();
        String queryId = null;
        for (int run = 0; run < 2; run++) {
            StreamingQuery q = start(spark, dir.resolve("checkpoint"));
            awaitBatches(q, run == 0 ? 20 : 10);
            q.stop();
            reported.addAll(List.of(q.recentProgress()));
            runIds.add(q.runId().toString());
            queryId = q.id().toString();
        }
        spark.stop();

        ListenerOutageTest.waitFor("the final snapshot in the database", Duration.ofSeconds(30), () -> {
            try {
                return SnapshotReader.read(live, appId, null).map(AppSnapshot::complete).orElse(false);
            } catch (Exception e) {
                return false;
            }
        });
        AppSnapshot stored = SnapshotReader.read(live, appId, null).orElseThrow();
        AppSnapshot inMemory = SparkscopeListener.latest().lastSnapshot();
        assertNotNull(inMemory, "the listener made a snapshot");
        assertEquals(inMemory.streamingQueries(), stored.streamingQueries(), "the database holds what the listener had");
        EventLogSource log = EventLogReader.discover(dir.resolve("events")).stream()
                .filter(l -> l.path().getFileName().toString().contains(appId)).findFirst().orElseThrow();
        List<String> problems = new ArrayList<>();
        AppSnapshot fromLog = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS, problems::add).snapshot();
        assertEquals(List.of(), problems, "Spark's own log reads without a warning");
        DataSource imported = TestDb.dataSource(TestDb.newDatabaseName());
        SchemaManager.migrate(imported);
        IngestService.builder(imported).heuristics(io.sparkscope.core.analysis.Diagnoser.defaults()::diagnose).build()
                .ingest(fromLog);
        AppSnapshot replayed = SnapshotReader.read(imported, appId, null).orElseThrow();
        assertTrue(replayed.unknownEventTypes().keySet().stream().noneMatch(t -> t.contains("streaming")),
                "every streaming event type is decoded: " + replayed.unknownEventTypes());

        checkAgainstSpark(stored, queryId, runIds, reported);
        checkAgainstSpark(replayed, queryId, runIds, reported);
        assertEquals("ProcessingTime", stored.streamingQueries().get(0).triggerKind(), "looked up on the running query");
        assertEquals(200, stored.streamingQueries().get(0).triggerIntervalMs());
        assertEquals(-1, replayed.streamingQueries().get(0).triggerIntervalMs(), "the event log does not carry it");
        assertEquals(withoutTrigger(replayed), withoutTrigger(stored),
                "live and imported streaming queries differ");
        assertEquals(TestDb.count(imported, "select count(*) from streaming_batch"),
                TestDb.count(live, "select count(*) from streaming_batch"));
    }

    static StreamingQuery start(SparkSession spark, Path checkpoint) throws Exception {
        Dataset<Row> rate = spark.readStream().format("rate").option("rowsPerSecond", "40")
                .option("numPartitions", "2").load();
        Dataset<Row> counts = rate.withWatermark("timestamp", "1 second")
                .groupBy(window(col("timestamp"), "1 second")).count();
        return counts.writeStream().format("noop").queryName(QUERY_NAME).outputMode("update")
                .option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.ProcessingTime(200)).start();
    }

    /** Waits for {@code n} more batches of this run (a loaded machine takes seconds for the first). */
    static void awaitBatches(StreamingQuery q, int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (executed(q.recentProgress()) < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + executed(q.recentProgress()) + " batches in 5 minutes");
            }
            if (q.exception().isDefined()) {
                throw new AssertionError("the query failed: " + q.exception().get());
            }
            Thread.sleep(100);
        }
    }

    /** Reports of triggers that ran a batch; an idle trigger's report has no {@code addBatch} phase. */
    static long executed(StreamingQueryProgress[] reports) {
        return Arrays.stream(reports).filter(p -> p.durationMs().containsKey("addBatch")).count();
    }

    /** Our batches hold the numbers Spark's progress objects report. */
    static void checkAgainstSpark(AppSnapshot s, String queryId, List<String> runIds,
                                  List<StreamingQueryProgress> reported) {
        List<StreamingQuerySummary> runs = s.streamingQueries();
        assertEquals(runIds, runs.stream().map(StreamingQuerySummary::runId).toList(), "one entry per run, in order");
        assertNotEquals(runIds.get(0), runIds.get(1));
        for (StreamingQuerySummary run : runs) {
            assertEquals(queryId, run.queryId(), "a restart from the checkpoint keeps the query id");
            assertEquals(QUERY_NAME, run.name());
            assertEquals(StreamingQuerySummary.Status.STOPPED, run.status());
            assertTrue(run.startTime() > 0 && run.endTime() >= run.startTime());
            assertEquals(run.totals().batches(), run.recentBatches().size(), "a few dozen batches fit the window");
        }
        long firstOfSecondRun = runs.get(1).recentBatches().get(0).batchId();
        assertTrue(firstOfSecondRun > runs.get(0).totals().lastBatchId(), "batch ids go on across runs");
        int matched = 0;
        Map<String, Integer> idleReports = new HashMap<>();
        for (StreamingQueryProgress p : reported) {
            StreamingQuerySummary run = runs.stream().filter(r -> r.runId().equals(p.runId().toString()))
                    .findFirst().orElseThrow();
            if (!p.durationMs().containsKey("addBatch")) {
                // A trigger that found no new data: Spark adds a report to recentProgress under the id of the batch
                // still to come, but tells listeners only with an idle event. It is not a batch, and the real batch
                // of that id may follow with data, so it is counted as an idle trigger rather than compared.
                assertEquals(0, p.numInputRows(), "an idle report of batch " + p.batchId() + " read no rows");
                idleReports.merge(run.runId(), 1, Integer::sum);
                continue;
            }
            StreamingBatch b = run.recentBatches().stream().filter(x -> x.batchId() == p.batchId()).findFirst()
                    .orElseThrow(() -> new AssertionError("batch " + p.batchId() + " not recorded"));
            assertEquals(p.numInputRows(), b.numInputRows(), "numInputRows of batch " + p.batchId());
            assertEquals(p.batchDuration(), b.durationMs());
            assertEquals(p.durationMs().get("addBatch"), b.durationParts().get("addBatch"));
            assertEquals(p.durationMs().get("triggerExecution"), b.durationParts().get("triggerExecution"));
            assertEquals(p.sink().numOutputRows(), b.numOutputRows());
            assertEquals(rate(p.processedRowsPerSecond()), b.processedRowsPerSecond(), 1e-9);
            assertEquals(rate(p.inputRowsPerSecond()), b.inputRowsPerSecond(), 1e-9);
            assertEquals(p.stateOperators()[0].numRowsTotal(), b.stateOperators().get(0).numRowsTotal());
            assertEquals(p.stateOperators()[0].memoryUsedBytes(), b.stateOperators().get(0).memoryUsedBytes());
            assertEquals(2, b.stateOperators().get(0).numShufflePartitions());
            assertTrue(b.watermark() >= 0, "the query defines a watermark");
            matched++;
        }
        assertTrue(matched >= 30, matched + " batches compared: a few dozen");
        for (StreamingQuerySummary run : runs) {
            int idle = idleReports.getOrDefault(run.runId(), 0);
            // Spark posts no idle event for the run's first idle report, hence the one extra allowed.
            assertTrue(idle <= run.totals().idleTriggers() + 1,
                    idle + " idle reports in recentProgress, " + run.totals().idleTriggers() + " idle triggers recorded");
        }
        long rows = runs.stream().mapToLong(r -> r.totals().inputRows()).sum();
        assertTrue(rows > 0, "rows were read");
    }

    private static double rate(double r) {
        return Double.isNaN(r) || Double.isInfinite(r) ? -1 : r;
    }

    /** The trigger is what only the live listener can know; everything else must agree. */
    static String withoutTrigger(AppSnapshot s) throws Exception {
        com.fasterxml.jackson.databind.node.ArrayNode runs =
                SnapshotCodec.mapper().valueToTree(s.streamingQueries());
        for (com.fasterxml.jackson.databind.JsonNode run : runs) {
            com.fasterxml.jackson.databind.node.ObjectNode q = (com.fasterxml.jackson.databind.node.ObjectNode) run;
            q.putNull("triggerKind");
            q.put("triggerIntervalMs", -1);
            ((com.fasterxml.jackson.databind.node.ObjectNode) q.get("totals")).put("batchesOverTrigger", -1);
        }
        return runs.toString();
    }

    static String json(Object o) throws Exception {
        return SnapshotCodec.mapper().writeValueAsString(o);
    }
}
