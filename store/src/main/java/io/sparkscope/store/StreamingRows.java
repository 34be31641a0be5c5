package io.sparkscope.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Structured Streaming rows of one application back into the model: every run with its kept batches (the
 * snapshot reader), or the runs of one query with at most their newest batches (the query page). The writer's side
 * is {@link Tables#STREAMING_QUERY} and {@link Tables#STREAMING_BATCH}.
 */
public final class StreamingRows {
    private static final TypeReference<Map<String, Long>> LONG_MAP = new TypeReference<>() {
    };
    private static final TypeReference<List<StreamingProgress.StateOperator>> OPERATORS = new TypeReference<>() {
    };
    private static final TypeReference<List<StreamingProgress.Source>> SOURCES = new TypeReference<>() {
    };

    private StreamingRows() {
    }

    /** Every run of the application in recorded order, with all its kept batches. */
    static List<StreamingQuerySummary> all(Connection c, long appPk) throws SQLException {
        return runs(c, appPk, null, Integer.MAX_VALUE);
    }

    /**
     * The runs of the application (of one query when {@code queryId} is not null), in recorded order, each with at
     * most its {@code maxBatches} newest kept batches (0: none, the run's totals only).
     */
    public static List<StreamingQuerySummary> runs(Connection c, long appPk, String queryId, int maxBatches)
            throws SQLException {
        Map<String, StreamingQuerySummary> runs = new LinkedHashMap<>();
        String where = queryId == null ? "" : " AND query_id = ?";
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Tables.STREAMING_QUERY.selectList()
                + " FROM streaming_query WHERE app_pk = ?" + where + " ORDER BY ord, start_time, run_id")) {
            ps.setLong(1, appPk);
            if (queryId != null) {
                ps.setString(2, queryId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StreamingQuerySummary q = run(rs, List.of());
                    runs.put(q.runId(), q);
                }
            }
        }
        if (runs.isEmpty() || maxBatches <= 0) {
            return List.copyOf(runs.values());
        }
        Map<String, List<StreamingBatch>> batches = new LinkedHashMap<>();
        // the newest maxBatches of each run, oldest first: a window function keeps it one statement for all runs
        String sql = "SELECT * FROM (SELECT " + Tables.STREAMING_BATCH.selectList() + ", row_number() OVER"
                + " (PARTITION BY run_id ORDER BY batch_id DESC) AS newest FROM streaming_batch WHERE app_pk = ?"
                + " AND run_id = ANY (?)) b WHERE newest <= ? ORDER BY run_id, batch_id";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, appPk);
            ps.setArray(2, c.createArrayOf("text", runs.keySet().toArray(new String[0])));
            ps.setLong(3, maxBatches);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    batches.computeIfAbsent(rs.getString("run_id"), k -> new ArrayList<>()).add(batch(rs));
                }
            }
        }
        List<StreamingQuerySummary> out = new ArrayList<>(runs.size());
        for (StreamingQuerySummary q : runs.values()) {
            List<StreamingBatch> kept = batches.getOrDefault(q.runId(), List.of());
            out.add(new StreamingQuerySummary(q.queryId(), q.runId(), q.name(), q.startTime(), q.endTime(), q.status(),
                    q.exception(), q.errorClass(), q.triggerKind(), q.triggerIntervalMs(), q.sinkDescription(),
                    q.lastProgressTime(), q.totals(), kept));
        }
        return out;
    }

    private static StreamingQuerySummary run(ResultSet rs, List<StreamingBatch> batches) throws SQLException {
        return new StreamingQuerySummary(rs.getString("query_id"), rs.getString("run_id"), rs.getString("name"),
                rs.getLong("start_time"), rs.getLong("end_time"),
                StreamingQuerySummary.Status.valueOf(rs.getString("status")), rs.getString("exception"),
                rs.getString("error_class"), rs.getString("trigger_kind"), rs.getLong("trigger_interval_ms"),
                rs.getString("sink_description"), rs.getLong("last_progress_time"),
                Json.read(rs.getString("totals"), new TypeReference<StreamingTotals>() {
                }), batches);
    }

    private static StreamingBatch batch(ResultSet rs) throws SQLException {
        return new StreamingBatch(rs.getLong("batch_id"), rs.getLong("start_time"), rs.getLong("duration_ms"),
                rs.getLong("num_input_rows"), rs.getDouble("input_rows_per_second"),
                rs.getDouble("processed_rows_per_second"), rs.getLong("num_output_rows"),
                Json.read(rs.getString("duration_parts"), LONG_MAP), rs.getLong("watermark"),
                rs.getLong("event_time_max"), Json.read(rs.getString("state_operators"), OPERATORS),
                Json.read(rs.getString("sources"), SOURCES));
    }
}
