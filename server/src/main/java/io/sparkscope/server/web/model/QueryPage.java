package io.sparkscope.server.web.model;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppHeader;

import java.util.ArrayList;
import java.util.List;

/**
 * One Structured Streaming query of one application, as its page and its API route show it: every run of it (a
 * restart from the checkpoint keeps the query id and starts a new run), their newest batches, and the application's
 * findings about it.
 *
 * @param runs     oldest first, each with at most {@code batchLimit} of its newest kept batches
 * @param findings the findings whose details name this query
 */
public record QueryPage(AppHeader header, String queryId, List<StreamingQuerySummary> runs, List<Finding> findings,
                        int batchLimit) {

    /** Batches a page shows per run unless {@code ?batches=} says otherwise. */
    public static final int DEFAULT_BATCHES = 500;

    public QueryPage {
        runs = List.copyOf(runs);
        findings = List.copyOf(findings);
    }

    /** The query's name (from its latest run that has one), else its id. */
    public String label() {
        for (int i = runs.size() - 1; i >= 0; i--) {
            String n = runs.get(i).name();
            if (n != null && !n.isBlank()) {
                return n;
            }
        }
        return queryId;
    }

    public StreamingQuerySummary latestRun() {
        return runs.get(runs.size() - 1);
    }

    /** The shown batches of all runs, in batch order, each with its run. */
    public List<RunBatch> batches() {
        List<RunBatch> out = new ArrayList<>();
        for (StreamingQuerySummary r : runs) {
            for (StreamingBatch b : r.recentBatches()) {
                out.add(new RunBatch(r.runId(), b));
            }
        }
        out.sort((a, b) -> Long.compare(a.batch().batchId(), b.batch().batchId()));
        return out;
    }

    /** Whether any run is still running in an application still running: the page then refreshes itself. */
    public boolean live() {
        return header.status() == AppFilter.Status.RUNNING
                && runs.stream().anyMatch(r -> r.status() == StreamingQuerySummary.Status.RUNNING);
    }

    /** Findings whose details name {@code queryId} (the streaming heuristics put it there). */
    public static List<Finding> about(String queryId, List<Finding> all) {
        return all.stream().filter(f -> queryId.equals(f.details().get("queryId"))).toList();
    }

    public record RunBatch(String runId, StreamingBatch batch) {
    }
}
