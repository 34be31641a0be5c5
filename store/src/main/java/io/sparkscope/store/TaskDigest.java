package io.sparkscope.store;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;

import java.util.List;

/**
 * A 64-bit digest of one stage attempt's task rows as {@link SnapshotRows} writes them (every column, in list order,
 * so a changed position changes it too), stored in {@code stage_attempt.tasks_digest}. The writer compares it with
 * the stored one and does not ship the rows of a stage whose digest did not change: a running application's
 * snapshot is rewritten every few seconds, and with up to 10 000 kept tasks per stage almost all of them belong to
 * stages that finished long ago.
 *
 * <p>Computed from the model, not from the rows, so the rows of unchanged stages are never even built. Not a
 * cryptographic hash: a collision (2⁻⁶⁴ per comparison) would leave one stage's stored tasks one snapshot behind.
 * {@link #FORMAT} changes whenever the task row's columns do, so every stored digest then mismatches once.
 */
final class TaskDigest {
    /**
     * Bump when {@code Tables.TASK}'s columns or their encoding change. Not bumped by V33, which turned the metrics
     * column from JSON into a bigint array: it converted every stored row to exactly what the writer now sends, so the
     * stored digests still describe the stored rows.
     */
    static final long FORMAT = 2;
    private static final long PRIME = 0x100000001b3L;

    private TaskDigest() {
    }

    static long of(List<TaskRecord> tasks) {
        long h = 0xcbf29ce484222325L ^ FORMAT;
        h = mix(h, tasks.size());
        for (TaskRecord t : tasks) {
            h = mix(h, t.taskId());
            h = mix(h, t.index());
            h = mix(h, t.attempt());
            h = mix(h, t.partitionId());
            h = mix(h, t.executorId());
            h = mix(h, t.host());
            h = mix(h, t.locality());
            h = mix(h, t.speculative() ? 1 : 0);
            h = mix(h, t.launchTime());
            h = mix(h, t.finishTime());
            h = mix(h, t.gettingResultTime());
            h = mix(h, t.status());
            h = mix(h, t.endReason());
            h = mix(h, t.errorMessage());
            h = mix(h, t.errorDetail());
            TaskMetrics m = t.metrics();
            if (m == null) {
                h = mix(h, -1);
            } else {
                for (int i = 0; i < TaskMetric.count(); i++) {
                    h = mix(h, m.valueAt(i));
                }
            }
        }
        return finish(h);
    }

    private static long mix(long h, long v) {
        // FNV-1a over the value's 8 bytes at once, then a multiply-xorshift so nearby values spread.
        h = (h ^ v) * PRIME;
        return h ^ (h >>> 29);
    }

    private static long mix(long h, String s) {
        if (s == null) {
            return mix(h, 0x7fff_ffff_ffff_fff1L);
        }
        h = mix(h, s.length());
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * PRIME;
        }
        return h;
    }

    /** MurmurHash3's 64-bit finaliser. */
    private static long finish(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
