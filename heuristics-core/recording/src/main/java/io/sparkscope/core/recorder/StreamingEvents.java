package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent.StreamingQueryIdle;
import io.sparkscope.core.event.SparkEvent.StreamingQueryProgress;
import io.sparkscope.core.event.SparkEvent.StreamingQueryStarted;
import io.sparkscope.core.event.SparkEvent.StreamingQueryTerminated;
import io.sparkscope.core.event.SparkEvent.StreamingQueryTrigger;
import io.sparkscope.core.event.StreamingProgress;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The application's Structured Streaming query runs and how the streaming events change them; past
 * {@link StreamingLimits#retainedQueryRuns()} terminated runs the oldest leaves.
 */
final class StreamingEvents {
    private final EventFolding live;
    private final StreamingLimits streamingLimits;
    /** Structured Streaming query runs by run id, in the order they were first seen. */
    final Map<String, LiveStreamingQuery> streamingQueries = new LinkedHashMap<>();
    /** Terminated runs, oldest first: past {@link StreamingLimits#retainedQueryRuns()} the oldest leaves. */
    private final ArrayDeque<LiveStreamingQuery> terminatedQueries = new ArrayDeque<>();

    StreamingEvents(EventFolding live, StreamingLimits streamingLimits) {
        this.live = live;
        this.streamingLimits = streamingLimits;
    }

    private LiveStreamingQuery streamingQuery(String runId, String queryId) {
        LiveStreamingQuery q = streamingQueries.get(runId);
        if (q == null) {
            q = new LiveStreamingQuery(runId, queryId, streamingLimits.batchesPerQuery());
            streamingQueries.put(runId, q);
        }
        // every caller is about to change the run
        q.changedAt(live.eventCount);
        return q;
    }

    void onStreamingStarted(StreamingQueryStarted e) {
        streamingQuery(e.runId(), e.queryId()).started(e.queryId(), e.name(), e.time());
        live.seen(e.time());
    }

    void onStreamingTrigger(StreamingQueryTrigger e) {
        // looked up after the start: a run that already left the recorder is not brought back
        LiveStreamingQuery q = streamingQueries.get(e.runId());
        if (q != null) {
            q.trigger(e.kind(), e.intervalMs());
            q.changedAt(live.eventCount);
        }
    }

    void onStreamingProgress(StreamingQueryProgress e) {
        StreamingProgress p = e.progress();
        streamingQuery(p.runId(), p.queryId()).progress(p);
        // Spark posts the report when the trigger ends
        live.seen(p.timestamp() > 0 && p.batchDurationMs() > 0 ? p.timestamp() + p.batchDurationMs() : p.timestamp());
    }

    void onStreamingIdle(StreamingQueryIdle e) {
        streamingQuery(e.runId(), e.queryId()).idle(e.time());
        live.seen(e.time());
    }

    /**
     * Spark's terminated event carries no time, so the run ends at the newest time seen: the same live and from the
     * log, since both see the events in the order Spark posted them.
     */
    void onStreamingTerminated(StreamingQueryTerminated e) {
        LiveStreamingQuery q = streamingQuery(e.runId(), e.queryId());
        if (q.terminated) {
            return;
        }
        q.terminated(e.exception(), e.errorClass(), live.lastEventTime);
        terminatedQueries.addLast(q);
        while (terminatedQueries.size() > streamingLimits.retainedQueryRuns()) {
            streamingQueries.remove(terminatedQueries.pollFirst().runId);
        }
    }
}
