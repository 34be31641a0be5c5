package io.sparkscope.ingest.fetch;

import io.sparkscope.core.recorder.RecorderOptions;

/**
 * @param threads   applications fetched at once (a bounded pool; the History Server replays each on first access)
 * @param overlapMs how far before the remembered newest end time the next listing starts, for applications the
 *                  History Server lists late (it parses new logs in the background, not in end-time order)
 * @param since     epoch ms: list applications that ended at or after this instead of the remembered time; -1: none
 * @param refetch   fetch applications the database already holds complete too (the write is an upsert anyway)
 */
public record FetchOptions(FetchSource source, int threads, RecorderOptions recorder, long overlapMs, long since,
                           boolean refetch) {
    public FetchOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        if (overlapMs < 0) {
            throw new IllegalArgumentException("overlap must be >= 0, got " + overlapMs);
        }
    }
}
