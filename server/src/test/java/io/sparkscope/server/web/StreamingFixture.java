package io.sparkscope.server.web;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server over a database of its own with Structured Streaming applications, built by feeding Spark-shaped events
 * through the real recorder: a finished one whose query (hostile name, source and error texts) ran twice from one
 * checkpoint and falls behind on 200 shuffle partitions, and a RUNNING one whose query a test can advance
 * ({@link #advanceLive}) while a browser watches its pages.
 */
final class StreamingFixture {
    static final long NOW = WebFixture.NOW;
    static final String DONE_APP = "app-stream-done";
    static final String LIVE_APP = "app-stream-live";
    static final String QUERY = "5f0e7c1a-0b9d-4f7e-9a51-3c2f8d6e4b10";
    static final String LIVE_QUERY = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
    static final String XSS_NAME = "clicks " + WebFixture.XSS1;
    static final String XSS_SOURCE = "KafkaV2[Subscribe[" + WebFixture.XSS2 + "]]";
    static final int LIVE_BATCHES = 20;
    static final String LIVE_RUN = "live-run";

    private static DataSource data;
    private static WebServer server;
    private static int port;
    private static int liveBatches;

    private StreamingFixture() {
    }

    static synchronized String base() {
        if (server == null) {
            data = WebFixture.newDatabase();
            WebFixture.write(data, done());
            liveBatches = LIVE_BATCHES;
            WebFixture.write(data, live(liveBatches));
            server = new WebServer(data, new WebServer.Options(null, null), () -> NOW);
            port = server.start("127.0.0.1", 0);
        }
        return "http://127.0.0.1:" + port;
    }

    static WebFixture.Response get(String pathAndQuery) {
        return WebFixture.getAt(base(), pathAndQuery);
    }

    /** The live application as it is after {@code more} further batches of its query. */
    static synchronized int advanceLive(int more) {
        base();
        liveBatches += more;
        WebFixture.write(data, live(liveBatches));
        return liveBatches;
    }

    /** Ended an hour ago: run 1 of 30 batches, run 2 (same query id, restarted) of 15 that falls behind and fails. */
    static AppSnapshot done() {
        long start = NOW - 3 * WebFixture.HOUR;
        Recorder r = app(DONE_APP, "streaming etl", start, "200");
        long t = start + 5_000;
        t = run(r, QUERY, "run-1", XSS_NAME, t, 0, 30, -1, false, null);
        t = run(r, QUERY, "run-2", XSS_NAME, t + 60_000, 30, 15, -1, true,
                "org.apache.spark.SparkException: " + WebFixture.XSS1 + "\n\tat line two");
        r.onEvent(new SparkEvent.ApplicationEnd(t + 1000));
        return r.snapshot();
    }

    /** Still running: started 30 minutes before NOW, a 1 s trigger, {@code batches} batches so far. */
    static AppSnapshot live(int batches) {
        long start = NOW - 30 * 60_000L;
        Recorder r = app(LIVE_APP, "live stream", start, "8");
        run(r, LIVE_QUERY, LIVE_RUN, "live_counts", start + 5_000, 0, batches, 1000, false, null);
        return r.snapshot();
    }

    private static Recorder app(String appId, String name, long start, String shufflePartitions) {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart(name, appId, null, start, "carol"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[4]", "spark.app.name", name,
                "spark.sql.shuffle.partitions", shufflePartitions), Map.of(), Map.of(), Map.of()));
        r.onEvent(new SparkEvent.BlockManagerAdded(start, "driver", "localhost", 1L << 30));
        return r;
    }

    /**
     * One run of {@code n} batches from batch id {@code first}, one second each (longer and behind when
     * {@code behind}), rows 100 a batch, state growing by 20 rows a batch; every run but the live one ends.
     */
    private static long run(Recorder r, String queryId, String runId, String name, long t, long first, int n,
                            long triggerMs, boolean behind, String error) {
        r.onEvent(new SparkEvent.StreamingQueryStarted(queryId, runId, name, t));
        if (triggerMs >= 0) {
            r.onEvent(new SparkEvent.StreamingQueryTrigger(queryId, runId, "ProcessingTime", triggerMs));
        }
        t += 100;
        for (long id = first; id < first + n; id++) {
            long duration = behind ? 1500 + 40 * (id - first) : 800 + (id % 3) * 50;
            Map<String, Long> phases = new LinkedHashMap<>();
            phases.put("triggerExecution", duration);
            phases.put("latestOffset", 20L);
            phases.put("getBatch", 10L);
            phases.put("queryPlanning", 60L);
            phases.put("addBatch", duration - 150);
            phases.put("walCommit", 30L);
            phases.put("commitOffsets", 20L);
            long rows = 100;
            double input = id == first ? Double.NaN : behind ? 100 * 1000.0 / (duration - 40) : 100.0;
            double processed = rows * 1000.0 / duration;
            StreamingProgress.StateOperator op = new StreamingProgress.StateOperator("stateStoreSave", 20 * (id + 1),
                    20, 0, 40, 2, 15, 10_000 * (id + 1), id % 5 == 0 ? 3 : 0, 200, 200, Map.of());
            StreamingProgress.Source src = new StreamingProgress.Source(XSS_SOURCE, id == 0 ? null
                    : "{\"clicks\":{\"0\":" + (id * rows) + "}}", "{\"clicks\":{\"0\":" + ((id + 1) * rows) + "}}",
                    "{\"clicks\":{\"0\":" + ((id + 1) * rows) + "}}", rows, input, processed,
                    Map.of("avgOffsetsBehindLatest", "0.0"));
            if (runId.equals(LIVE_RUN)) {
                // each batch of the live query runs one job, so the jobs tab of the running application grows too
                r.onEvent(new SparkEvent.JobStart((int) id, t - duration, List.of(), List.of(), Map.of()));
                r.onEvent(new SparkEvent.JobEnd((int) id, t - 10, true, null));
            }
            r.onEvent(new SparkEvent.StreamingQueryProgress(new StreamingProgress(queryId, runId, name, t, id, duration,
                    phases, Map.of("watermark", id == first ? 0 : t - 10_000, "max", t - 1000), List.of(op),
                    List.of(src), new StreamingProgress.Sink("MemorySink", 5))));
            t += Math.max(duration, triggerMs > 0 ? triggerMs : 0);
        }
        if (!runId.equals(LIVE_RUN)) {
            r.onEvent(new SparkEvent.StreamingQueryTerminated(queryId, runId, error, error == null ? null
                    : "STREAM_FAILED"));
        }
        return t;
    }
}
