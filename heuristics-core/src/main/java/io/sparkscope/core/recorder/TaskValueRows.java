package io.sparkscope.core.recorder;

import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.TaskDistributions;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The distribution-metric values of a stage attempt's successful tasks, one primitive column per
 * {@link DistributionMetric}: {@link RecorderOptions#BYTES_PER_TASK_ROW} bytes a task, no per-task objects.
 * Past {@code limit} rows it keeps a uniform reservoir sample (Vitter's Algorithm R) with a seed fixed per stage, so
 * the same events always give the same sample (live and replayed runs agree).
 */
final class TaskValueRows {
    private static final int METRICS = DistributionMetric.count();
    private static final DistributionMetric[] ALL = DistributionMetric.values();

    private final int limit;
    private final SplittableRandom random;
    private long[][] columns = new long[METRICS][];
    private int size;
    private long seen;

    TaskValueRows(int limit, long seed) {
        this.limit = limit;
        this.random = new SplittableRandom(seed);
        for (int m = 0; m < METRICS; m++) {
            columns[m] = new long[Math.min(16, limit)];
        }
    }

    void add(TaskInfo info, TaskMetrics metrics) {
        seen++;
        int row;
        if (size < limit) {
            if (size == columns[0].length) {
                int grown = (int) Math.min(limit, Math.max(16L, (long) size * 2));
                for (int m = 0; m < METRICS; m++) {
                    columns[m] = Arrays.copyOf(columns[m], grown);
                }
            }
            row = size++;
        } else {
            long j = random.nextLong(seen);
            if (j >= limit) {
                return;
            }
            row = (int) j;
        }
        for (int m = 0; m < METRICS; m++) {
            columns[m][row] = ALL[m].valueOf(info, metrics);
        }
    }

    /** Number of successful tasks seen (the population), not the rows kept. */
    long seen() {
        return seen;
    }

    int rows() {
        return size;
    }

    boolean exact() {
        return seen == size;
    }

    TaskDistributions distributions(double[] quantiles) {
        if (size == 0) {
            return null;
        }
        double[][] values = new double[METRICS][];
        for (int m = 0; m < METRICS; m++) {
            values[m] = Quantiles.of(columns[m], size, quantiles);
        }
        return new TaskDistributions(seen, exact(), quantiles, values);
    }

    /** Frees the columns; the caller keeps the computed distributions. */
    void release() {
        columns = null;
    }

    boolean released() {
        return columns == null;
    }
}
