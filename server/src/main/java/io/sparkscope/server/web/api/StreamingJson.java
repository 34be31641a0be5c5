package io.sparkscope.server.web.api;

import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.QueryPage;
import io.sparkscope.store.query.AppHeader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of Structured Streaming queries: {@code /api/v1/apps/{id}/queries} lists them with their runs,
 * {@code …/queries/{queryId}} gives one query's runs and batches (what its page charts, embedded there too). Times
 * epoch ms, durations ms, -1 for unknown, rates rows per second.
 */
public final class StreamingJson {
    private StreamingJson() {
    }

    /** The query page's data as its API route answers it. */
    public static String queryJson(QueryPage q) {
        return ApiJson.write(Query.of(q));
    }

    /** {@code …/queries}: the application's queries, each with its runs (oldest first). */
    record Queries(String appId, String attemptId, String status, long lastEventTime, List<QueryRuns> queries) {
        static Queries of(AppHeader a, List<StreamingQuerySummary> runs) {
            Map<String, List<StreamingQuerySummary>> byQuery = new LinkedHashMap<>();
            for (StreamingQuerySummary r : runs) {
                byQuery.computeIfAbsent(r.queryId(), k -> new ArrayList<>()).add(r);
            }
            List<QueryRuns> out = new ArrayList<>();
            byQuery.forEach((id, rs) -> out.add(new QueryRuns(id, StreamingJson.name(rs),
                    Urls.query(a.appId(), a.attemptId(), id), rs.get(rs.size() - 1).status().name(),
                    rs.stream().map(Run::of).toList())));
            return new Queries(a.appId(), a.attemptId(), a.status().name(), a.lastEventTime(), out);
        }
    }

    /** The latest name a run of the query had, or null. */
    static String name(List<StreamingQuerySummary> runs) {
        for (int i = runs.size() - 1; i >= 0; i--) {
            if (runs.get(i).name() != null) {
                return runs.get(i).name();
            }
        }
        return null;
    }

    /** @param status the latest run's */
    record QueryRuns(String queryId, String name, String url, String status, List<Run> runs) {
    }

    /** One run of a query: lifecycle, trigger, totals over all its batches and how many are kept. */
    record Run(String queryId, String runId, String name, String status, long startTime, long endTime,
               String exception, String errorClass, String triggerKind, long triggerIntervalMs, String sinkDescription,
               long lastProgressTime, int batchesKept, StreamingTotals totals) {
        static Run of(StreamingQuerySummary r) {
            return new Run(r.queryId(), r.runId(), r.name(), r.status().name(), r.startTime(), r.endTime(),
                    r.exception(), r.errorClass(), r.triggerKind(), r.triggerIntervalMs(), r.sinkDescription(),
                    r.lastProgressTime(), r.recentBatches().size(), r.totals());
        }
    }

    /** {@code …/queries/{queryId}}: the query's runs and their shown batches in batch order. */
    record Query(String appId, String attemptId, String status, long lastEventTime, String queryId, String name,
                 boolean live, int batchLimit, List<Run> runs, List<Batch> batches, List<FindingJson> findings) {
        static Query of(QueryPage q) {
            AppHeader a = q.header();
            return new Query(a.appId(), a.attemptId(), a.status().name(), a.lastEventTime(), q.queryId(),
                    StreamingJson.name(q.runs()), q.live(), q.batchLimit(), q.runs().stream().map(Run::of).toList(),
                    q.batches().stream().map(Batch::of).toList(),
                    FindingJson.all(Diagnosis.of(q.findings(), a.durationMs())));
        }
    }

    /**
     * One batch: Spark's numbers, the state summed over the stateful operators, and the trigger time no named phase
     * accounts for ({@code otherMs}), so the phases and it add up to the batch duration.
     */
    record Batch(String runId, long batchId, long timestamp, long durationMs, long numInputRows,
                 double inputRowsPerSecond, double processedRowsPerSecond, long numOutputRows,
                 Map<String, Long> durationParts, long otherMs, long watermark, long eventTimeMax, long stateRows,
                 long stateMemoryBytes, long rowsDroppedByWatermark, List<StreamingProgress.StateOperator> stateOperators,
                 List<StreamingProgress.Source> sources) {
        static Batch of(QueryPage.RunBatch rb) {
            StreamingBatch b = rb.batch();
            return new Batch(rb.runId(), b.batchId(), b.timestamp(), b.durationMs(), b.numInputRows(),
                    b.inputRowsPerSecond(), b.processedRowsPerSecond(), b.numOutputRows(), b.durationParts(),
                    b.unaccountedMs(), b.watermark(), b.eventTimeMax(), b.stateRows(), b.stateMemoryBytes(),
                    b.rowsDroppedByWatermark(), b.stateOperators(), b.sources());
        }
    }
}
