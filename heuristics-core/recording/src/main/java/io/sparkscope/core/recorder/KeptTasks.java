package io.sparkscope.core.recorder;

import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The successful and killed tasks of one stage attempt kept in detail: every one up to {@code cap}; past it the
 * {@code ⌈cap/2⌉} slowest (by duration) and a uniform random sample of {@code ⌊cap/2⌋} of the others.
 *
 * <p>One pass, bounded memory: a min-heap holds the slowest so far; every task that does not enter it, or is pushed
 * out of it by a slower one, joins "the others", which a reservoir (Vitter's Algorithm R) samples. Algorithm R keeps
 * each element of its input with the same probability whatever the order, so the sample is uniform over the tasks
 * that are not among the final slowest. Up to {@code cap} tasks the reservoir never overflows, so nothing is dropped.
 * Its seed is fixed per stage attempt: the same events give the same sample (live and replayed runs agree).
 *
 * <p>Records are built lazily (a {@link Supplier}) only when a task is actually kept.
 */
final class KeptTasks {
    /** Faster first, and of two as fast the higher task id first: the heap's root is the fastest kept task. */
    static final Comparator<TaskRecord> BY_DURATION = KeptTasks::byDuration;

    private int slowLimit;
    private int sampleLimit;
    private SlowestTasks slowest;
    private TaskRecord[] sample;
    private int sampleSize;
    /** Tasks that went to "the others" (passed by or pushed out of the heap): the reservoir's population. */
    private long others;
    private final SplittableRandom random;
    private boolean thinned;

    KeptTasks(int cap, long seed) {
        this.slowLimit = cap - cap / 2;
        this.sampleLimit = cap / 2;
        // Small at first: most stages of a long-running application have a handful of tasks, and it grows as needed.
        this.slowest = new SlowestTasks(Math.min(slowLimit, 16));
        this.sample = new TaskRecord[Math.min(sampleLimit, 16)];
        this.random = new SplittableRandom(seed);
    }

    private static int byDuration(TaskRecord a, TaskRecord b) {
        int c = Long.compare(a.durationMs(), b.durationMs());
        return c != 0 ? c : Long.compare(-a.taskId(), -b.taskId());
    }

    void add(long durationMs, Supplier<TaskRecord> record) {
        if (slowLimit == 0) {
            others++; // nothing is kept in detail (cap 0)
            return;
        }
        if (slowest.size() < slowLimit) {
            slowest.add(record.get());
        } else if (durationMs > slowest.fastestDuration()) {
            TaskRecord out = slowest.replaceFastest(record.get());
            other(() -> out);
        } else {
            other(record);
        }
    }

    private void other(Supplier<TaskRecord> record) {
        others++;
        if (sampleSize < sampleLimit) {
            if (sampleSize == sample.length) {
                sample = Arrays.copyOf(sample, (int) Math.min(sampleLimit, Math.max(16L, 2L * sampleSize)));
            }
            sample[sampleSize++] = record.get();
        } else if (sampleLimit > 0) {
            long j = random.nextLong(others);
            if (j < sampleLimit) {
                sample[(int) j] = record.get();
            }
        }
    }

    int size() {
        return slowest.size() + sampleSize;
    }

    TaskDetail detail() {
        if (others == sampleSize) {
            return TaskDetail.ALL;
        }
        return thinned ? TaskDetail.SLOWEST : TaskDetail.SAMPLED;
    }

    /** Slowest first. */
    List<TaskRecord> sorted() {
        List<TaskRecord> all = new ArrayList<>(size());
        slowest.addTo(all);
        for (int i = 0; i < sampleSize; i++) {
            all.add(sample[i]);
        }
        all.sort(BY_DURATION.reversed());
        return all;
    }

    /**
     * Keeps only the {@code keep} slowest from now on (the application's task-detail budget is spent). The heap
     * already holds the true slowest, and every sampled task is at most as slow as its fastest, so the slowest
     * {@code keep} of what is kept are the slowest {@code keep} of the stage.
     */
    void thinTo(int keep) {
        if (size() <= keep) {
            return;
        }
        List<TaskRecord> all = sorted();
        long seen = all.size() + (others - sampleSize);
        slowLimit = keep;
        sampleLimit = 0;
        slowest = new SlowestTasks(keep);
        for (TaskRecord r : all.subList(0, Math.min(keep, all.size()))) {
            slowest.add(r);
        }
        sample = new TaskRecord[0];
        sampleSize = 0;
        others = seen - slowest.size();
        thinned = true;
    }
}
