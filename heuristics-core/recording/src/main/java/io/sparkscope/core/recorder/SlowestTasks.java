package io.sparkscope.core.recorder;

import io.sparkscope.core.model.TaskRecord;

import java.util.Arrays;
import java.util.List;

/**
 * The slowest tasks kept so far, as a min-heap whose root is the fastest of them, in {@link KeptTasks#BY_DURATION}'s
 * order (by duration, then the higher task id first). Each record's duration and task id sit beside it as plain
 * numbers: the heap is compared on nearly every task of a large stage, on the one thread that reads the log, and a
 * {@code PriorityQueue} with a comparator worked each duration out again at every step and took two passes to
 * swap its root.
 */
final class SlowestTasks {
    private TaskRecord[] records;
    private long[] durations;
    /** Minus the task id, so that both keys order the same way. */
    private long[] negatedIds;
    private int size;

    SlowestTasks(int capacity) {
        int n = Math.max(1, capacity);
        records = new TaskRecord[n];
        durations = new long[n];
        negatedIds = new long[n];
    }

    int size() {
        return size;
    }

    /** The duration of the fastest kept task; the heap is not empty. */
    long fastestDuration() {
        return durations[0];
    }

    void add(TaskRecord record) {
        if (size == records.length) {
            int grown = size + Math.max(1, size >> 1);
            records = Arrays.copyOf(records, grown);
            durations = Arrays.copyOf(durations, grown);
            negatedIds = Arrays.copyOf(negatedIds, grown);
        }
        long d = record.durationMs();
        long id = -record.taskId();
        int k = size++;
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (!before(d, id, durations[parent], negatedIds[parent])) {
                break;
            }
            set(k, records[parent], durations[parent], negatedIds[parent]);
            k = parent;
        }
        set(k, record, d, id);
    }

    /** Puts {@code record} in the place of the fastest kept task, and returns that one; the heap is not empty. */
    TaskRecord replaceFastest(TaskRecord record) {
        TaskRecord out = records[0];
        long d = record.durationMs();
        long id = -record.taskId();
        int k = 0;
        int half = size >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < size && before(durations[right], negatedIds[right], durations[child], negatedIds[child])) {
                child = right;
            }
            if (!before(durations[child], negatedIds[child], d, id)) {
                break;
            }
            set(k, records[child], durations[child], negatedIds[child]);
            k = child;
        }
        set(k, record, d, id);
        return out;
    }

    /** Adds every kept record to {@code to}, in no particular order. */
    void addTo(List<TaskRecord> to) {
        to.addAll(Arrays.asList(records).subList(0, size));
    }

    private static boolean before(long d1, long id1, long d2, long id2) {
        return d1 < d2 || d1 == d2 && id1 < id2;
    }

    private void set(int k, TaskRecord record, long duration, long negatedId) {
        records[k] = record;
        durations[k] = duration;
        negatedIds[k] = negatedId;
    }
}
