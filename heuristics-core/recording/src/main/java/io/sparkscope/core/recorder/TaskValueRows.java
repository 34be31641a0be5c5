package io.sparkscope.core.recorder;

import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
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
    /** Per distribution metric: the TaskMetric ordinal it copies, or -1 when derived (computed once per task). */
    private static final int[] SOURCE = new int[METRICS];
    private static final int DURATION = DistributionMetric.DURATION.ordinal();
    private static final int GETTING_RESULT_TIME = DistributionMetric.GETTING_RESULT_TIME.ordinal();
    private static final int SCHEDULER_DELAY = DistributionMetric.SCHEDULER_DELAY.ordinal();
    private static final int SHUFFLE_READ_BYTES = DistributionMetric.SHUFFLE_READ_BYTES.ordinal();
    private static final int SHUFFLE_TOTAL_BLOCKS_FETCHED = DistributionMetric.SHUFFLE_TOTAL_BLOCKS_FETCHED.ordinal();
    /** Metrics derived from the task's timestamps: their column holds TaskTimes.UNKNOWN where those were unknown. */
    private static final boolean[] TIMESTAMP_METRIC = new boolean[METRICS];

    static {
        for (int m = 0; m < METRICS; m++) {
            TaskMetric source = ALL[m].taskMetric();
            SOURCE[m] = source == null ? -1 : source.ordinal();
            TIMESTAMP_METRIC[m] = ALL[m].fromTimestamps();
            if (source == null && m != DURATION && m != GETTING_RESULT_TIME && m != SCHEDULER_DELAY
                    && m != SHUFFLE_READ_BYTES && m != SHUFFLE_TOTAL_BLOCKS_FETCHED) {
                throw new IllegalStateException("derived metric without a row rule: " + ALL[m]);
            }
        }
    }

    private final int limit;
    private final SplittableRandom random;
    private long[][] columns = new long[METRICS][];
    private int size;
    private long seen;
    /** The stage attempt's task count, 0 while unknown. */
    private int expectedRows;

    TaskValueRows(int limit, long seed) {
        this.limit = limit;
        this.random = new SplittableRandom(seed);
        for (int m = 0; m < METRICS; m++) {
            columns[m] = new long[Math.min(16, limit)];
        }
    }

    /** The stage attempt's task count: the columns grow toward it ({@link #grownSize}). */
    void expectRows(int numTasks) {
        expectedRows = Math.max(0, numTasks);
    }

    void add(TaskInfo info, TaskMetrics metrics) {
        seen++;
        int row;
        if (size < limit) {
            if (size == columns[0].length) {
                int grown = (int) Math.min(limit, grownSize());
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
        long[][] cols = columns;
        for (int m = 0; m < METRICS; m++) {
            int source = SOURCE[m];
            if (source >= 0) {
                cols[m][row] = metrics.valueAt(source);
            }
        }
        // the derived ones, exactly as DistributionMetric.valueOf computes them (UNKNOWN for unknown timestamps)
        cols[DURATION][row] = DistributionMetric.duration(info);
        cols[GETTING_RESULT_TIME][row] = DistributionMetric.gettingResultTime(info);
        cols[SCHEDULER_DELAY][row] = DistributionMetric.schedulerDelay(info, metrics);
        cols[SHUFFLE_READ_BYTES][row] = metrics.shuffleReadBytes();
        cols[SHUFFLE_TOTAL_BLOCKS_FETCHED][row] = metrics.shuffleTotalBlocksFetched();
    }

    /**
     * The columns' next size. Doubling, a 10 000-task stage would copy them ten times on the way up and end with 64 %
     * spare room. Toward a known task count they grow four times at a step and stop at the count: five copies, no
     * spare room at the end. A stage that stops early (a cancelled job) still holds at most four times its rows, so
     * a live driver does not hold room for tasks that never run.
     */
    private long grownSize() {
        long doubled = Math.max(16L, (long) size * 2);
        return expectedRows > size ? Math.min(expectedRows, Math.max(doubled, (long) size * 4)) : doubled;
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
        return distributions(quantiles, false);
    }

    /**
     * The distributions, and the columns freed: they are sorted in place rather than copied first (a completed
     * stage of many tasks, on the thread that reads the log).
     */
    TaskDistributions distributionsAndRelease(double[] quantiles) {
        TaskDistributions d = distributions(quantiles, true);
        columns = null;
        return d;
    }

    private TaskDistributions distributions(double[] quantiles, boolean inPlace) {
        if (size == 0) {
            return null;
        }
        double[][] values = new double[METRICS][];
        for (int m = 0; m < METRICS; m++) {
            long[] column = inPlace ? columns[m] : Arrays.copyOf(columns[m], size);
            values[m] = TIMESTAMP_METRIC[m] ? Quantiles.knownInPlace(column, size, quantiles)
                    : Quantiles.inPlace(column, size, quantiles);
        }
        return new TaskDistributions(seen, exact(), quantiles, values);
    }

    boolean released() {
        return columns == null;
    }
}
