package io.sparkscope.store.query;

import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.store.ReadTransaction;
import io.sparkscope.store.StreamingRows;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.List;

/**
 * The Structured Streaming query runs of a stored application for the web UI: the list (each run's lifecycle and
 * totals, no batches) for the application page, and the runs of one query with their newest batches for the query
 * page. One read-only REPEATABLE READ transaction each, so a listener writing meanwhile never shows half a flush.
 */
public final class StreamingQueries {
    /** Batches a query page shows at most per run (its charts and table). */
    public static final int MAX_BATCHES = 5000;

    private final DataSource dataSource;

    public StreamingQueries(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Every run of the application, in the order they were first seen, without batches. */
    public List<StreamingQuerySummary> runs(long appPk) throws SQLException {
        return read(appPk, null, 0);
    }

    /** The runs of {@code queryId}, each with its newest {@code maxBatches} kept batches (at most MAX_BATCHES). */
    public List<StreamingQuerySummary> query(long appPk, String queryId, int maxBatches) throws SQLException {
        return read(appPk, queryId, Math.min(MAX_BATCHES, Math.max(0, maxBatches)));
    }

    private List<StreamingQuerySummary> read(long appPk, String queryId, int maxBatches) throws SQLException {
        return ReadTransaction.run(dataSource, c -> StreamingRows.runs(c, appPk, queryId, maxBatches));
    }
}
