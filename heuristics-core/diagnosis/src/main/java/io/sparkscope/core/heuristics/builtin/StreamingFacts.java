package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Derivations the Structured Streaming heuristics share. Package-private: not an API. */
final class StreamingFacts {
    private StreamingFacts() {
    }

    /** "query 'clicks'" or "query 8d268dc2-…" (no name), as messages name a query. */
    static String label(StreamingQuerySummary q) {
        return q.name() == null || q.name().isBlank() ? "query " + q.queryId() : "query '" + q.name() + "'";
    }

    /** The query's id, run and name in a finding's details, so pages can show the finding with its query. */
    static Finding.Builder where(Finding.Builder f, StreamingQuerySummary q) {
        return f.location(q.runId()).detail("queryId", q.queryId()).detail("runId", q.runId())
                .detail("queryName", q.name());
    }

    /**
     * The phase (other than the whole trigger) that took the largest share of all batch time, with that share, or
     * null without phases: {@code addBatch} is the query's own work (its Spark jobs), the others are the engine's
     * bookkeeping (offsets, planning, the write-ahead log).
     */
    static Map.Entry<String, Double> heaviestPhase(StreamingTotals t) {
        String best = null;
        long bestMs = 0;
        for (Map.Entry<String, Long> e : t.durationPartsMs().entrySet()) {
            if (!e.getKey().equals(StreamingBatch.WHOLE_TRIGGER) && e.getValue() > bestMs) {
                best = e.getKey();
                bestMs = e.getValue();
            }
        }
        if (best == null || t.batchDurationMs() <= 0) {
            return null;
        }
        return Map.entry(best, Math.min(1.0, (double) bestMs / t.batchDurationMs()));
    }

    /** "addBatch (the query's own work) takes 82 % of batch time", or "" without phases. */
    static String heaviestPhaseText(StreamingTotals t) {
        Map.Entry<String, Double> p = heaviestPhase(t);
        if (p == null) {
            return "";
        }
        String what = switch (p.getKey()) {
            case "addBatch" -> " (the query's own work: its Spark jobs)";
            case "queryPlanning" -> " (planning the batch's query)";
            case "latestOffset", "getOffset" -> " (asking the sources for new offsets)";
            case "getBatch" -> " (reading the batch's data from the sources)";
            case "walCommit", "commitOffsets" -> " (writing the checkpoint's offset and commit logs)";
            default -> "";
        };
        return p.getKey() + what + " takes " + Units.percent(p.getValue()) + " of batch time";
    }

    /**
     * The shortest duration that a share {@code q} (0..1) of the kept batches take at most (index ceil(q·n) − 1 of
     * the sorted durations), or -1 without batches.
     */
    static long durationQuantile(List<StreamingBatch> batches, double q) {
        long[] d = batches.stream().mapToLong(StreamingBatch::durationMs).filter(x -> x >= 0).toArray();
        if (d.length == 0) {
            return -1;
        }
        Arrays.sort(d);
        return d[Math.max(0, Math.min((int) Math.ceil(q * d.length) - 1, d.length - 1))];
    }

    /** The smallest 1, 2 or 5 × 10^k at or above {@code ms}: a trigger interval a person would write. */
    static long roundUp(long ms) {
        long base = 1;
        while (true) {
            for (long m : new long[]{1, 2, 5}) {
                if (m * base >= ms) {
                    return m * base;
                }
            }
            base *= 10;
        }
    }

    /** An interval as Spark's trigger string: "500 milliseconds", "2 seconds", "5 minutes". */
    static String triggerText(long ms) {
        if (ms % 60_000 == 0) {
            long m = ms / 60_000;
            return m + (m == 1 ? " minute" : " minutes");
        }
        if (ms % 1000 == 0) {
            long s = ms / 1000;
            return s + (s == 1 ? " second" : " seconds");
        }
        return ms + " milliseconds";
    }

    /** Wall time the run's batches span (first batch start to last batch end), or 0. */
    static long spanMs(StreamingTotals t) {
        return t.firstBatchTime() > 0 && t.lastBatchEndTime() > t.firstBatchTime()
                ? t.lastBatchEndTime() - t.firstBatchTime() : 0;
    }
}
