package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppSnapshot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Test fixture: an application with Structured Streaming queries, fed through a real {@link Recorder} as Spark's
 * events, so that tests state only the batch numbers that matter and get the recorder's totals.
 *
 * <pre>
 * AppSnapshot s = StreamingRun.app().query("q", "clicks").triggerMs(1000)
 *         .batches(60, i -> StreamingRun.batch().rows(1000).durationMs(1500)).done().build();
 * </pre>
 */
public final class StreamingRun {
    public static final long START = 1_700_000_000_000L;

    private final Map<String, String> conf = new HashMap<>(Map.of("spark.master", "local[4]"));
    private final List<Query> queries = new ArrayList<>();
    private StreamingLimits limits = StreamingLimits.DEFAULTS;
    private boolean ended = true;

    public static StreamingRun app() {
        return new StreamingRun();
    }

    public static Batch batch() {
        return new Batch();
    }

    public StreamingRun conf(String key, String value) {
        conf.put(key, value);
        return this;
    }

    public StreamingRun limits(StreamingLimits l) {
        this.limits = l;
        return this;
    }

    /** The application is still running (no ApplicationEnd). */
    public StreamingRun running() {
        this.ended = false;
        return this;
    }

    public Query query(String queryId, String name) {
        Query q = new Query(this, queryId, name);
        queries.add(q);
        return q;
    }

    /** The events, in the order Spark would post them (queries one after another). */
    public List<SparkEvent> events() {
        List<SparkEvent> out = new ArrayList<>();
        out.add(new SparkEvent.ApplicationStart("streaming-app", "app-streaming", null, START, "alice"));
        out.add(new SparkEvent.EnvironmentUpdate(conf, Map.of(), Map.of(), Map.of()));
        // the driver, which runs the tasks in local mode (its cores come from spark.master)
        out.add(new SparkEvent.BlockManagerAdded(START, "driver", "localhost", 1L << 30));
        long t = START + 1000;
        for (Query q : queries) {
            t = q.emit(out, t);
        }
        if (ended) {
            out.add(new SparkEvent.ApplicationEnd(t + 1000));
        }
        return out;
    }

    public AppSnapshot build() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS, limits);
        events().forEach(r::onEvent);
        return r.snapshot();
    }

    /** One run of a query: its batches one after another from its start. */
    public static final class Query {
        private final StreamingRun app;
        private final String queryId;
        private final String name;
        private String runId;
        private long triggerMs = -1;
        private final List<Batch> batches = new ArrayList<>();
        private String exception;
        private boolean terminates = true;

        Query(StreamingRun app, String queryId, String name) {
            this.app = app;
            this.queryId = queryId;
            this.name = name;
            this.runId = queryId + "-run";
        }

        public Query runId(String id) {
            this.runId = id;
            return this;
        }

        /** A ProcessingTime trigger of this interval (what the live listener looks up). */
        public Query triggerMs(long ms) {
            this.triggerMs = ms;
            return this;
        }

        public Query batches(int n, IntFunction<Batch> batch) {
            for (int i = 0; i < n; i++) {
                batches.add(batch.apply(i));
            }
            return this;
        }

        public Query fails(String error) {
            this.exception = error;
            return this;
        }

        /** The run is still going when the events end. */
        public Query keepsRunning() {
            this.terminates = false;
            return this;
        }

        public StreamingRun done() {
            return app;
        }

        long emit(List<SparkEvent> out, long t) {
            out.add(new SparkEvent.StreamingQueryStarted(queryId, runId, name, t));
            if (triggerMs >= 0) {
                out.add(new SparkEvent.StreamingQueryTrigger(queryId, runId, "ProcessingTime", triggerMs));
            }
            long previousStart = -1;
            long id = 0;
            for (Batch b : batches) {
                long start = b.gapBeforeMs < 0 && triggerMs > 0 && previousStart > 0
                        ? Math.max(t, previousStart + triggerMs) : t + Math.max(0, b.gapBeforeMs);
                out.add(new SparkEvent.StreamingQueryProgress(b.progress(queryId, runId, name, id++, start)));
                previousStart = start;
                t = start + b.durationMs;
            }
            if (terminates) {
                out.add(new SparkEvent.StreamingQueryTerminated(queryId, runId, exception, null));
            }
            return t;
        }
    }

    /** One batch's numbers; rates default to what the rows and times give. */
    public static final class Batch {
        long rows = 100;
        long durationMs = 500;
        double inputRate = -2;
        double processedRate = -2;
        long gapBeforeMs = -1;
        long watermark = -1;
        long eventTimeMax = -1;
        final List<StreamingProgress.StateOperator> operators = new ArrayList<>();
        int shufflePartitions = 200;

        public Batch rows(long n) {
            this.rows = n;
            return this;
        }

        public Batch durationMs(long ms) {
            this.durationMs = ms;
            return this;
        }

        public Batch inputRate(double r) {
            this.inputRate = r;
            return this;
        }

        public Batch processedRate(double r) {
            this.processedRate = r;
            return this;
        }

        /** Time between the previous batch's end and this one's start (default: the trigger's rhythm). */
        public Batch gapBeforeMs(long ms) {
            this.gapBeforeMs = ms;
            return this;
        }

        public Batch watermark(long epochMs) {
            this.watermark = epochMs;
            return this;
        }

        public Batch eventTimeMax(long epochMs) {
            this.eventTimeMax = epochMs;
            return this;
        }

        public Batch shufflePartitions(int n) {
            this.shufflePartitions = n;
            return this;
        }

        /** A stateful operator holding {@code rowsTotal} rows in {@code memoryBytes}. */
        public Batch state(long rowsTotal, long memoryBytes, long removed, long droppedByWatermark) {
            operators.add(new StreamingProgress.StateOperator("stateStoreSave", rowsTotal, rowsTotal / 10, removed,
                    5, 1, 3, memoryBytes, droppedByWatermark, shufflePartitions, shufflePartitions, Map.of()));
            return this;
        }

        StreamingProgress progress(String queryId, String runId, String name, long batchId, long start) {
            Map<String, Long> durations = new LinkedHashMap<>();
            durations.put("triggerExecution", durationMs);
            durations.put("latestOffset", durationMs / 20);
            durations.put("getBatch", durationMs / 20);
            durations.put("queryPlanning", durationMs / 10);
            durations.put("addBatch", durationMs * 6 / 10);
            durations.put("walCommit", durationMs / 10);
            durations.put("commitOffsets", durationMs / 20);
            Map<String, Long> eventTime = new LinkedHashMap<>();
            if (watermark >= 0) {
                eventTime.put("watermark", watermark);
            }
            if (eventTimeMax >= 0) {
                eventTime.put("max", eventTimeMax);
            }
            double processed = processedRate != -2 ? processedRate : durationMs == 0 ? -1 : rows * 1000.0 / durationMs;
            double input = inputRate != -2 ? inputRate : batchId == 0 ? -1 : processed;
            StreamingProgress.Source source = new StreamingProgress.Source("RateStreamV2[rowsPerSecond=100]",
                    batchId == 0 ? null : String.valueOf(batchId * rows), String.valueOf((batchId + 1) * rows),
                    String.valueOf((batchId + 1) * rows), rows, input, processed, Map.of());
            return new StreamingProgress(queryId, runId, name, start, batchId, durationMs, durations, eventTime,
                    operators, List.of(source), new StreamingProgress.Sink("MemorySink", rows));
        }
    }
}
