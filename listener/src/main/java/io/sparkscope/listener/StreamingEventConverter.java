package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StreamingProgress;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.streaming.SinkProgress;
import org.apache.spark.sql.streaming.SourceProgress;
import org.apache.spark.sql.streaming.StateOperatorProgress;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Structured Streaming's listener events to ours. Spark's {@code StreamingQueryListenerBus} posts every
 * {@code StreamingQueryListener.Event} on the application's listener bus too, so a {@code SparkListener} receives
 * them through {@code onOtherEvent} (the same objects the event log writes). The values are read exactly as the
 * event-log reader reads them from the log (ISO times to epoch ms, NaN rates to -1, offsets summarised by
 * {@link StreamingProgress}), so that both give the same batches.
 */
final class StreamingEventConverter {
    static final String PACKAGE = "org.apache.spark.sql.streaming.";

    private StreamingEventConverter() {
    }

    /** Our event, or null for an event that is not one of the four. */
    static SparkEvent convert(SparkListenerEvent e) {
        if (e instanceof StreamingQueryListener.QueryProgressEvent p) {
            return new SparkEvent.StreamingQueryProgress(progress(p.progress()));
        }
        if (e instanceof StreamingQueryListener.QueryStartedEvent s) {
            return new SparkEvent.StreamingQueryStarted(s.id().toString(), s.runId().toString(), s.name(),
                    time(s.timestamp()));
        }
        if (e instanceof StreamingQueryListener.QueryTerminatedEvent t) {
            return new SparkEvent.StreamingQueryTerminated(t.id().toString(), t.runId().toString(),
                    ScalaInterop.stringOr(t.exception(), null), ScalaInterop.stringOr(t.errorClassOnException(), null));
        }
        // Spark 3.5+: tested last, so that an older Spark without the class still converts the others
        if (e instanceof StreamingQueryListener.QueryIdleEvent i) {
            return new SparkEvent.StreamingQueryIdle(i.id().toString(), i.runId().toString(), time(i.timestamp()));
        }
        return null;
    }

    static StreamingProgress progress(StreamingQueryProgress p) {
        Map<String, Long> durations = new LinkedHashMap<>();
        if (p.durationMs() != null) {
            p.durationMs().forEach((phase, ms) -> {
                if (ms != null && ms >= 0) {
                    durations.put(phase, ms);
                }
            });
        }
        Map<String, Long> eventTime = new LinkedHashMap<>();
        if (p.eventTime() != null) {
            p.eventTime().forEach((key, iso) -> {
                long t = time(iso);
                if (t >= 0) {
                    eventTime.put(key, t);
                }
            });
        }
        List<StreamingProgress.StateOperator> operators = new ArrayList<>();
        if (p.stateOperators() != null) {
            for (StateOperatorProgress op : p.stateOperators()) {
                operators.add(new StreamingProgress.StateOperator(op.operatorName(), count(op.numRowsTotal()),
                        count(op.numRowsUpdated()), count(op.numRowsRemoved()), count(op.allUpdatesTimeMs()),
                        count(op.allRemovalsTimeMs()), count(op.commitTimeMs()), count(op.memoryUsedBytes()),
                        count(op.numRowsDroppedByWatermark()), (int) count(op.numShufflePartitions()),
                        (int) count(op.numStateStoreInstances()), counts(op.customMetrics())));
            }
        }
        List<StreamingProgress.Source> sources = new ArrayList<>();
        if (p.sources() != null) {
            for (SourceProgress s : p.sources()) {
                sources.add(new StreamingProgress.Source(s.description(), s.startOffset(), s.endOffset(),
                        s.latestOffset(), count(s.numInputRows()), s.inputRowsPerSecond(), s.processedRowsPerSecond(),
                        s.metrics() == null ? Map.of() : s.metrics()));
            }
        }
        SinkProgress sink = p.sink();
        long duration = p.batchDuration() >= 0 ? p.batchDuration()
                : durations.getOrDefault("triggerExecution", -1L);
        return new StreamingProgress(p.id().toString(), p.runId().toString(), p.name(), time(p.timestamp()),
                p.batchId(), duration, durations, eventTime, operators, sources,
                sink == null ? null : new StreamingProgress.Sink(sink.description(),
                        sink.numOutputRows() < -1 ? -1 : sink.numOutputRows()));
    }

    /** Spark's ISO-8601 timestamp text as epoch ms (the watermark's 1970 start is 0), or -1. */
    static long time(String iso) {
        if (iso == null) {
            return -1;
        }
        try {
            long t = Instant.parse(iso).toEpochMilli();
            return t >= 0 ? t : -1;
        } catch (DateTimeParseException | ArithmeticException e) {
            return -1;
        }
    }

    private static long count(long v) {
        return v < 0 ? -1 : v;
    }

    private static Map<String, Long> counts(Map<String, Long> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        Map<String, Long> out = new LinkedHashMap<>();
        in.forEach((k, v) -> {
            if (v != null && v >= 0) {
                out.put(k, v);
            }
        });
        return out;
    }
}
