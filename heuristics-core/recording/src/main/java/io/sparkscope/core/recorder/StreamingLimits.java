package io.sparkscope.core.recorder;

/**
 * How much of Structured Streaming a {@link Recorder} holds. A query runs for days, reporting a batch every few
 * seconds, so the recorder keeps per query run only its latest batches besides running totals over all of them
 * ({@link io.sparkscope.core.model.StreamingTotals}), and only the latest terminated runs.
 *
 * @param batchesPerQuery   batches kept per query run (the newest); older ones are only in the totals (and, for a live
 *                          listener, in the database rows written while they were kept)
 * @param retainedQueryRuns terminated query runs kept; past it the oldest terminated run leaves. Running runs always
 *                          stay
 */
public record StreamingLimits(int batchesPerQuery, int retainedQueryRuns) {

    /**
     * Heap bytes one kept batch takes, measured by the test-scope {@code StreamingWindowMemoryTest} for a batch with one
     * stateful operator and one source (64-bit JVM, compressed references): about 700 bytes; each further operator or
     * source adds about 200 bytes.
     */
    public static final int BYTES_PER_BATCH = 800;

    /** 1 000 batches per run (a few hours of a 10-second trigger), 200 terminated runs. */
    public static final StreamingLimits DEFAULTS = new StreamingLimits(1_000, 200);

    public StreamingLimits {
        if (batchesPerQuery < 1) {
            throw new IllegalArgumentException("streaming.batchesPerQuery must be >= 1");
        }
        if (retainedQueryRuns < 0) {
            throw new IllegalArgumentException("streaming.retainedQueries must be >= 0");
        }
    }

    /** Approximate upper bound of the bytes of kept batches with {@code runningQueries} runs running at once. */
    public long batchBytesBound(int runningQueries) {
        return ((long) runningQueries + retainedQueryRuns) * batchesPerQuery * BYTES_PER_BATCH;
    }
}
