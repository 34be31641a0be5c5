package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a write can leave out, or send straight in, judged from what the database already holds. A running application
 * is rewritten every few seconds, and most of its task rows belong to stages that finished long ago: the task rows of
 * a stage attempt whose kept tasks did not change ({@link TaskDigest}) are not shipped, streaming batches already
 * stored are not shipped again, and the rows of stage attempts not stored yet skip the comparison with stored rows.
 */
final class UnchangedRows {
    private UnchangedRows() {
    }

    /**
     * The stored stage rows of the snapshot's stage attempts, with their task digest (null when none is stored), by
     * {@link SnapshotRows#stageKey}. Read under the app's advisory lock, in the writing transaction, so nobody changes
     * them in between. Only the snapshot's own stage attempts are looked up (by primary key): reading every stage row
     * of the application made each periodic write of a long-running driver cost more the longer it ran.
     */
    static Map<Long, Long> storedTaskDigests(Connection c, long appPk, Map<Long, Long> digests)
            throws SQLException {
        Map<Long, Long> out = new java.util.HashMap<>();
        if (digests.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT s.stage_id, s.attempt_id, s.tasks_digest"
                + " FROM stage_attempt s JOIN unnest(CAST(? AS integer[]), CAST(? AS integer[])) AS u(stage_id,"
                + " attempt_id) ON s.stage_id = u.stage_id AND s.attempt_id = u.attempt_id WHERE s.app_pk = ?")) {
            SnapshotRows.bindStageKeys(c, ps, digests.keySet());
            ps.setLong(3, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long key = SnapshotRows.stageKey(rs.getInt("stage_id"), rs.getInt("attempt_id"));
                    long digest = rs.getLong("tasks_digest");
                    out.put(key, rs.wasNull() ? null : digest);
                }
            }
        }
        return out;
    }

    /**
     * Stage attempts whose kept tasks are exactly what the database holds (same {@link TaskDigest} as stored with
     * the stage row): their task rows are neither shipped nor compared again.
     */
    static Set<Long> unchangedTaskStages(Map<Long, Long> digests, Map<Long, Long> storedDigests) {
        Set<Long> out = new HashSet<>();
        storedDigests.forEach((key, stored) -> {
            Long digest = digests.get(key);
            if (stored != null && digest != null && digest.longValue() == stored) {
                out.add(key);
            }
        });
        return out;
    }

    static Set<Long> shippedStages(AppSnapshot s, Set<Long> unchanged) {
        Set<Long> out = new HashSet<>();
        for (var st : s.stages()) {
            long key = SnapshotRows.stageKey(st.stageId(), st.attemptId());
            if (!unchanged.contains(key)) {
                out.add(key);
            }
        }
        return out;
    }

    /**
     * The digest stored with a stage attempt written without task rows. Every write that stores it also deletes that
     * stage attempt's stale task rows in the same transaction (the stage is shipped, and none of its tasks are), and
     * no other path writes task rows, so a stage attempt stored with it has none in the database. A live listener
     * writes a running stage this way at every flush (its statistics without its tasks), and the stage's tasks all
     * arrive at once when it completes.
     */
    static final long NO_TASKS_DIGEST = TaskDigest.of(List.of());

    /** The snapshot's stage attempts stored with {@link #NO_TASKS_DIGEST}: no task row of theirs is stored. */
    static Set<Long> stagesWithoutStoredTasks(Map<Long, Long> storedDigests) {
        Set<Long> out = new HashSet<>();
        storedDigests.forEach((key, stored) -> {
            if (stored != null && stored == NO_TASKS_DIGEST) {
                out.add(key);
            }
        });
        return out;
    }

    /**
     * The statistics and task rows that no stored row can match, taken out of {@code rows}: those of stage attempts
     * the database does not hold yet, and the task rows of stage attempts stored without tasks
     * ({@link #stagesWithoutStoredTasks}). They go when their stage row goes (the stage table's delete trigger takes
     * both), so they go straight in (COPY into the table, or a batch) instead of through a staging table, its
     * index, a stale-row delete and an upsert that compares each with nothing. On a driver running many small jobs
     * nearly every stage of a periodic write is new, and these rows (38 statistics rows per stage) were most of the
     * database's work per write; on a driver running a big stage, its thousands of task rows all come in the write
     * after it completes, its stage row stored by the periodic writes before.
     *
     * @param storedDigests the stored stage attempts with their task digests ({@link #storedTaskDigests})
     */
    static Map<Table<?>, List<Object[]>> rowsOfNewStages(Map<Table<?>, List<Object[]>> rows,
                                                         Map<Long, Long> storedDigests) {
        Set<Long> withoutTasks = stagesWithoutStoredTasks(storedDigests);
        Map<Table<?>, List<Object[]>> out = new java.util.HashMap<>();
        for (Table<?> t : List.<Table<?>>of(Tables.STAGE_STATISTICS, Tables.TASK)) {
            List<Object[]> all = rows.get(t);
            if (all == null || all.isEmpty()) {
                continue;
            }
            boolean tasks = t == Tables.TASK;
            List<Object[]> stored = new java.util.ArrayList<>(all.size());
            List<Object[]> fresh = new java.util.ArrayList<>();
            for (Object[] row : all) {
                // the first two key columns of both tables: stage_id, stage_attempt_id
                long key = SnapshotRows.stageKey(((Number) row[0]).intValue(), ((Number) row[1]).intValue());
                boolean mayMatch = storedDigests.containsKey(key) && !(tasks && withoutTasks.contains(key));
                (mayMatch ? stored : fresh).add(row);
            }
            if (!fresh.isEmpty()) {
                rows.put(t, stored);
                out.put(t, fresh);
            }
        }
        return out;
    }

    /**
     * Per streaming query run of the snapshot, the newest batch id already stored when the stored window (as its run
     * row says) starts at or before the snapshot's: every kept batch up to it is in the database and unchanged, since
     * a batch never changes once reported. A run whose window went backwards (an older snapshot written over a newer
     * one) ships all its batches.
     */
    static Map<String, Long> storedBatchWindows(Connection c, long appPk, AppSnapshot s) throws SQLException {
        if (s.streamingQueries().isEmpty()) {
            return Map.of();
        }
        Map<String, Long> firstKept = new java.util.HashMap<>();
        for (var q : s.streamingQueries()) {
            if (!q.recentBatches().isEmpty()) {
                firstKept.put(q.runId(), q.recentBatches().get(0).batchId());
            }
        }
        Map<String, Long> out = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT run_id, kept_first_batch_id, kept_last_batch_id"
                + " FROM streaming_query WHERE app_pk = ? AND kept_last_batch_id IS NOT NULL")) {
            ps.setLong(1, appPk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Long first = firstKept.get(rs.getString(1));
                    if (first != null && rs.getLong(2) <= first) {
                        out.put(rs.getString(1), rs.getLong(3));
                    }
                }
            }
        }
        return out;
    }
}
